"""A publish SIGKILLed at any file-system step (an upload, a deletion, a manifest save) is
recovered by the next run: the bucket folder ends identical to an uninterrupted publish, every
page's references are there, and a further run has nothing left to send (the manifest never
vouches for what is not in the bucket). Issue 22: kill tests of the publish."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jobs.publish.config import PublishConfig
from jobs.publish.publisher import publicar
from tests.publish.conftest import broken_references, write_site
from tests.site_builder.conftest import REPO, snapshot

SEMENTES = (1, 2, 3, 4, 5)


def _matar(public: Path, pasta: Path, estado: Path, passo: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.publish.matar_publicar",
            str(public),
            str(pasta),
            str(estado),
            str(passo),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )


def _copiar(origem: Path, destino: Path) -> None:
    shutil.rmtree(destino, ignore_errors=True)
    shutil.copytree(origem, destino)


@pytest.fixture(scope="module")
def v1_publicado(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, dict[str, bytes]]:
    """A folder bucket holding the published v1 site (and its state), the number of steps the
    publish of v2 takes uninterrupted, and the bucket v2 gives."""
    base = tmp_path_factory.mktemp("matar-publicar")
    public, pasta, estado = base / "public", base / "pasta", base / "estado"
    public.mkdir()
    write_site(public, version=1, pages=4)
    publicar(PublishConfig(pasta=pasta, estado=estado, graca_assets_h=0, paralelo=1), public)
    _copiar(pasta, base / "v1-pasta")
    _copiar(estado, base / "v1-estado")
    write_site(public, version=2, pages=3)  # new stylesheet, pages changed, one removed
    inteiro = _matar(public, pasta, estado, 10**9)  # the manifest is named after the folder: reused
    assert inteiro.returncode == 0, inteiro.stderr
    return base, int(inteiro.stdout), snapshot(pasta)


@pytest.mark.parametrize("semente", SEMENTES)
def test_publicacao_morta_em_qualquer_passo_e_retomada(
    v1_publicado: tuple[Path, int, dict[str, bytes]], semente: int
) -> None:
    base, passos, v2 = v1_publicado
    assert passos > 8
    pasta, estado = base / "pasta", base / "estado"
    _copiar(base / "v1-pasta", pasta)
    _copiar(base / "v1-estado", estado)
    passo = random.Random(semente).randint(1, passos)
    morta = _matar(base / "public", pasta, estado, passo)
    assert morta.returncode == -9, morta.stderr
    visivel = {k: v for k, v in snapshot(pasta).items() if not k.rsplit("/", 1)[-1].startswith(".")}
    assert broken_references(visivel) == [], f"passo {passo} de {passos}"  # readers never see a hole
    config = PublishConfig(pasta=pasta, estado=estado, graca_assets_h=0, paralelo=1)
    publicar(config, base / "public")
    assert snapshot(pasta) == v2, f"passo {passo} de {passos}"
    assert publicar(config, base / "public").enviados == []
