"""CLI benchmark: what each `eleicoes` subcommand costs as a whole process (start-up included).

Measures, as separate processes and side by side: `eleicoes --help`; `eleicoes projetar SNAP` against
`python -m model.cli projetar SNAP` on a real snapshot; a no-op `eleicoes build` (nothing changed
since the last build of the shipped content) and a one-page `eleicoes publicar` to a local folder
(one page changed since the last publish). Records the medians in docs/PERFORMANCE.md.

    python benchmarks/cli_bench.py [--rodadas 5]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import median, write_section  # noqa: E402

SNAPSHOT = REPO.parent / "shared/datasets/tse/2026-1t-parcial/2026-10-04T21-39-46Z"
HELP_TARGET_S = 0.3
WHOLE_TARGET_S = 1.5
PROJECTION_RATIO = 1.5


def eleicoes_script() -> list[str]:
    """The console script next to this interpreter (what a user runs), else `python -m eleicoes`."""
    script = Path(sys.executable).parent / "eleicoes"
    return [str(script)] if script.exists() else [sys.executable, "-m", "eleicoes"]


def timed(command: Sequence[str], rounds: int, before: Callable[[int], None] | None = None) -> float:
    """Median wall time of `command` run `rounds` times (after one warm-up run); fails if it fails."""
    times: list[float] = []
    for i in range(rounds + 1):
        if before is not None:
            before(i)
        start = time.perf_counter()
        subprocess.run(command, cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if i:
            times.append(time.perf_counter() - start)
    return median(times)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements, print them side by side and record them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rodadas", type=int, default=5, help="medições por comando (mediana)")
    args = parser.parse_args(argv)
    cli = eleicoes_script()
    with tempfile.TemporaryDirectory(prefix="cli-bench-") as tmp:
        root = Path(tmp) / "projeto"
        for folder in ("content", "templates"):
            shutil.copytree(REPO / folder, root / folder)
        out, dest = Path(tmp) / "public", Path(tmp) / "publicado"
        build = [*cli, "build", "--raiz", str(root), "--saida", str(out)]
        publish = [*cli, "publicar", "--raiz", str(root), "--entrada", str(out), "--destino", str(dest)]
        subprocess.run(build, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(publish, check=True, stdout=subprocess.DEVNULL)
        page = out / "index.html"
        original = page.read_text(encoding="utf-8")

        def change_one_page(i: int) -> None:
            page.write_text(f"{original}<!-- rodada {i} -->\n", encoding="utf-8")

        figures = {
            "python -c pass (interpreter start-up)": timed([sys.executable, "-c", "pass"], args.rodadas),
            "eleicoes --help": timed([*cli, "--help"], args.rodadas),
            "python -m model.cli projetar SNAP": timed(
                [sys.executable, "-m", "model.cli", "projetar", str(SNAPSHOT)], args.rodadas
            ),
            "eleicoes projetar SNAP": timed([*cli, "projetar", str(SNAPSHOT)], args.rodadas),
            "eleicoes build (nothing changed)": timed(build, args.rodadas),
            "eleicoes publicar (one page changed, local folder)": timed(
                publish, args.rodadas, before=change_one_page
            ),
        }
    ratio = figures["eleicoes projetar SNAP"] / figures["python -m model.cli projetar SNAP"]
    targets = {
        "eleicoes --help": f"≤ {HELP_TARGET_S} s",
        "eleicoes projetar SNAP": f"≤ {PROJECTION_RATIO}× model.cli (measured {ratio:.2f}×)",
        "eleicoes build (nothing changed)": f"≤ {WHOLE_TARGET_S} s",
        "eleicoes publicar (one page changed, local folder)": f"≤ {WHOLE_TARGET_S} s",
    }
    rows = [f"| {name} | {seconds:.2f} s | {targets.get(name, '')} |" for name, seconds in figures.items()]
    body = (
        f"Whole process, median of {args.rodadas} runs after a warm-up; snapshot "
        f"`{SNAPSHOT.relative_to(REPO.parent)}`.\n\n"
        "| Command | Wall time | Target |\n|---|---|---|\n" + "\n".join(rows)
    )
    print(body)
    write_section("Command line", f"python benchmarks/cli_bench.py --rodadas {args.rodadas}", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
