"""Issue 21, numbers first on a phone: at 360×740 and 390×844 the first screen of a race page shows
both leading candidates' partial and projected shares and the verdict line (measured in chromium)."""

from __future__ import annotations

import pytest

from tests.support.navegador import CHROMIUM, Navegador

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium (pacote Debian) não está instalado")
TELAS = ((360, 740), (390, 844))
CORRIDAS = (
    "/projecao/6258-presidente/",  # publishable
    "/projecao/6257-presidente/",  # not publishable: the last publishable projection, labelled
)
# Bottom edge (px from the top of the page, not scrolled) of what must be in the first screen.
MEDIDA = """(() => {
  const fundo = (sel) => [...document.querySelectorAll(sel)].map((el) => el.getBoundingClientRect().bottom);
  return {
    altura: window.innerHeight,
    projecoes: fundo('.resumo-pct'),
    parciais: fundo('[data-campo^="resumo-"][data-campo$="-parcial"]'),
    veredito: fundo('[data-campo="resumo-veredito"]'),
  };
})()"""


@pytest.mark.parametrize("largura,altura", TELAS)
def test_the_first_screen_shows_the_numbers_and_the_verdict(endereco: str, largura: int, altura: int) -> None:
    with Navegador() as browser:
        for caminho in CORRIDAS:
            with browser.aba(endereco + caminho, largura, altura, mobile=True) as aba:
                medida = aba.avaliar(MEDIDA)
            assert len(medida["projecoes"]) == 2 and len(medida["parciais"]) == 2, caminho
            assert len(medida["veredito"]) == 1, caminho
            visiveis = [*medida["projecoes"], *medida["parciais"], *medida["veredito"]]
            assert max(visiveis) <= medida["altura"], (caminho, medida)
