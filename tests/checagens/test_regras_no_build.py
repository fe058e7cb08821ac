"""The build applies the very rules `validar` applies (one function per rule): every failing
fixture of test_regras.py fails the strict build with the same message (the default build leaves
the check out: test_isolamento.py), or, for the two-person rule, is refused publication even
though it was merged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_builder.build import build_site
from site_builder.errors import BuildError, StrictModeError
from tests.checagens.conftest import FIXTURES
from tests.checagens.test_regras import INVALIDAS, destino, expectativas, onde


@pytest.mark.parametrize("fixture", INVALIDAS, ids=lambda p: p.name)
def test_build_aplica_as_mesmas_regras(site: Path, tmp_path: Path, fixture: Path) -> None:
    assert_build_aplica(site, tmp_path, fixture)


def assert_build_aplica(site: Path, tmp_path: Path, fixture: Path) -> None:
    """Copy `fixture` into the site and build: the outcome its header expects, with its messages."""
    esperados, modo = expectativas(fixture)
    alvo = destino(site, fixture)
    shutil.copy(fixture, alvo)
    rel = alvo.relative_to(site).as_posix()
    out = tmp_path / "public"
    slug = fixture.stem
    if modo == "erro":  # strict: the whole build refused (without it the check alone is left out)
        with pytest.raises(BuildError) as caught:
            build_site(site, out, strict=True)
        mensagem = str(caught.value)
        for campo, trecho in esperados:
            prefixo = onde(rel, campo)
            assert any(prefixo.search(linha) and trecho in linha for linha in mensagem.splitlines()), mensagem
        assert not out.exists() or not any(out.iterdir())
    elif modo == "recusada":  # two-person rule: merged, never published
        report = build_site(site, out)
        assert not (out / "checagens" / slug).exists()
        assert slug not in (out / "checagens/index.html").read_text(encoding="utf-8")
        for campo, trecho in esperados:
            prefixo = onde(rel, campo)
            assert any(prefixo.match(a) and trecho in a and "não publicada" in a for a in report.avisos)
        with pytest.raises(StrictModeError):
            build_site(site, tmp_path / "estrito", strict=True)
    elif modo == "sem-link":  # `validar` fails; the build publishes without the missing copy's link
        build_site(site, out, strict=True)
        html = (out / "checagens" / slug / "index.html").read_text(encoding="utf-8")
        assert "publicação original" in html and "cópia arquivada" not in html
    else:
        assert modo == "ignorado", modo
        build_site(site, out, strict=True)
        assert not (out / "checagens" / slug).exists()


def test_fixture_valida_e_publicada(site: Path, tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "valida.md", site / "content/checagens/valida.md")
    build_site(site, tmp_path / "public", strict=True)
    html = (tmp_path / "public/checagens/valida/index.html").read_text(encoding="utf-8")
    assert (
        '<a href="/arquivo/teste/post-1/">cópia arquivada</a> '
        '(<a href="/arquivo/teste/post-1.warc.gz">WARC</a>)' in html
    )
