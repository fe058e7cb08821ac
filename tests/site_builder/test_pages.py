"""What readers get: valid feeds and sitemaps, accessible pages, the 404 page."""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import jinja2
import pytest
from jinja2 import meta

from site_builder.build import build_site
from site_builder.config import validate_config
from site_builder.errors import BuildError
from site_builder.render import TEMPLATE_REFERENCE, data_extenso
from tests.site_builder.conftest import REPO, make_project

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture site, built once for the tests that only read it."""
    root = tmp_path_factory.mktemp("paginas")
    out = root / "public"
    build_site(make_project(root / "projeto"), out, strict=True)
    return out


class _Outline(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_every_page_is_accessible_html(built: Path) -> None:
    pages = sorted(built.rglob("*.html"))
    assert pages
    for page in pages:
        parser = _Outline()
        parser.feed(page.read_text(encoding="utf-8"))
        tags = parser.tags
        assert tags[0] == ("html", {"lang": "pt-BR"}), page
        assert [t for t, _ in tags].count("h1") == 1, page
        assert ("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}) in tags
        skip = [a for t, a in tags if t == "a" and a.get("class") == "pular"]
        assert skip == [{"class": "pular", "href": "#conteudo"}], page
        assert ("main", {"id": "conteudo", "class": "largura", "tabindex": "-1"}) in tags, page


def test_feed_sitemap_robots(built: Path) -> None:
    feed = ET.parse(built / "checagens/feed.xml").getroot()
    entries = feed.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}id") for e in entries] == [
        "https://teste.example.org/checagens/afirmacao-um/",
        "https://teste.example.org/checagens/afirmacao-corrigida/",
    ]
    assert entries[0].findtext(f"{ATOM}title") == "Falso: Uma afirmação verificável."
    # A correction updates its entry and the feed (published 5 Oct, corrected 12 Oct 15:00 BRT).
    assert entries[1].findtext(f"{ATOM}published") == "2026-10-05T15:00:00Z"
    assert entries[1].findtext(f"{ATOM}updated") == "2026-10-12T18:00:00Z"
    assert "corrigida em 12 de outubro de 2026" in (entries[1].findtext(f"{ATOM}summary") or "")
    assert entries[0].findtext(f"{ATOM}updated") == entries[0].findtext(f"{ATOM}published")
    assert feed.findtext(f"{ATOM}updated") == "2026-10-12T18:00:00Z"
    urls = [
        loc.text
        for loc in ET.parse(built / "sitemap.xml")
        .getroot()
        .iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")
    ]
    assert "https://teste.example.org/" in urls
    assert "https://teste.example.org/checagens/afirmacao-um/" in urls
    assert not any("404" in (u or "") for u in urls)
    assert "Sitemap: https://teste.example.org/sitemap.xml" in (built / "robots.txt").read_text(
        encoding="utf-8"
    )


def test_not_found_page_links_work_from_any_depth(built: Path) -> None:
    html = (built / "404.html").read_text(encoding="utf-8")
    assert "Página não encontrada" in html
    assert re.findall(r'href="([^"]+)"', html)
    assert all(h.startswith(("/", "#", "https://", "mailto:")) for h in re.findall(r'href="([^"]+)"', html))


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two #RRGGBB colours."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_declared_colour_pairs_meet_wcag_aa() -> None:
    css = (REPO / "templates/static/estilo.css").read_text(encoding="utf-8")
    colours = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})", css))
    pairs = re.findall(r"contraste: ([a-z-]+) sobre ([a-z-]+)", css)
    assert len(pairs) >= 10
    for text, background in pairs:
        ratio = contrast(colours[text], colours[background])
        assert ratio >= 4.5, f"{text} sobre {background}: {ratio:.2f}"


def test_contrast_formula_matches_wcag_reference() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


VALID = {
    "titulo": "t",
    "descricao": "d",
    "url_base": "https://x.org/",
    "organizacao": "o",
    "email_redacao": "e",
}


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        ({}, "falta a chave obrigatória 'titulo'"),
        ({**VALID, "titulo": ""}, "'titulo' deve ser um texto não vazio"),
        ({**VALID, "url_base": "x.org"}, "'url_base' deve ser um endereço http(s) absoluto"),
        ({**VALID, "url_base": "https://x.org/?a=1"}, "sem ? nem #"),
    ],
)
def test_config_errors(raw: dict[str, str], error: str) -> None:
    config, errors, _warnings = validate_config(raw)
    assert config is None
    assert any(error in e for e in errors)


def test_config_unknown_key_is_a_warning() -> None:
    raw = VALID
    config, errors, warnings = validate_config({**raw, "tema": "escuro"})
    assert config is not None and config.url_base == "https://x.org"
    assert errors == []
    assert warnings == ["site.toml: chave desconhecida 'tema' (ignorada)"]


def test_template_reference_regex_agrees_with_jinja() -> None:
    """The incremental build finds a template's dependencies with a regex; Jinja's parser agrees."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(REPO / "templates"))
    for path in sorted((REPO / "templates").glob("*.*")):
        source = path.read_text(encoding="utf-8")
        by_jinja = set(meta.find_referenced_templates(env.parse(source)))
        assert None not in by_jinja, f"{path.name}: a template reference that is not a literal name"
        assert set(TEMPLATE_REFERENCE.findall(source)) == by_jinja, path.name


def test_a_methodology_page_says_when_its_text_last_changed(built: Path) -> None:
    page = (built / "metodologia/primeira/index.html").read_text(encoding="utf-8")
    assert 'Texto atualizado em <time datetime="2026-10-20">20 de outubro de 2026</time>' in page


@pytest.mark.parametrize(
    ("linha", "erro"),
    [
        ("", "atualizado_em: campo obrigatório: a data da última mudança do texto"),
        ('atualizado_em = "ontem"\n', "atualizado_em: use uma data, como 2026-10-20"),
    ],
)
def test_a_methodology_page_without_a_real_date_is_refused(
    project: Path, tmp_path: Path, linha: str, erro: str
) -> None:
    page = project / "content/metodologia/segunda.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(re.sub(r"^atualizado_em = .*\n", linha, text, count=1, flags=re.M), encoding="utf-8")
    with pytest.raises(BuildError, match=re.escape(f"content/metodologia/segunda.md: {erro}")):
        build_site(project, tmp_path / "public", strict=True)  # the default build isolates it


def test_the_first_day_of_a_month_is_written_as_brazilians_write_it() -> None:
    assert data_extenso(dt.date(2026, 12, 1), "America/Sao_Paulo") == "1º de dezembro de 2026"
    assert data_extenso(dt.datetime(2026, 11, 2, 2, 0, tzinfo=dt.UTC), "America/Sao_Paulo") == (
        "1º de novembro de 2026"  # 23:00 of the day before, in Brasília
    )
