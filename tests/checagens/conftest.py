"""Fixtures of the fact-check desk tests: throw-away projects in temporary folders."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "checagens"
SITE_MINIMO = REPO / "tests" / "fixtures" / "site_minimo"


@pytest.fixture
def projeto(tmp_path: Path) -> Path:
    """A desk project: one candidate, one archived copy, no check yet (not a git repository)."""
    root = tmp_path / "projeto"
    (root / "content" / "checagens").mkdir(parents=True)
    shutil.copytree(SITE_MINIMO / "content" / "candidatos", root / "content" / "candidatos")
    shutil.copy(SITE_MINIMO / "content" / "editores.toml", root / "content" / "editores.toml")
    shutil.copytree(SITE_MINIMO / "data", root / "data")
    return root


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A whole site project (the builder's minimal fixture site) to build."""
    root = tmp_path / "site"
    shutil.copytree(SITE_MINIMO / "content", root / "content")
    shutil.copytree(SITE_MINIMO / "data", root / "data")
    shutil.copytree(REPO / "templates", root / "templates")
    return root


@pytest.fixture(scope="module")
def site_do_repositorio(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's own sample content (what `eleicoes demo` shows), with its archived copies."""
    root = tmp_path_factory.mktemp("repo") / "site"
    shutil.copytree(REPO / "content", root / "content")
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "data" / "redes", root / "data" / "redes")
    return root
