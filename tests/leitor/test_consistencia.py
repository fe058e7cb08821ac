"""Consistency: a candidate shows the colour of their candidate file on every page and chart, and
counts agree with their nouns ("1 checagem", "2 checagens"; never "checagem(ns)")."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from site_builder.br_format import plural
from site_builder.projecao_view import COLOURS

# A swatch (an SVG circle) followed by the name it marks, with or without a link around the name.
AMOSTRA = re.compile(
    r'<circle cx="1" cy="1" r="1" fill="(#[0-9a-fA-F]{6})"/></svg>(?:<a [^>]*>)?([^<]+?)(?:</a>|<| \()'
)
# A chart label: the colour bar, then the name in the first tspan.
ROTULO = re.compile(r'<rect [^>]*fill="(#[0-9a-fA-F]{6})"/>\n<text [^>]*><tspan [^>]*>([^<]+)</tspan>')


def cores_dos_arquivos(projeto: Path) -> dict[str, str]:
    cores = {}
    for arquivo in sorted((projeto / "content" / "candidatos").glob("*.toml")):
        dados = tomllib.loads(arquivo.read_text(encoding="utf-8"))
        cores[dados["nome"]] = dados["cor"]
    return cores


def test_a_candidate_has_one_colour_everywhere(projeto_completo: Path, site_completo: Path) -> None:
    esperado = cores_dos_arquivos(projeto_completo)
    vistas: dict[str, set[str]] = {}
    paginas_com_cor: set[str] = set()
    for pagina in sorted(site_completo.rglob("*.html")):
        html = pagina.read_text(encoding="utf-8")
        for cor, nome in [*AMOSTRA.findall(html), *ROTULO.findall(html)]:
            vistas.setdefault(nome.strip(), set()).add(cor.lower())
            if nome.strip() == "Helena Prado":
                paginas_com_cor.add(pagina.relative_to(site_completo).parts[0])
    assert vistas, "nenhuma cor de candidato encontrada"
    for nome, cores in vistas.items():
        if nome in esperado:
            assert cores == {esperado[nome].lower()}, nome
        else:  # a TSE name without a candidate file: the chart's own colours
            assert cores <= {c.lower() for c in COLOURS}, nome
    # the projection (tables and chart), the debate scoreboard and the desk's pages
    assert {"projecao", "debates", "candidatos", "checagens"} <= paginas_com_cor


@pytest.mark.parametrize(
    ("n", "texto"), [(0, "0 checagens"), (1, "1 checagem"), (2, "2 checagens"), (1000, "1.000 checagens")]
)
def test_plural_agrees_with_the_count(n: int, texto: str) -> None:
    assert plural(n, "checagem", "checagens") == texto


def test_pages_never_write_a_plural_in_parentheses(site_completo: Path) -> None:
    for pagina in sorted(site_completo.rglob("*.html")):
        rel = pagina.relative_to(site_completo).as_posix()
        if rel.startswith("debates/"):
            continue  # the debate page's own texts are fixed on branch g16 (issue 17, debate labels)
        texto = re.sub(r"<[^>]+>", " ", pagina.read_text(encoding="utf-8"))
        assert not re.search(r"\w\((s|ns|es|m)\)", texto), rel
        assert not re.search(r"\b1 (critérios|leituras|checagens|candidatos)\b", texto), rel


def test_sitemap_dates_each_page_by_its_content(site_completo: Path, projeto_completo: Path) -> None:
    sitemap = (site_completo / "sitemap.xml").read_text(encoding="utf-8")
    datas = dict(re.findall(r"<loc>https?://[^/<]+(/[^<]*)</loc>(?:<lastmod>([^<]+)</lastmod>)?", sitemap))
    assert datas["/projecao/6258-presidente/"] == "2026-10-25T20:20:00Z"  # the latest reading
    assert datas["/debates/demo-governo-2026-10-15/"] == "2026-10-15"
    check = next(url for url in datas if url.startswith("/checagens/demo-helena-leitos"))
    assert datas[check] == "2026-10-16T21:00:00Z"  # published 18:00 in Brasília, never corrected
    for url, lastmod in datas.items():
        assert re.fullmatch(r"\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\dZ)?", lastmod), url
    # The home page shows checks, projections and debates: its date is theirs, not the method's.
    assert datas["/"] == max(v for url, v in datas.items() if not url.startswith("/metodologia/"))
    textos = {
        f"/metodologia/{p.stem}/": re.search(r"^atualizado_em = (\S+)$", p.read_text(encoding="utf-8"), re.M)
        for p in (projeto_completo / "content/metodologia").glob("*.md")
    }
    for url, achado in textos.items():
        assert achado is not None, url
        assert datas[url] == achado.group(1), url  # the date the text says it last changed
    assert datas["/metodologia/"] == max(a.group(1) for a in textos.values() if a)
