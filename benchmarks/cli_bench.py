"""CLI benchmark: what each `eleicoes` subcommand costs as a whole process (start-up included).

Measures, as separate processes and side by side: `eleicoes --help`; `eleicoes projetar SNAP` against
`python -m model.cli projetar SNAP` on a real snapshot; a no-op `eleicoes build` (nothing changed
since the last build of the shipped content) and a one-page `eleicoes publicar` to a local folder
(one page changed since the last publish). Records the medians in docs/PERFORMANCE.md.

    python benchmarks/cli_bench.py [--rodadas 9]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Measured:
    """One command to time, and what to do before each of its runs (given the run's number)."""

    name: str
    command: list[str]
    before: Callable[[int], None] | None = None


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(entries: Sequence[Measured], rounds: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds of each command; the commands take turns in every round (after one
    warm-up round), so a change in the machine's load hits them alike. CPU time (user + system of
    the process) moves less than wall time on a shared machine. Fails if a command fails."""
    times: dict[str, list[tuple[float, float]]] = {e.name: [] for e in entries}
    for i in range(rounds + 1):
        for entry in entries:
            if entry.before is not None:
                entry.before(i)
            cpu, start = _children_cpu_s(), time.perf_counter()
            subprocess.run(
                entry.command, cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            if i:
                times[entry.name].append((time.perf_counter() - start, _children_cpu_s() - cpu))
    return {n: (median([w for w, _ in v]), median([c for _, c in v])) for n, v in times.items()}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements, print them side by side and record them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rodadas", type=int, default=9, help="medições por comando (mediana)")
    args = parser.parse_args(argv)
    cli = eleicoes_script()
    load = os.getloadavg()  # the machine may be shared: the figures depend on what else runs
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

        figures = timed(
            [
                Measured("python -c pass (interpreter start-up)", [sys.executable, "-c", "pass"]),
                Measured("eleicoes --help", [*cli, "--help"]),
                Measured(
                    "python -m model.cli projetar SNAP",
                    [sys.executable, "-m", "model.cli", "projetar", str(SNAPSHOT)],
                ),
                Measured("eleicoes projetar SNAP", [*cli, "projetar", str(SNAPSHOT)]),
                Measured("eleicoes build (nothing changed)", build),
                Measured("eleicoes publicar (one page changed, local folder)", publish, change_one_page),
            ],
            args.rodadas,
        )
    ratio = figures["eleicoes projetar SNAP"][0] / figures["python -m model.cli projetar SNAP"][0]
    cpu_ratio = figures["eleicoes projetar SNAP"][1] / figures["python -m model.cli projetar SNAP"][1]
    targets = {
        "eleicoes --help": f"≤ {HELP_TARGET_S} s",
        "eleicoes projetar SNAP": (
            f"≤ {PROJECTION_RATIO}× model.cli (measured {ratio:.2f}× wall, {cpu_ratio:.2f}× CPU)"
        ),
        "eleicoes build (nothing changed)": f"≤ {WHOLE_TARGET_S} s",
        "eleicoes publicar (one page changed, local folder)": f"≤ {WHOLE_TARGET_S} s",
    }
    rows = [
        f"| {name} | {wall:.2f} s | {cpu:.2f} s | {targets.get(name, '')} |"
        for name, (wall, cpu) in figures.items()
    ]
    body = (
        f"Whole process, median of {args.rodadas} rounds after a warm-up round (the commands take turns "
        f"in each round); snapshot "
        f"`{SNAPSHOT.relative_to(REPO.parent)}`; load average before the run "
        f"{load[0]:.1f} (1 min), {load[1]:.1f} (5 min).\n\n"
        "| Command | Wall time | CPU time | Target (wall time) |\n|---|---|---|---|\n" + "\n".join(rows)
    )
    print(body)
    write_section("Command line", f"python benchmarks/cli_bench.py --rodadas {args.rodadas}", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
