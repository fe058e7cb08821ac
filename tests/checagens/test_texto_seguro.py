"""Link schemes decoded like a browser, raw HTML, hidden characters and sizes (conteudo.texto_seguro)."""

from __future__ import annotations

import pytest

from site_builder.conteudo import texto_seguro as ts
from site_builder.markdown_render import addresses

PROIBIDAS = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "javascript&#58;alert(1)",
    "javascript&#x3A;alert(1)",
    "javascript&#X3a;alert(1)",
    "javascript&colon;alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;&#x61;&#x76;&#x61;script:alert(1)",
    "&#0000106avascript:alert(1)",  # numeric reference without ';' and with zeros: browsers decode it
    "javascript&amp;#58;alert(1)",  # a reference of a reference
    "jav&#x09;ascript:alert(1)",  # tab inside the scheme
    "jav&NewLine;ascript:alert(1)",
    " \x01javascript:alert(1)",
    "java\u200bscript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "file:///etc/passwd",
]
PERMITIDAS = [
    "https://www.ibge.gov.br/",
    "HTTP://example.org/a?b=1&c=2",
    "mailto:redacao@example.org",
    "/metodologia/",
    "../outra/",
    "#fontes",
    "pagina/sem-esquema",
    "https://example.org/javascript:nada",  # the scheme is https
]


@pytest.mark.parametrize("url", PROIBIDAS)
def test_forbidden_schemes_are_read_as_a_browser_reads_them(url: str) -> None:
    assert ts.url_proibida(url) is not None
    assert "não é permitido" in (ts.url_proibida(url) or "")


@pytest.mark.parametrize("url", PERMITIDAS)
def test_allowed_addresses(url: str) -> None:
    assert ts.url_proibida(url) is None


@pytest.mark.parametrize(
    "texto",
    [
        "<script>alert(1)</script>",
        "a <b>negrito</b>",
        "<img src=x onerror=alert(1)>",
        "<!-- x -->",
        "</p>",
        "<svg/onload=alert(1)>",
    ],
)
def test_raw_html_is_found(texto: str) -> None:
    assert "contém HTML" in (ts.html_bruto(texto) or "")


@pytest.mark.parametrize(
    "texto", ["menos de 5% < 10%", "x<y", "<https://example.org/>", "&lt;script&gt;", "seta -> e <- e <3"]
)
def test_text_that_is_not_html(texto: str) -> None:
    assert ts.html_bruto(texto) is None


@pytest.mark.parametrize(
    ("texto", "trecho"),
    [
        ("Fernanda\u202eamiL", "U+202E"),
        ("fal\u00adso", "U+00AD"),
        ("fal\u200bso", "U+200B"),
        ("fal\u200dso", "U+200D"),
        ("a\u2066b", "U+2066"),
    ],
)
def test_hidden_characters_are_named(texto: str, trecho: str) -> None:
    assert trecho in (ts.caractere_oculto(texto) or "")


def test_emoji_sequences_keep_their_joiner() -> None:
    assert ts.caractere_oculto("programadora \U0001f469\u200d\U0001f4bb no evento") is None


def test_body_problems_name_the_line() -> None:
    corpo = "Primeira linha.\n\nVeja [a fonte](https://ibge.gov.br/).\n\n[clique](javascript&#58;alert(1))\n"
    assert [(n, p.split(":")[0]) for n, p in ts.problemas_do_corpo(corpo, addresses)] == [
        (5, "link 'javascript&#58;alert(1)'")
    ]


def test_reference_style_link_is_located_at_its_definition() -> None:
    corpo = "Texto com [link][x].\n\nOutro parágrafo.\n\n[x]: &#106;avascript:alert(1)\n"
    assert [n for n, _ in ts.problemas_do_corpo(corpo, addresses)] == [5]


def test_huge_body_is_refused_without_being_rendered() -> None:
    assert [p for _, p in ts.problemas_do_corpo("a" * (ts.MAX_CORPO + 1), addresses)] == [
        f"a explicação tem {ts.MAX_CORPO + 1} caracteres; o limite é {ts.MAX_CORPO}"
    ]


def test_body_hidden_characters_name_their_lines() -> None:
    corpo = "Primeira linha.\n\nzero\u200bwidth aqui.\n\nsem nada\nde novo\u202e aqui\n"
    assert [n for n, _ in ts.problemas_do_corpo(corpo, addresses)] == [3, 6]
    assert list(ts.problemas_do_corpo("Nada oculto.\n\n\U0001f469\u200d\U0001f4bb\n", addresses)) == []
