"""Shared helper for benchmarks: describe the machine and record figures in docs/PERFORMANCE.md.

Each benchmark owns one section of the file, delimited by HTML comments, so benchmarks can be
rerun independently without clobbering each other's figures.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
import sys
from pathlib import Path

PERFORMANCE_MD = Path(__file__).resolve().parent.parent / "docs" / "PERFORMANCE.md"
HEADER = (
    "# Performance\n\n"
    "Figures written by the scripts in `benchmarks/`; each section says how to reproduce it.\n"
    "Never edit the figures by hand: rerun the benchmark.\n"
)


def machine_description() -> str:
    """One line naming the CPU, core count, memory and Python version of this machine."""
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        first = meminfo.read_text(encoding="utf-8").splitlines()[0]
        mem = f", {int(first.split()[1]) / 1024 / 1024:.0f} GiB RAM"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{cpu}, {cores} cores{mem}, {platform.system()} {platform.release()}, "
        f"Python {sys.version.split()[0]}"
    )


def median(values: list[float]) -> float:
    """Median of a non-empty list of timings."""
    return statistics.median(values)


def write_section(name: str, command: str, body: str, path: Path = PERFORMANCE_MD) -> None:
    """Replace (or append) the section `name` of docs/PERFORMANCE.md with `body`."""
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    today = dt.datetime.now(dt.UTC).date().isoformat()
    section = (
        f"{begin}\n## {name}\n\n"
        f"Measured {today} on: {machine_description()}.\n"
        f"Reproduce with: `{command}`\n\n{body.rstrip()}\n{end}"
    )
    text = path.read_text(encoding="utf-8") if path.exists() else HEADER
    if begin in text and end in text:
        before, rest = text.split(begin, 1)
        after = rest.split(end, 1)[1]
        text = before + section + after
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_marked_section(path: Path, name: str, text: str) -> None:
    """Replace (or append) the block between `<!-- BEGIN name -->` and `<!-- END name -->` of `path`."""
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    block = f"{begin}\n{text.rstrip()}\n{end}"
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    if begin in current and end in current:
        before, rest = current.split(begin, 1)
        new = before + block + rest.split(end, 1)[1]
    else:
        new = current.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(new, encoding="utf-8")
