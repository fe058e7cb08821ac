"""Fixtures: the whole site (the repository's sample content, its sample debate and the projection
test night) built by the real builder and served on loopback, for tests that read it as a reader does."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.build import build_site
from tests.projecao.noite import REPO, make_night
from tests.support.site_local import servir


@pytest.fixture(scope="session")
def projeto_completo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with every page type: checks, candidates, methodology, a debate and three races."""
    root = tmp_path_factory.mktemp("leitor") / "projeto"
    shutil.copytree(REPO / "content", root / "content")
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "data" / "debates", root / "data" / "debates")
    make_night(root / "data")
    return root


@pytest.fixture(scope="session")
def site_completo(projeto_completo: Path) -> Path:
    """The built site of `projeto_completo`."""
    out = projeto_completo.parent / "public"
    build_site(projeto_completo, out, strict=True)
    return out


@pytest.fixture(scope="session")
def endereco(site_completo: Path) -> Iterator[str]:
    """Base URL of `site_completo` served by the project's own static server."""
    with servir(site_completo) as url:
        yield url
