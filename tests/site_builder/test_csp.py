"""The Content-Security-Policy in a real browser: the site works under it, injected script does not run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from site_builder import csp
from site_builder.build import build_site
from tests.support.navegador import CHROMIUM, Navegador
from tests.support.paginas import ServidorPaginas
from tests.support.site_local import servir

needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium não está instalado")

# Each one marks the page if it runs; none may.
INJECTED = (
    "<script>document.documentElement.setAttribute('data-xss', 'inline')</script>"
    "<img src=\"/nao-existe.png\" onerror=\"document.documentElement.setAttribute('data-xss', 'onerror')\">"
    "<svg onload=\"document.documentElement.setAttribute('data-xss', 'svg')\"></svg>"
    "<iframe srcdoc=\"<script>parent.document.documentElement.setAttribute('data-xss','srcdoc')</script>\">"
    "</iframe>"
    "<script src=\"data:text/javascript,document.documentElement.setAttribute('data-xss','data')\"></script>"
)


@pytest.fixture
def built(project: Path, tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """The fixture site built and served like the CDN serves it (policy in the header too)."""
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    with servir(out) as base:
        yield out, base


def _csp_errors(erros: list[str]) -> list[str]:
    return [e for e in erros if "Content Security Policy" in e]


def test_every_page_carries_the_policy_before_anything_it_governs(built: tuple[Path, str]) -> None:
    out, _ = built
    meta = f'<meta http-equiv="Content-Security-Policy" content="{csp.policy().replace(chr(39), "&#39;")}">'
    for page in out.rglob("*.html"):
        head = page.read_text(encoding="utf-8").split("<head>", 1)[1]
        assert head.lstrip().startswith('<meta charset="utf-8">\n' + meta), page
        assert " style=" not in page.read_text(encoding="utf-8"), page  # inline styles are refused


def test_local_server_sends_the_policy_header(built: tuple[Path, str]) -> None:
    _, url = built
    answer = requests.get(f"{url}/", timeout=30)
    assert answer.headers["Content-Security-Policy"] == csp.policy(header=True)
    assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in answer.headers["Content-Security-Policy"]


@needs_chromium
def test_site_works_under_the_policy_and_injected_script_does_not_run(built: tuple[Path, str]) -> None:
    out, url = built
    page = out / "candidatos" / "ana-teste" / "index.html"
    html = page.read_text(encoding="utf-8")
    page.write_text(html.replace("</h1>", "</h1>" + INJECTED, 1), encoding="utf-8")
    with Navegador() as navegador:
        clean = navegador.abrir(f"{url}/checagens/", 1024, 800)
        hostile = navegador.abrir(f"{url}/candidatos/ana-teste/", 1024, 800)
    assert clean.erros == []  # stylesheet, icon and candidate colours pass the policy
    assert 'data-xss="' not in hostile.dom
    assert 'fill="#1f5fa8"' in hostile.dom
    assert _csp_errors(hostile.erros), hostile.erros


@needs_chromium
def test_meta_tag_alone_blocks_inline_script_and_a_hashed_script_runs() -> None:
    allowed = "document.documentElement.setAttribute('data-permitido', 'sim')"
    policy = csp.policy(scripts=(allowed,))
    page = (
        '<!doctype html><html><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
        f"</head><body><script>{allowed}</script>{INJECTED}</body></html>"
    )
    with ServidorPaginas() as servidor, Navegador() as navegador:  # no policy header: only the meta tag
        seen = navegador.abrir(servidor.rota("/pagina", page), 800, 600)
    assert 'data-permitido="sim"' in seen.dom
    assert 'data-xss="' not in seen.dom
    assert _csp_errors(seen.erros)


def test_script_hash_is_the_one_browsers_compute() -> None:
    # The example of the CSP Level 3 specification (section 8.3)
    expected = "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
    assert csp.script_hash("alert('Hello, world.');") == expected
