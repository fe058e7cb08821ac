"""Fixtures: a throw-away project (fixture content + the real templates) in a temporary folder."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder import build, markdown_cache

REPO = Path(__file__).resolve().parents[2]
FIXTURE_CONTENT = REPO / "tests" / "fixtures" / "site_minimo" / "content"
FIXTURE_DATA = REPO / "tests" / "fixtures" / "site_minimo" / "data"  # archived copies of posts


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes, keyed by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def make_project(root: Path) -> Path:
    """`root` filled with the fixture content and data and a copy of the real templates."""
    shutil.copytree(FIXTURE_CONTENT, root / "content")
    shutil.copytree(FIXTURE_DATA, root / "data")
    shutil.copytree(REPO / "templates", root / "templates")
    return root


def clear_build_caches(site: Path) -> None:
    """`site` without its cross-build caches, and the cached version keys recomputed on next use
    (the cache tests change their inputs, e.g. the Markdown version)."""
    shutil.rmtree(site / ".cache", ignore_errors=True)
    markdown_cache.cache_version.cache_clear()
    build._renderer_version.cache_clear()


def cold_output(site: Path, out: Path, *, drop_pages: bool) -> dict[str, bytes]:
    """A build into an empty output folder with no build state: only the cross-build caches stay
    (`drop_pages`: without the rendered pages either, so the caches below them are what is read)."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(build.state_path(site, out), ignore_errors=True)
    if drop_pages:
        shutil.rmtree(build.state_path(site, out).parent / build.PAGE_CACHE, ignore_errors=True)
    build.build_site(site, out, strict=True)
    return snapshot(out)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with the fixture content and data and a copy of the real templates."""
    return make_project(tmp_path / "projeto")


@pytest.fixture
def edit(project: Path) -> Callable[[str, str, str], None]:
    """Replace text in a project file (fails loudly if the text is not there)."""

    def replace(rel: str, old: str, new: str) -> None:
        path = project / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {rel}"
        path.write_text(text.replace(old, new), encoding="utf-8")

    return replace


def add_checks(project: Path, first: int, count: int) -> None:
    """Add `count` published checks, copies of the fixture's first one under new ids and slugs."""
    model = (project / "content/checagens/um.md").read_text(encoding="utf-8")
    head = model.split("\n", 3)
    for i in range(first, first + count):
        text = model.replace(head[1], f'id = "copia-{i:03d}"', 1).replace(
            head[2], f'slug = "copia-{i:03d}"', 1
        )
        (project / f"content/checagens/copia-{i:03d}.md").write_text(text, encoding="utf-8")
