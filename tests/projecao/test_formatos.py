"""Brazilian number and time formats, the chart, and reading `saida.json`."""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from site_builder import br_format
from site_builder.projecao_dados import SaidaInvalidaError, parse_saida
from site_builder.svg_chart import Ponto, Serie, chart_svg
from tests.model.helpers import CAPTURES
from tests.projecao.noite import project

SVG = "{http://www.w3.org/2000/svg}"


def test_numbers_the_brazilian_way() -> None:
    assert br_format.decimal(1234.5) == "1.234,50"
    assert br_format.decimal(0.8562) == "0,86"
    assert br_format.inteiro(52396733) == "52.396.733"
    assert br_format.pct(43.6707) == "43,67%"
    assert br_format.pct(100) == "100,00%"
    assert br_format.pontos(0.8562) == "0,86 ponto"
    assert br_format.pontos(1.999) == "2,00 pontos"
    assert br_format.pontos(3.7732) == "3,77 pontos"
    assert br_format.com_sinal(0.47) == "+0,47"
    assert br_format.com_sinal(-1.2) == "\u22121,20"
    assert br_format.com_sinal(0.001) == "0,00"


def test_times_in_brasilia() -> None:
    utc = dt.datetime(2026, 10, 4, 21, 39, 46, 908000, tzinfo=dt.UTC)
    assert br_format.hora(utc, "America/Sao_Paulo") == "18:39:46"
    assert br_format.data_hora(utc, "America/Sao_Paulo") == "4 de outubro de 2026, 18:39:46"
    assert br_format.iso_utc(utc) == "2026-10-04T21:39:46Z"
    late = dt.datetime(2026, 10, 26, 2, 30, tzinfo=dt.UTC)  # 23:30 of the 25th in Brasília
    assert br_format.data_hora(late, "America/Sao_Paulo") == "25 de outubro de 2026, 23:30:00"


def _series() -> list[Serie]:
    a = (
        Ponto(5.0, 40.0, None),
        Ponto(20.0, 41.0, 44.0, 43.2, 44.8),
        Ponto(35.0, 42.0, 44.5, 43.8, 45.2),
        Ponto(50.0, 43.0, 44.9, 44.3, 45.5),
    )
    b = tuple(
        Ponto(
            p.apurado,
            100 - p.parcial,
            None if p.projecao is None else 100 - p.projecao,
            None if p.faixa_max is None else 100 - p.faixa_max,
            None if p.faixa_min is None else 100 - p.faixa_min,
        )
        for p in a
    )
    return [Serie("ANA <&> TESTE", "#0b4f9c", a), Serie("BIA", "#a33b00", b)]


def test_chart_is_accessible_svg_with_text_labels() -> None:
    svg = str(
        chart_svg(_series(), ident="g1", titulo="Título & teste", descricao="Descrição", estreito=False)
    )
    root = ET.fromstring(svg)  # well-formed XML: every text is escaped
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "g1-titulo g1-desc"
    assert root.find(f"{SVG}title").text == "Título & teste"  # type: ignore[union-attr]
    assert root.find(f"{SVG}desc").text == "Descrição"  # type: ignore[union-attr]
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "ANA <&> TESTE44,90% (projeção)" in texts
    assert "% do eleitorado apurado" in texts
    assert any(t.endswith("%") and t[0].isdigit() for t in texts)  # axis ticks
    # One band per candidate over the 3 publishable readings; the first reading has no projection.
    polygons = root.findall(f"{SVG}polygon")
    assert len(polygons) == 2
    assert all(len(p.get("points", "").split()) == 6 for p in polygons)
    solid = [p for p in root.findall(f"{SVG}polyline") if p.get("stroke-dasharray") is None]
    dashed = [p for p in root.findall(f"{SVG}polyline") if p.get("stroke-dasharray")]
    assert [len(p.get("points", "").split()) for p in solid] == [3, 3]
    assert [len(p.get("points", "").split()) for p in dashed] == [4, 4]


def test_chart_labels_do_not_overlap_and_single_reading_gets_an_error_bar() -> None:
    close = [
        Serie("A", "#0b4f9c", (Ponto(30.0, 50.0, 50.1, 49.0, 51.2),)),
        Serie("B", "#a33b00", (Ponto(30.0, 50.0, 49.9, 48.8, 51.0),)),
    ]
    root = ET.fromstring(str(chart_svg(close, ident="g", titulo="t", descricao="d", estreito=False)))
    ys = sorted(float(t.get("y", "0")) for t in root.iter(f"{SVG}text") if t.get("font-weight") == "700")
    assert len(ys) == 2 and ys[1] - ys[0] >= 30
    bars = [line for line in root.iter(f"{SVG}line") if line.get("stroke-width") == "8"]
    assert len(bars) == 2
    assert str(chart_svg([], ident="g", titulo="t", descricao="d")) == ""


def _saida(tmp_path: Path) -> dict[str, Any]:
    folder = tmp_path / "c"
    shutil.copytree(sorted(p for p in CAPTURES.iterdir() if p.is_dir())[0], folder)
    return json.loads(project(folder, "--anterior", "nenhum"))  # type: ignore[no-any-return]


def test_parse_real_output(tmp_path: Path) -> None:
    saida = _saida(tmp_path)
    leitura = parse_saida(json.dumps(saida).encode())
    assert leitura.eleicao == "6257" and leitura.cargo == "presidente" and leitura.uf == "br"
    assert leitura.publicavel is True and len(leitura.candidatos) == 12 and len(leitura.estratos) == 28
    assert [c.nome for c in leitura.principais()] == ["FLAVIO BOLSONARO", "LULA"]
    assert leitura.agora is not None and leitura.agora.utcoffset() == dt.timedelta(hours=-3)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: s.pop("forecast"), "falta o campo 'forecast'"),
        (lambda s: s.update(publicavel="sim"), "'publicavel' deveria ser verdadeiro ou falso"),
        (lambda s: s["forecast"].update(tendencia=[1]), "forecast.tendencia"),
        (
            lambda s: s["estratos"][0].update(validos="10"),
            "'estratos[].validos' deveria ser um número inteiro",
        ),
        (lambda s: s["parcial"]["candidatos"].pop(), "não está na parcial e na projeção"),
    ],
)
def test_parse_errors_say_what_is_wrong(tmp_path: Path, mutate: object, message: str) -> None:
    saida = _saida(tmp_path)
    mutate(saida)  # type: ignore[operator]
    with pytest.raises(SaidaInvalidaError, match=re.escape(message)):
        parse_saida(json.dumps(saida).encode())


@pytest.mark.parametrize(
    ("data", "message"), [(b"{nao e json", "JSON inválido"), (b"\xff\xfe", "UTF-8"), (b"[]", "objeto")]
)
def test_parse_errors_on_bad_bytes(data: bytes, message: str) -> None:
    with pytest.raises(SaidaInvalidaError, match=message):
        parse_saida(data)
