"""The build streams page bodies: what it holds at once does not grow with the pages it renders."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from site_builder import workers as workers_module
from site_builder.build import build_site
from tests.site_builder.conftest import add_checks

BODY = "\n\n".join(
    f"Parágrafo {n} de uma página longa de metodologia, com *ênfase* e um [link](/metodologia/). " * 8
    for n in range(50)
)  # ~37 KB of Markdown: a page's own share of the build is small beside it


def _add_pages(project: Path, first: int, count: int) -> int:
    """Add `count` methodology pages with long bodies; return the bytes of their bodies."""
    for i in range(first, first + count):
        (project / f"content/metodologia/longa-{i:03d}.md").write_text(
            f'+++\ntitulo = "Longa {i}"\ndescricao = "Longa {i}."\nordem = {10 + i}\n'
            f"atualizado_em = 2026-10-20\n+++\n\n{BODY}\n",
            encoding="utf-8",
        )
    return count * len(BODY.encode("utf-8"))


def _peak_of_cold_build(project: Path, out: Path, workers: int) -> int:
    """Bytes allocated at the peak of a cold build beyond what was allocated before it."""
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        build_site(project, out, workers=workers)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


@pytest.mark.parametrize("workers", [1, 2])
def test_build_holds_a_few_bodies_at_a_time(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """Bodies are read, converted and rendered a few at a time, in the serial and the parallel
    build alike: tripling the long pages adds to the peak a small fraction of the added bodies'
    size (holding them all, as the build once did, added more than that size)."""
    monkeypatch.setattr(workers_module, "CHUNK", 1)
    monkeypatch.setattr(workers_module, "CHUNKS_AHEAD", 1)
    monkeypatch.setattr(workers_module, "PARALLEL_MIN", 2)
    monkeypatch.setattr(workers_module, "MIN_HANDED_OVER", 1)
    build_site(project, tmp_path / "aquecimento", workers=workers)  # one-off costs: imports, caches
    _add_pages(project, 0, 4)
    small = _peak_of_cold_build(project, tmp_path / "pequeno", workers)
    added = _add_pages(project, 4, 8)
    large = _peak_of_cold_build(project, tmp_path / "grande", workers)
    assert large - small < added / 2, f"peak grew {large - small:,} B for {added:,} B of bodies added"


def test_reading_checks_keeps_no_converter_per_file(project: Path, tmp_path: Path) -> None:
    """The link rules of every check are read with one Markdown converter: the build runs with
    cyclic GC off, so a converter built per file (a reference cycle) stayed in memory: about 17 KB
    per short check here, over 100 KB per benchmark check (3,000 checks: 441 MB peak instead of
    97 MB). Now about 8 KB per check (7.9-8.1 KB in three runs on 2026-12-04), under the 10 KB
    asserted."""
    assert (project / "content/checagens/um.md").read_text(encoding="utf-8").startswith('+++\nid = "')
    build_site(project, tmp_path / "aquecimento", workers=1)
    add_checks(project, 0, 10)
    small = _peak_of_cold_build(project, tmp_path / "pequeno", 1)
    add_checks(project, 10, 40)
    large = _peak_of_cold_build(project, tmp_path / "grande", 1)
    per_check = (large - small) / 40
    assert per_check < 10_000, f"the peak grew {per_check:,.0f} B per check added"
