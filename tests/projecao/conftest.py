"""Fixtures: a project with the site's fixture content, the real templates and a night of readings."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.projecao.noite import REPO, make_night

FIXTURE_CONTENT = REPO / "tests" / "fixtures" / "site_minimo" / "content"
METHOD_PAGE = """+++
titulo = "Como funciona a projeção"
descricao = "Página de teste do método da projeção."
ordem = 1
atualizado_em = 2026-10-20
+++

O método da projeção.
"""


@pytest.fixture(scope="session")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`data/` with every race of the fixture night (made once per session: it runs the model)."""
    data = tmp_path_factory.mktemp("noite") / "data"
    make_night(data)
    return data


@pytest.fixture
def project(tmp_path: Path, night: Path) -> Path:
    """A throw-away project: fixture content + the method page the pages link to + templates + data."""
    return make_project(tmp_path / "projeto", night)


def make_project(root: Path, night: Path) -> Path:
    """`root` filled as the `project` fixture fills it (for a module-scoped build)."""
    shutil.copytree(FIXTURE_CONTENT, root / "content")
    # The demonstration runoff's candidate 13 has a candidate file: pages use its spelling.
    shutil.copy2(REPO / "content" / "candidatos" / "helena-prado.toml", root / "content" / "candidatos")
    (root / "content" / "metodologia" / "projecao.md").write_text(METHOD_PAGE, encoding="utf-8")
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(night, root / "data")
    return root
