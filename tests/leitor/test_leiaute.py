"""Phone first: no page scrolls sideways at phone, tablet or desktop widths (measured in chromium),
and the debate scoreboard fits a desktop page without a scroll bar of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.navegador import CHROMIUM, Navegador, salvar
from tests.support.site_local import paginas

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium (pacote Debian) não está instalado")
LARGURAS = (360, 390, 768, 1280)
DEBATE = "/debates/demo-governo-2026-10-15/"

# Elements wider than the viewport outside any scroll container, and scroll containers that overflow.
MEDIDA = """(() => {
  const largura = document.documentElement.clientWidth;
  const rola = (el) => ['auto', 'scroll', 'hidden'].includes(getComputedStyle(el).overflowX);
  const dentro = (el) => {
    for (let a = el.parentElement; a; a = a.parentElement) if (rola(a)) return true;
    return false;
  };
  const largos = [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > largura + 0.5 && !dentro(el))
    .map((el) => el.tagName + '.' + el.className);
  const caixas = [...document.querySelectorAll('body *')]
    .filter((el) => rola(el) && el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.className);
  return {pagina: document.documentElement.scrollWidth, largura, largos: largos.slice(0, 5), caixas};
})()"""


# The page types whose width this test checks (one address each, tests/support/site_local.py).
TIPOS = (
    "inicio", "projecao-indice", "corrida", "corrida-nao-publicavel", "historico", "captura", "debates",
    "debate", "checagens", "checagem", "candidato", "metodologia", "metodologia-pagina", "correcoes",
)  # fmt: skip


@pytest.mark.parametrize("largura", LARGURAS)
def test_no_page_scrolls_sideways(site_completo: Path, endereco: str, largura: int, tmp_path: Path) -> None:
    problemas = {}
    with Navegador() as browser, browser.aba("about:blank", largura, 800, mobile=largura < 700) as aba:
        enderecos = paginas(site_completo)
        for nome in TIPOS:  # one tab per width, every page loaded in it in turn
            caminho = enderecos[nome]
            aba.ir(endereco + caminho)
            medida = aba.avaliar(MEDIDA)
            assert aba.erros() == [], f"{caminho}: {aba.erros()}"
            if medida["pagina"] > medida["largura"]:
                problemas[nome] = medida
            if largura >= 1280 and caminho == DEBATE:
                assert medida["caixas"] == [], "o placar não cabe na página do computador"
        salvar(browser.abrir(endereco + "/projecao/6258-presidente/", largura, 800), tmp_path / "corrida.png")
    assert problemas == {}


def test_on_a_phone_the_band_sits_under_the_projected_number(endereco: str) -> None:
    posicoes = """[...document.querySelectorAll('.tabela-projecao tbody tr')].map((tr) => {
      const n = tr.querySelector('td.destaque').getBoundingClientRect();
      const f = tr.querySelector('td.faixa').getBoundingClientRect();
      return [n.bottom <= f.top + 0.5, f.right <= document.documentElement.clientWidth];
    })"""
    with Navegador() as browser:
        with browser.aba(endereco + "/projecao/6258-presidente/", 390, 844, mobile=True) as aba:
            telefone = aba.avaliar(posicoes)
        with browser.aba(endereco + "/projecao/6258-presidente/", 1280, 900) as aba:
            computador = aba.avaliar(posicoes)
    assert telefone and all(abaixo and visivel for abaixo, visivel in telefone)
    assert computador and not any(abaixo for abaixo, _ in computador)  # a table row on a desktop
