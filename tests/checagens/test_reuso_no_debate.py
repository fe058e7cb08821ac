"""The live debate reuses only the desk's checks that the build publishes, through the build's own
rule (issue 16): every fixture the build refuses (tests/fixtures/checagens) stays out of the index,
and a debate claim repeating it word for word never takes its verdict."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest

from jobs.checagens.configuracao import ConfigMemoria
from jobs.debate.reuso import memoria_do_debate
from jobs.fontes.busca import checagens_publicadas
from site_builder.build import TEMPLATE_CACHE, build_site
from site_builder.errors import BuildError
from site_builder.writer import STATE_PARENT
from tests.checagens.conftest import FIXTURES, REPO, SITE_MINIMO
from tests.checagens.test_regras import INVALIDAS, destino, expectativas

CHECAGENS = [f for f in INVALIDAS if f.suffix == ".md"]
REPETIDA = "O estado abriu 300 leitos de UTI em 2025."  # the claim of valida.md and of the fixtures


@pytest.fixture(scope="module")
def _projeto(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One project folder for the module's 135 tests, its templates copied once."""
    root = tmp_path_factory.mktemp("reuso") / "site"
    shutil.copytree(REPO / "templates", root / "templates")
    return root


@pytest.fixture
def site(_projeto: Path) -> Path:
    """The builder's minimal fixture site, as tests/checagens/conftest.py's `site` gives it, at the
    module's one path: content and data restored, every build cache and accepted copy dropped
    except the compiled templates (keyed by their source checksum, as on any second build of a
    project). Compiling the templates again was half of each test."""
    for pasta in ("content", "data"):
        shutil.rmtree(_projeto / pasta, ignore_errors=True)
        shutil.copytree(SITE_MINIMO / pasta, _projeto / pasta)
    for cache in (_projeto / ".cache").glob("*"):
        partes = [cache]
        if cache.name == STATE_PARENT:
            partes = [p for p in cache.iterdir() if p.name != TEMPLATE_CACHE]
        for parte in partes:
            if parte.is_dir():
                shutil.rmtree(parte)
            else:
                parte.unlink()
    return _projeto


@pytest.mark.parametrize("fixture", CHECAGENS, ids=lambda p: p.name)
def test_debate_reuses_a_desk_check_only_if_the_build_publishes_it(
    site: Path, tmp_path: Path, fixture: Path
) -> None:
    shutil.copy(FIXTURES / "valida.md", site / "content/checagens/valida.md")
    shutil.copy(fixture, destino(site, fixture))
    reusadas = {d.url for d in checagens_publicadas(site / "content" / "checagens")}
    saida = tmp_path / "public"
    with contextlib.suppress(BuildError):  # a broken rule fails the build: nothing new is published
        build_site(site, saida)
    publicada = (saida / "checagens" / fixture.stem / "index.html").exists()
    assert (f"/checagens/{fixture.stem}/" in reusadas) is publicada
    assert publicada is (expectativas(fixture)[1] == "sem-link")  # only a missing archive copy is published
    assert "/checagens/valida/" in reusadas


def test_third_person_approval_is_not_reused(site: Path) -> None:
    # The case the issue names: author and reviewer differ, but a third person approved it (no
    # `aprovada` event by the reviewer): the build refuses it, so the debate must not reuse it.
    shutil.copy(FIXTURES / "invalidas" / "aprovada-por-outra-pessoa.md", site / "content/checagens/")
    shutil.copy(FIXTURES / "valida.md", site / "content/checagens/valida.md")
    urls = {d.url for d in checagens_publicadas(site / "content" / "checagens")}
    assert "/checagens/valida/" in urls and "/checagens/aprovada-por-outra-pessoa/" not in urls


def test_unreadable_file_does_not_stop_the_index(site: Path) -> None:
    shutil.copy(FIXTURES / "invalidas" / "codificacao-latin1.md", site / "content/checagens/")
    shutil.copy(FIXTURES / "valida.md", site / "content/checagens/valida.md")
    urls = {d.url for d in checagens_publicadas(site / "content" / "checagens")}
    assert "/checagens/valida/" in urls and "/checagens/codificacao-latin1/" not in urls


@pytest.mark.parametrize("fixture", CHECAGENS, ids=lambda p: p.name)
def test_a_debate_claim_never_takes_the_verdict_of_a_refused_check(site: Path, fixture: Path) -> None:
    shutil.copy(fixture, destino(site, fixture))
    memoria, _avisos = memoria_do_debate(site, ConfigMemoria(embeddings=""))
    reusada = memoria.reuso(REPETIDA)
    publicada = expectativas(fixture)[1] == "sem-link"  # the build publishes it, without the copy link
    assert (reusada.url if reusada else None) == (f"/checagens/{fixture.stem}/" if publicada else None)


def test_a_debate_claim_takes_the_verdict_of_the_published_check(site: Path) -> None:
    shutil.copy(FIXTURES / "invalidas" / "aprovada-por-outra-pessoa.md", site / "content/checagens/")
    shutil.copy(FIXTURES / "valida.md", site / "content/checagens/valida.md")
    memoria, _avisos = memoria_do_debate(site, ConfigMemoria(embeddings=""))
    reusada = memoria.reuso(REPETIDA)
    assert reusada is not None and (reusada.url, reusada.veredito) == ("/checagens/valida/", "falso")
