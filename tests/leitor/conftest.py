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
from tests.support.uma_vez import pasta_compartilhada


def _construir(pasta: Path) -> None:
    root = pasta / "projeto"
    shutil.copytree(REPO / "content", root / "content")
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "data" / "debates", root / "data" / "debates")
    shutil.copytree(REPO / "data" / "redes", root / "data" / "redes")  # the checks' archived posts
    make_night(root / "data")
    build_site(root, pasta / "public", strict=True)


@pytest.fixture(scope="session")
def _leitor(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project and its built site, made once per run for every xdist worker (read-only)."""
    return pasta_compartilhada(tmp_path_factory, "leitor", _construir)


@pytest.fixture(scope="session")
def projeto_completo(_leitor: Path) -> Path:
    """A project with every page type: checks, candidates, methodology, a debate and three races.
    Shared by the run's workers: copy it (shutil.copytree) before changing anything."""
    return _leitor / "projeto"


@pytest.fixture(scope="session")
def site_completo(_leitor: Path) -> Path:
    """The built site of `projeto_completo` (strict build), shared and read-only like it."""
    return _leitor / "public"


@pytest.fixture(scope="session")
def endereco(site_completo: Path) -> Iterator[str]:
    """Base URL of `site_completo` served by the project's own static server."""
    with servir(site_completo) as url:
        yield url
