"""The night's chart reads on a phone (issue 21, item 4): at 360 and 390 px every text of the chart
shown is at least 12 CSS px, nothing of it is cut or leaves the screen, and one layout is shown at a
time (measured in chromium on the built sample site; the markup checked without a browser)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from site_builder.svg_chart import ESTREITO, LARGO, Ponto, Serie, chart_svg
from tests.support.navegador import CHROMIUM, Navegador

SVG = "{http://www.w3.org/2000/svg}"
MIN_PX = 12.0
CORRIDAS = ("/projecao/6258-presidente/", "/projecao/6257-presidente/", "/projecao/6259-governador-pa/")
# viewport -> the layout the stylesheet must show there
TELAS = {
    (360, 740): "estreito",
    (390, 844): "estreito",
    (735, 900): "estreito",  # the stylesheet's switch is at 46rem = 736 px
    (736, 900): "largo",
    (1280, 800): "largo",
}

# Every chart the reader sees: its layout, box, and each text's rendered size and box (CSS px).
# Size = computed font size × the SVG's scale from its units to the screen (getScreenCTM).
MEDIDA = """(() => {
  const tela = document.documentElement.clientWidth;
  return [...document.querySelectorAll('svg.grafico')]
    .filter((svg) => svg.getBoundingClientRect().width > 0)
    .map((svg) => {
      const caixa = svg.getBoundingClientRect(), escala = svg.getScreenCTM().a;
      const textos = [...svg.querySelectorAll('text')].map((t) => {
        const r = t.getBoundingClientRect();
        return {texto: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * escala,
                esquerda: r.left, direita: r.right};
      });
      const leiaute = svg.dataset.leiaute || '(sem leiaute)';
      return {leiaute, esquerda: caixa.left, direita: caixa.right, tela, textos};
    });
})()"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium (pacote Debian) não está instalado")
def test_chart_text_is_legible_and_inside_the_screen(endereco: str) -> None:
    problemas: list[str] = []
    with Navegador() as browser:
        for (largura, altura), esperado in TELAS.items():
            with browser.aba("about:blank", largura, altura, mobile=largura < 700) as aba:
                for caminho in CORRIDAS:
                    aba.ir(endereco + caminho)
                    graficos = aba.avaliar(MEDIDA)
                    onde = f"{caminho} a {largura}×{altura}"
                    if [g["leiaute"] for g in graficos] != [esperado]:
                        problemas.append(f"{onde}: gráficos visíveis {[g['leiaute'] for g in graficos]}")
                    for g in graficos:
                        if g["esquerda"] < 0 or g["direita"] > g["tela"] + 0.5:
                            problemas.append(
                                f"{onde}: o gráfico sai da tela ({g['esquerda']}–{g['direita']})"
                            )
                        for t in g["textos"]:
                            if t["px"] < MIN_PX:
                                problemas.append(f"{onde}: “{t['texto']}” com {t['px']:.1f} px")
                            if t["esquerda"] < g["esquerda"] - 0.5 or t["direita"] > g["direita"] + 0.5:
                                problemas.append(f"{onde}: “{t['texto']}” cortado na borda do gráfico")
    assert problemas == []


def _layouts(markup: str) -> dict[str, ET.Element]:
    root = ET.fromstring(f"<div>{markup}</div>")
    return {svg.get("data-leiaute", ""): svg for svg in root}


def _night(names: list[str]) -> list[Serie]:
    colours = ("#0b4f9c", "#a33b00", "#1b6e3a", "#7a4f00", "#4a4a4a")
    series = []
    for i, name in enumerate(names):
        share = 40.0 - 8 * i
        pontos = tuple(
            Ponto(apurado, share + k, share + k + 0.4, share + k - 0.6, share + k + 1.4)
            for k, apurado in enumerate((10.0, 35.0, 62.5, 99.8))
        )
        series.append(Serie(name, colours[i], pontos))
    return series


def test_two_layouts_each_with_its_own_accessible_name() -> None:
    markup = str(chart_svg(_night(["Ana", "Bia"]), ident="g", titulo="Título", descricao="Descrição"))
    layouts = _layouts(markup)
    assert list(layouts) == ["largo", "estreito"]
    ids = [e.get("id") for svg in layouts.values() for e in svg.iter() if e.get("id")]
    assert len(ids) == len(set(ids)) == 4  # title and desc of each, never the same id twice
    for svg in layouts.values():
        assert svg.get("role") == "img"
        title, desc = (svg.get("aria-labelledby") or "").split()
        assert svg.find(f".//{SVG}title[@id='{title}']") is not None
        assert svg.find(f".//{SVG}desc[@id='{desc}']") is not None
    # the wide layout alone, as before, for a caller that asks for it
    only = _layouts(str(chart_svg(_night(["Ana"]), ident="g", titulo="t", descricao="d", estreito=False)))
    assert list(only) == ["largo"]


def test_narrow_layout_has_larger_text_fewer_ticks_and_names_below() -> None:
    names = ["Nome Bem Comprido de Candidata", "Bia", "Caio", "Duda", "Eva"]
    layouts = _layouts(str(chart_svg(_night(names), ident="g", titulo="t", descricao="d")))
    narrow, wide = layouts["estreito"], layouts["largo"]
    assert narrow.get("viewBox", "").split()[2] == str(ESTREITO.width)
    # text at the narrow layout's size in a 328 px box (a 360 px phone): >= 12 px
    assert ESTREITO.font_size * 328 / ESTREITO.width >= MIN_PX
    assert int(narrow.get("font-size", "0")) == ESTREITO.font_size > LARGO.font_size
    x_ticks = [t for t in narrow.iter(f"{SVG}text") if t.get("text-anchor") == "middle"][:-1]
    wide_ticks = [t for t in wide.iter(f"{SVG}text") if t.get("text-anchor") == "middle"][:-1]
    assert 2 <= len(x_ticks) <= ESTREITO.max_ticks < len(wide_ticks)
    # every candidate named under the plot, highest first, the long name cut
    height = float(narrow.get("viewBox", "").split()[3])
    labels = [t for t in narrow.iter(f"{SVG}text") if t.get("font-weight") == "700"]
    assert ["".join(t.itertext()).split("%")[0] for t in labels] == [
        "Nome Bem Comprido de …43,40",
        "Bia35,40",
        "Caio27,40",
        "Duda19,40",
        "Eva11,40",
    ]
    plot_bottom = ESTREITO.top + ESTREITO.plot_h
    assert all(plot_bottom < float(t.get("y", "0")) < height for t in labels)
