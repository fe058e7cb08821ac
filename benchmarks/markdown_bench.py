"""Markdown conversion benchmark: what one fact-check body costs through the fast path
(`site_builder.markdown_rapido`) and through Python-Markdown, in this process.

Converts the build benchmark's BODY (`benchmarks/build_bench.py`, ~600 words: headings,
paragraphs, emphasis, links, a table, lists, a quote) with a reused `MarkdownRenderer`, HTML and
addresses, with the fast path and without it (`fast_path=False`), the two alternated in rounds
so that a change in the machine's load hits both alike; CPU seconds of this process (less
sensitive to the shared machine's load than the wall time). Also how many of the repository's
own bodies (`content/`) the fast path takes. Records the figures in docs/PERFORMANCE.md.

    python benchmarks/markdown_bench.py [--rodadas 7] [--corpos 200] [--sem-registro]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.build_bench import BODY  # noqa: E402
from benchmarks.report import median, write_section  # noqa: E402
from site_builder import markdown_rapido  # noqa: E402
from site_builder.conteudo.frontmatter import read_body  # noqa: E402
from site_builder.markdown_render import MarkdownRenderer  # noqa: E402


def _per_body(renderer: MarkdownRenderer, bodies: list[str]) -> float:
    """CPU seconds per body of converting `bodies` once each."""
    started = time.process_time()
    for body in bodies:
        renderer.convert_with_addresses(body)
    return (time.process_time() - started) / len(bodies)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark, print its figures and record them."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rodadas", type=int, default=7, help="rounds, each path once per round")
    parser.add_argument("--corpos", type=int, default=200, help="bodies converted per path and round")
    parser.add_argument("--sem-registro", action="store_true", help="não grava docs/PERFORMANCE.md")
    args = parser.parse_args(argv)

    bodies = [BODY.format(i=i, pct=i % 40, a=1000 + i, b=1000 + i + i % 40) for i in range(args.corpos)]
    fast, full = MarkdownRenderer(), MarkdownRenderer(fast_path=False)
    if fast.convert_with_addresses(bodies[0]) != full.convert_with_addresses(bodies[0]):
        raise SystemExit("the two paths disagree on BODY: see tests/site_builder/test_markdown_rapido.py")
    if markdown_rapido.convert(bodies[0]) is None:
        raise SystemExit("the fast path refuses BODY: this would measure Python-Markdown twice")
    load_before = os.getloadavg()[0]
    times: dict[str, list[float]] = {"fast": [], "full": []}
    for _ in range(args.rodadas):
        times["fast"].append(_per_body(fast, bodies))
        times["full"].append(_per_body(full, bodies))
    load_after = os.getloadavg()[0]
    fast_ms, full_ms = median(times["fast"]) * 1000, median(times["full"]) * 1000
    own = [read_body(path) for path in sorted((REPO / "content").rglob("*.md"))]
    taken = sum(markdown_rapido.convert(body) is not None for body in own)

    body = (
        f"Build benchmark's BODY ({len(BODY.split())} words), {args.corpos} variants converted per path "
        f"and round with one reused renderer (HTML and addresses, the conversion-cost guard included); "
        f"median of {args.rodadas} rounds, the two paths alternated; CPU time of this process. "
        f"1-minute load average of the (shared, 2-core) machine: {load_before:.1f} at the start, "
        f"{load_after:.1f} at the end.\n\n"
        "| Path | CPU per body | min | max |\n|---|---:|---:|---:|\n"
        f"| Fast path (`markdown_rapido`) | {fast_ms:.3f} ms | {min(times['fast']) * 1000:.3f} ms "
        f"| {max(times['fast']) * 1000:.3f} ms |\n"
        f"| Python-Markdown (`fast_path=False`) | {full_ms:.3f} ms | {min(times['full']) * 1000:.3f} ms "
        f"| {max(times['full']) * 1000:.3f} ms |\n\n"
        f"Fast path / Python-Markdown: {fast_ms / full_ms:.2f}× the CPU ({full_ms / fast_ms:.1f}× faster). "
        f"The repository's own bodies (`content/`): {taken} of {len(own)} take the fast path.\n"
    )
    print(body)
    if not args.sem_registro:
        write_section("Markdown fast path", "python benchmarks/markdown_bench.py", body)


if __name__ == "__main__":
    main()
