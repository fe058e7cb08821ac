"""A real browser (Debian's headless chromium) opens the built projection pages served on loopback:
the numbers it shows equal `saida.json`, and a screenshot is saved in the test's output folder."""

from __future__ import annotations

import json
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from site_builder.build import build_site
from tests.support.navegador import CHROMIUM, Navegador, salvar
from tests.support.site_local import servir

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium (pacote Debian) não está instalado: teste do navegador pulado"
)
PNG = b"\x89PNG\r\n\x1a\n"


class _Numbers(HTMLParser):
    """data-campo -> (data-valor, text shown) of every number element in the DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, tuple[str, str]] = {}
        self._open: list[tuple[str, str, str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("data-campo") is not None:
            self._open.append((tag, a["data-campo"] or "", a.get("data-valor") or "", []))

    def handle_data(self, data: str) -> None:
        for _, _, _, parts in self._open:
            parts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, campo, valor, parts = self._open.pop()
            self.found[campo] = (valor, "".join(parts).strip())


def numbers(dom: str) -> dict[str, tuple[str, str]]:
    parser = _Numbers()
    parser.feed(dom)
    return parser.found


def pct(value: float) -> str:
    return f"{value:.2f}".replace(".", ",") + "%"


def votes(value: int) -> str:
    return f"{value:,d}".replace(",", ".")


@pytest.fixture
def site(project: Path, tmp_path: Path) -> Iterator[str]:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    with servir(out) as base:
        yield base


def open_page(url: str, screenshot: Path) -> str:
    """The DOM chromium built for `url` (and a screenshot of it, from the same load)."""
    with Navegador() as browser:
        pagina = browser.abrir(url, 1280, 3600)
    salvar(pagina, screenshot)
    assert pagina.png.startswith(PNG)
    assert len(pagina.png) > 20_000  # a rendered page, not a blank one
    return pagina.dom


def latest_output(project: Path, eleicao: str, race: str) -> tuple[dict[str, Any], Path]:
    folder = project / "data" / "tse" / eleicao / race
    name = (folder / "latest").read_text(encoding="utf-8").strip()
    return json.loads((folder / name / "saida.json").read_bytes()), folder


def test_browser_shows_the_numbers_of_saida_json(project: Path, site: str, tmp_path: Path) -> None:
    saida, _ = latest_output(project, "6258", "presidente")
    screenshot = tmp_path / "projecao-6258-presidente.png"
    shown = numbers(open_page(f"{site}/projecao/6258-presidente/", screenshot))
    assert saida["publicavel"] is True
    for cand in saida["forecast"]["candidatos"]:
        n = cand["numero"]
        assert shown[f"projecao-{n}-pct"] == (repr(cand["pct"]), pct(cand["pct"]))
        assert shown[f"projecao-{n}-min"] == (repr(cand["intervalo"][0]), pct(cand["intervalo"][0]))
        assert shown[f"projecao-{n}-max"] == (repr(cand["intervalo"][1]), pct(cand["intervalo"][1]))
        assert shown[f"projecao-{n}-votos"] == (
            repr(cand["votos_projetados"]),
            votes(cand["votos_projetados"]),
        )
    for cand in saida["parcial"]["candidatos"]:
        n = cand["numero"]
        assert shown[f"parcial-{n}-votos"] == (repr(cand["votos"]), votes(cand["votos"]))
        assert shown[f"parcial-{n}-pct"] == (repr(cand["pct"]), pct(cand["pct"]))
    assert shown["apurado"] == (repr(saida["apurado_pct"]), pct(saida["apurado_pct"]))
    erro = saida["forecast"]["erro_medio_esperado"]
    assert shown["projecao-erro-projecao"][0] == repr(erro["projecao"])
    assert shown["projecao-erro-projecao"][1].startswith("±" + pct(erro["projecao"])[:-1])
    assert shown["projecao-tendencia"][0] == str(saida["forecast"]["tendencia"])


def test_browser_non_publishable_page_keeps_the_last_projection_labelled(
    project: Path, site: str, tmp_path: Path
) -> None:
    saida, folder = latest_output(project, "6257", "presidente")
    assert saida["publicavel"] is False
    first = json.loads((folder / "2026-10-04T21-36-05Z" / "saida.json").read_bytes())
    screenshot = tmp_path / "projecao-6257-presidente.png"
    shown = numbers(open_page(f"{site}/projecao/6257-presidente/", screenshot))
    # Seed: this reading has no projection of its own, only the partial and what failed.
    assert not [k for k in shown if k.startswith("projecao-")]
    for cand in saida["parcial"]["candidatos"]:
        assert shown[f"parcial-{cand['numero']}-votos"] == (repr(cand["votos"]), votes(cand["votos"]))
    # Issue 21: the last publishable projection stays, with its own numbers and time.
    assert shown["resumo-rotulo"][1].startswith("Última projeção publicável, 18:36")
    for cand in (c for c in first["forecast"]["candidatos"] if c["numero"] in (13, 22)):  # the top two
        assert shown[f"anterior-{cand['numero']}-pct"] == (repr(cand["pct"]), pct(cand["pct"]))
        assert shown[f"resumo-{cand['numero']}-pct"] == (repr(cand["pct"]), pct(cand["pct"]))
