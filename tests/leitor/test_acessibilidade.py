"""Every page type is axe-clean at 360×740, 390×844 and 1280×800 (issue 21, item 4).

axe-core 4.x (from the `axe-playwright-python` wheel, see tests/support/axe.py) runs in Debian's
headless chromium on the sample site built once per session: WCAG 2.x A/AA rules and axe's best
practices, scrollable tables included. One browser per worker (tests/conftest.py), one tab per
viewport reused for every page.
"""

from __future__ import annotations

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


@pytest.mark.parametrize(("largura", "altura"), TELAS, ids=[f"{w}x{h}" for w, h in TELAS])
def test_every_page_type_is_axe_clean(
    navegador: Navegador, site_completo: Path, endereco: str, largura: int, altura: int
) -> None:
    """Every rule at every width: which elements are visible (what axe checks) changes with the
    layout, e.g. the chart's narrow and wide versions. One tab per width, reused for every page;
    the widths are separate tests, so parallel workers share them out."""
    encontradas: dict[str, list[axe.Violacao]] = {}
    with navegador.aba("about:blank", largura, altura, mobile=largura < 700) as aba:
        for nome, caminho in paginas(site_completo).items():
            aba.ir(endereco + caminho)
            aba.avaliar(ABRIR)
            if violacoes := axe.violacoes(aba):
                encontradas[nome] = violacoes
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
