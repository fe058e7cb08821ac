"""Hostile strings in any field the desk's rules do not refuse are escaped everywhere, JSON-LD included."""

from __future__ import annotations

import json
from pathlib import Path

import extruct

from site_builder.build import build_site
from site_builder.markdown_render import MarkdownRenderer
from tests.site_builder.conftest import snapshot

HOSTILE = "</script><script>alert(1)</script>"


def _poison(project: Path) -> None:
    """Put the hostile string into every text field of the pages and the site settings."""
    for path in project.joinpath("content").rglob("*"):
        if (
            not path.is_file()
            or path.parent.name in ("checagens", "candidatos")
            or path.name == "editores.toml"
        ):
            continue  # the desk's rules refuse HTML there (tests/checagens/test_hostil.py)
        text = path.read_text(encoding="utf-8")
        for key in ("titulo", "descricao", "afirmacao", "nome", "partido", "organizacao"):
            text = text.replace(f'{key} = "', f'{key} = "{HOSTILE} ')
        if path.suffix == ".md":
            text += f"\n\n{HOSTILE}\n\nTexto {HOSTILE} no meio.\n"
        path.write_text(text, encoding="utf-8")


def test_hostile_string_is_escaped_everywhere(project: Path, tmp_path: Path) -> None:
    _poison(project)
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    files = snapshot(out)
    for rel, data in files.items():
        assert b"<script>alert(1)" not in data, rel
        assert b"</script><script>" not in data, rel
    pages = [rel for rel in files if rel.endswith(".html")]
    assert len(pages) == 16  # every HTML page of the fixture site (two verdict filters, one archived copy)
    for rel in pages:
        html = files[rel].decode("utf-8")
        # Every script element is our JSON-LD, and it still parses and holds the string intact.
        assert html.count("<script") == html.count('<script type="application/ld+json">') == 1
        items = extruct.extract(html, syntaxes=["json-ld"])["json-ld"]
        assert len(items) == 1, rel
        assert HOSTILE in json.dumps(items[0], ensure_ascii=False), rel
        assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html, rel


def test_markdown_escapes_raw_html_and_unsafe_links() -> None:
    html = MarkdownRenderer().convert(
        "<div onclick='x()'>bloco</div>\n\nTexto <b>inline</b> e [link](javascript:alert(1)) "
        "e [outro](JaVa\tScRiPt:alert(2)) e ![img](data:text/html;base64,AAAA) e [ok](/metodologia/)\n"
    )
    assert "<div" not in html and "<b>" not in html
    assert "&lt;div onclick=" in html and "&lt;b&gt;inline&lt;/b&gt;" in html
    assert "javascript" not in html.lower().replace("\t", "") and "data:text" not in html
    assert '<a href="/metodologia/">ok</a>' in html


def test_markdown_extensions() -> None:
    html = MarkdownRenderer().convert(
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nx < y\n```\n\n1. um\n2. dois\n"
    )
    assert "<table>" in html and "<td>1</td>" in html
    assert "<pre><code>x &lt; y\n</code></pre>" in html
    assert "<ol>" in html
