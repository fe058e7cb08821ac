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
# Bottom edge (px from the top of the page, not scrolled) of what must be in the first screen: the
# first projected percentage of the page (in document order, wherever the page shows one), both
# leaders' projected and partial shares and the verdict line.
MEDIDA = """(() => {
  const fundo = (els) => els.map((el) => el.getBoundingClientRect().bottom);
  const todos = (sel) => [...document.querySelectorAll(sel)];
  const projetadas = todos('[data-campo]').filter((el) =>
    /^(resumo|projecao|anterior)-[0-9]+-pct$/.test(el.dataset.campo));
  return {
    altura: window.innerHeight,
    primeira: fundo(projetadas.slice(0, 1)),
    projecoes: fundo(todos('[data-campo^="resumo-"][data-campo$="-pct"]')),
    parciais: fundo(todos('[data-campo^="resumo-"][data-campo$="-parcial"]')),
    veredito: fundo(todos('[data-campo="resumo-veredito"], [data-campo="projecao-tendencia"]').slice(0, 1)),
  };
})()"""


@pytest.mark.parametrize("largura,altura", TELAS)
def test_the_first_screen_shows_the_numbers_and_the_verdict(endereco: str, largura: int, altura: int) -> None:
    with Navegador() as browser:
        for caminho in CORRIDAS:
            with browser.aba(endereco + caminho, largura, altura, mobile=True) as aba:
                medida = aba.avaliar(MEDIDA)
            assert len(medida["primeira"]) == 1 and len(medida["veredito"]) == 1, caminho
            assert medida["primeira"][0] <= medida["altura"], (caminho, medida)  # the test
            assert len(medida["projecoes"]) == 2 and len(medida["parciais"]) == 2, caminho
            visiveis = [*medida["projecoes"], *medida["parciais"], *medida["veredito"]]
            assert max(visiveis) <= medida["altura"], (caminho, medida)
