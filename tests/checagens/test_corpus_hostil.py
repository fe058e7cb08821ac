"""The hostile-content corpus (tests/fixtures/hostil/): XSS variants, encodings and identity spoofing.

`recusadas/`: each file is refused by `validar` with exactly the problems its `# espera:` lines
name, and the build does what its `# build:` line says (fails, or leaves the check unpublished).
`aceitas/`: tricky files that pass every rule; the site is built with all of them and headless
Chromium opens every page: no script runs (each payload would mark the page `data-xss`), and the
browser reports no error at all, so nothing was even blocked by the Content-Security-Policy.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from eleicoes import main
from site_builder.build import build_site
from tests.checagens.conftest import REPO
from tests.checagens.test_regras import assert_problemas, destino, expectativas
from tests.checagens.test_regras_no_build import assert_build_aplica
from tests.support.navegador import CHROMIUM, Navegador
from tests.support.site_local import servir

CORPUS = REPO / "tests" / "fixtures" / "hostil"
RECUSADAS = sorted((CORPUS / "recusadas").iterdir())
ACEITAS = sorted((CORPUS / "aceitas").iterdir())


def test_corpus_is_not_empty() -> None:
    assert len(RECUSADAS) >= 30 and len(ACEITAS) >= 5


@pytest.mark.parametrize("fixture", RECUSADAS, ids=lambda p: p.stem)
def test_validar_recusa_cada_arquivo_hostil(
    projeto: Path, fixture: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    esperados, _build = expectativas(fixture)
    alvo = destino(projeto, fixture)
    shutil.copy(fixture, alvo)
    assert main(["checagens", "validar", str(alvo), "--raiz", str(projeto)]) == 1
    rel = alvo.relative_to(projeto).as_posix()
    assert_problemas(capsys.readouterr().out.splitlines(), rel, esperados)


@pytest.mark.parametrize("fixture", RECUSADAS, ids=lambda p: p.stem)
def test_build_recusa_cada_arquivo_hostil(site: Path, tmp_path: Path, fixture: Path) -> None:
    assert expectativas(fixture)[1] in ("erro", "recusada")
    assert_build_aplica(site, tmp_path, fixture)


@pytest.fixture(scope="module")
def site_aceitas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The fixture site with every accepted hostile check, built strictly and served on loopback."""
    root = tmp_path_factory.mktemp("hostil") / "site"
    base = REPO / "tests" / "fixtures" / "site_minimo"
    shutil.copytree(base / "content", root / "content")
    shutil.copytree(base / "data", root / "data")
    shutil.copytree(REPO / "templates", root / "templates")
    alvos = [str(shutil.copy(f, root / "content" / "checagens" / f.name)) for f in ACEITAS]
    assert main(["checagens", "validar", *alvos, "--raiz", str(root)]) == 0
    out = root / "public"
    build_site(root, out, strict=True)
    with servir(out) as url:
        yield out, url


def test_aceitas_sao_publicadas_com_o_texto_escapado(site_aceitas: tuple[Path, str]) -> None:
    out, _ = site_aceitas
    for fixture in ACEITAS:
        html = (out / "checagens" / fixture.stem / "index.html").read_text(encoding="utf-8")
        assert html.count("<script") == 1, fixture.stem  # the JSON-LD block only
        assert "onerror=" not in html.replace("onerror=document", "") or "&lt;" in html


@pytest.mark.skipif(CHROMIUM is None, reason="chromium não está instalado")
def test_nenhum_script_roda_no_navegador(site_aceitas: tuple[Path, str]) -> None:
    _, url = site_aceitas
    with Navegador() as navegador:
        paginas = {f.stem: navegador.abrir(f"{url}/checagens/{f.stem}/", 1024, 800) for f in ACEITAS}
        paginas["indice"] = navegador.abrir(f"{url}/checagens/", 1024, 800)
    for nome, pagina in paginas.items():
        assert 'data-xss="' not in pagina.dom, nome
        assert pagina.erros == [], (nome, pagina.erros)
