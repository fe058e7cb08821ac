"""What creating a build's files costs on this machine's disk, beside the same in memory.

A cold build creates ~4,100 files (2,000 pages and their share cards, where Pelican writes
~2,000), so the system time of a file creation is part of what `benchmarks/build_bench.py`
compares. On an ext4 mounted without a journal the kernel skips inodes freed in the last minute
or more (five if their table block is still dirty) when it allocates one, so the same creations
can cost several times the system time for a while after many files were deleted anywhere on
that disk, by this process or another (`perf` on a build there with a warm cache: 13–18 % of its
time in `find_get_block_common` called by `recently_deleted`, 9–11 % in `recently_deleted`
itself); the build benchmark deletes nothing between its measured builds, and `--pasta` puts
its folders elsewhere. This one creates files in a new folder, then as many again right after
deleting the first ones, in the temporary folder and in /dev/shm (memory).

    python benchmarks/criacao_arquivos_bench.py [--arquivos 4000] [--rodadas 3] [--sem-registro]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import filesystem, median, write_section  # noqa: E402

TAMANHO = 9_000  # bytes per file: about a rendered check page


def _system_seconds() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_stime


def create(folder: Path, files: int) -> float:
    """System CPU seconds of creating `files` files of `TAMANHO` bytes in the new `folder`."""
    folder.mkdir()
    data = b"x" * TAMANHO
    started = _system_seconds()
    for number in range(files):
        (folder / f"{number}.html").write_bytes(data)
    return _system_seconds() - started


def measure(base: Path, files: int) -> tuple[float, float]:
    """(creations in a fresh folder, creations right after deleting as many) in system seconds."""
    with tempfile.TemporaryDirectory(dir=base) as tmp:
        fresh = create(Path(tmp) / "a", files)
        shutil.rmtree(Path(tmp) / "a")
        after = create(Path(tmp) / "b", files)
    return fresh, after


def main() -> None:
    """Run the benchmark and record the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--arquivos", type=int, default=4000)
    parser.add_argument("--rodadas", type=int, default=3)
    parser.add_argument("--sem-registro", action="store_true", help="não grava docs/PERFORMANCE.md")
    args = parser.parse_args()
    places = [Path(tempfile.gettempdir())]
    if Path("/dev/shm").is_dir():
        places.append(Path("/dev/shm"))
    lines = [
        f"System CPU seconds of creating {args.arquivos:,} files of {TAMANHO:,} bytes in a new folder, "
        "and of creating as many again right after deleting the first ones; median of "
        f"{args.rodadas} rounds. The dmesg of an ext4 says whether it was mounted without a journal.",
        "",
        "| Folder | Mount | Creations | Creations after the deletion | Ratio |",
        "|---|---|---:|---:|---:|",
    ]
    for place in places:
        rounds = [measure(place, args.arquivos) for _ in range(args.rodadas)]
        fresh, after = median([f for f, _ in rounds]), median([a for _, a in rounds])
        ratio = f"{after / fresh:.1f}×" if fresh > 0 else "—"
        lines.append(f"| {place} | {filesystem(place)} | {fresh:.3f} s | {after:.3f} s | {ratio} |")
    body = "\n".join(lines)
    print(body)
    if not args.sem_registro:
        write_section("File creation after a mass deletion", command(args), body)


def command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run."""
    words = ["python benchmarks/criacao_arquivos_bench.py"]
    if args.arquivos != 4000:
        words.append(f"--arquivos {args.arquivos}")
    if args.rodadas != 3:
        words.append(f"--rodadas {args.rodadas}")
    return " ".join(words)


if __name__ == "__main__":
    main()
