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

from site_builder.marked_section import write_marked_section

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


def filesystem(path: Path) -> str:
    """The mount of `path` as /proc/mounts gives it (type and options), for the record."""
    best = ("", "")
    mounts = Path("/proc/mounts")
    lines = mounts.read_text(encoding="utf-8").splitlines() if mounts.exists() else []
    for line in lines:
        _device, point, kind, options, *_rest = line.split()
        if str(path.resolve()).startswith(point) and len(point) >= len(best[0]):
            best = (point, f"{kind} ({options})")
    return f"{best[0]}: {best[1]}" if best[0] else "desconhecido"


def median(values: list[float]) -> float:
    """Median of a non-empty list of timings."""
    return statistics.median(values)


def load_description() -> str:
    """The machine's load averages as the figures are written: the 5- and 15-minute ones cover
    the run of a short benchmark, so every section says how busy the machine was."""
    if not hasattr(os, "getloadavg"):
        return "Load average: not available on this system."
    one, five, fifteen = os.getloadavg()
    return (
        f"Load average (1, 5, 15 min) when these figures were written: {one:.1f}, {five:.1f}, {fifteen:.1f}."
    )


def write_section(name: str, command: str, body: str, path: Path = PERFORMANCE_MD) -> None:
    """Replace (or append) the section `name` of docs/PERFORMANCE.md with `body`, under a line
    naming the machine (CPU model) and one giving its load."""
    today = dt.datetime.now(dt.UTC).date().isoformat()
    section = (
        f"## {name}\n\nMeasured {today} on: {machine_description()}.\n{load_description()}\n"
        f"Reproduce with: `{command}`\n\n{body}"
    )
    write_marked_section(path, name, section, HEADER)
