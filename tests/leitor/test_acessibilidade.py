"""Every page type is axe-clean at 360×740, 390×844 and 1280×800 (issue 21, item 4).

axe-core 4.x (from the `axe-playwright-python` wheel, see tests/support/axe.py) runs in Debian's
headless chromium on the sample site built once per session: WCAG 2.x A/AA rules and axe's best
practices, scrollable tables included. One browser, one tab per viewport reused for every page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import axe
from tests.support.navegador import CHROMIUM, Navegador
from tests.support.site_local import paginas

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="chromium (pacote Debian) não está instalado"),
    pytest.mark.skipif(not axe.disponivel(), reason="axe-playwright-python (extra dev) não está instalado"),
]
TELAS = ((360, 740), (390, 844), (1280, 800))


# Collapsed parts (the chart's data table) are checked too: axe skips what is not rendered.
ABRIR = "document.querySelectorAll('details').forEach((d) => { d.open = true; }), true"


@pytest.fixture(scope="module")
def navegador() -> Iterator[Navegador]:
    """One chromium for the module."""
    with Navegador() as browser:
        yield browser


@pytest.fixture(scope="module")
def relatorio(
    navegador: Navegador, site_completo: Path, endereco: str
) -> dict[tuple[int, int], dict[str, list[axe.Violacao]]]:
    """axe's violations for every page type at every viewport (one tab per viewport)."""
    todas: dict[tuple[int, int], dict[str, list[axe.Violacao]]] = {}
    lista = paginas(site_completo)
    for largura, altura in TELAS:
        por_pagina: dict[str, list[axe.Violacao]] = {}
        with navegador.aba("about:blank", largura, altura, mobile=largura < 700) as aba:
            for nome, caminho in lista.items():
                axe.ir(aba, endereco + caminho)
                aba.avaliar(ABRIR)
                por_pagina[nome] = axe.violacoes(aba)
        todas[(largura, altura)] = por_pagina
    return todas


@pytest.mark.parametrize(("largura", "altura"), TELAS, ids=[f"{w}x{h}" for w, h in TELAS])
def test_every_page_type_is_axe_clean(
    relatorio: dict[tuple[int, int], dict[str, list[axe.Violacao]]], largura: int, altura: int
) -> None:
    encontradas = {nome: v for nome, v in relatorio[(largura, altura)].items() if v}
    texto = "\n".join(f"{nome}:\n  " + "\n  ".join(map(str, v)) for nome, v in encontradas.items())
    assert encontradas == {}, f"axe {axe.versao()} a {largura}×{altura}:\n{texto}"


def test_axe_finds_a_violation_when_there_is_one(navegador: Navegador, endereco: str) -> None:
    """The harness itself can fail: a scrollable box without a keyboard stop is reported."""
    with navegador.aba(endereco + "/", 360, 740, mobile=True) as aba:
        assert axe.violacoes(aba, ["scrollable-region-focusable"]) == []
        aba.avaliar(
            """(() => {
              const caixa = document.createElement('div'), texto = document.createElement('p');
              caixa.style.cssText = 'overflow-x: auto; width: 100px';
              texto.style.whiteSpace = 'nowrap';
              texto.textContent = 'x'.repeat(400);
              caixa.append(texto);
              document.querySelector('main').append(caixa);
              return true;
            })()"""
        )
        regras = {v.regra for v in axe.violacoes(aba, ["scrollable-region-focusable"])}
    assert regras == {"scrollable-region-focusable"}
