"""The content rules read a check's link addresses with a shortened conversion: it must find
exactly the addresses the page's full conversion puts into `href` and `src`."""

from __future__ import annotations

import pytest

from site_builder import markdown_render
from site_builder.conteudo.frontmatter import split_front_matter
from site_builder.errors import ContentError
from tests.site_builder.conftest import REPO

TRICKY = [
    "*[a](https://x.test/a)* e **[b](/b)** e ***[c](/c)***",
    "_[d_](javascript:x) e __[e__](/e)",
    "[f](javascript&#58;alert(1)) &amp;[g](/g) &#91;h](/h)",
    "<ftp://example.org/f> <https://example.org/g> <alguem@example.org>",
    "[i][r] e [r]\n\n[r]: data:text/html,x",
    '![imagem](java\tscript:x) ![outra](/img.png "título")',
    "`[j](javascript:x)` e ``[k](/k)``",
    "```\n[l](javascript:x)\n```\n\n    [m](javascript:x)",
    "| a | b |\n|---|---|\n| [n](/n) | *[o](vbscript:x)* |",
    "linha  \n[p](/p)\\\n[q](/q)",
    '[r](<javascript:x>) [s]( /s "t" ) \\[t](/t) [u\\](/u)',
    "# [v](/v)\n\n- [w](/w)\n- *x* [x](/x)\n\n1. [y](mailto:y@example.org)",
    "> citação com [z](/z) e *ênfase [dentro](/dentro)*",
    "[a*b](/a*b*) e *[c_d](/c_d)_*",
]


def _checks() -> list[str]:
    """Bodies of every check in the repository and in the hostile fixtures."""
    paths = [*(REPO / "content/checagens").glob("*.md"), *(REPO / "tests/fixtures/hostil").rglob("*.md")]
    bodies = []
    for path in sorted(paths):
        try:
            bodies.append(split_front_matter(path.read_text(encoding="utf-8"), path.name)[1])
        except ContentError:  # refused whole: its text still has links to read
            bodies.append(path.read_text(encoding="utf-8"))
    return bodies


def _full_conversion_addresses(text: str) -> list[str]:
    """href/src as the page's own conversion sets them, read before unsafe ones are removed."""
    md = markdown_render._markdown()
    found: list[str] = []
    md.treeprocessors.register(markdown_render._AddressCollector(md, found), "addresses", 1)
    md.convert(text)
    return found


@pytest.mark.parametrize("text", TRICKY)
def test_short_reading_finds_the_full_conversions_addresses(text: str) -> None:
    short = markdown_render.MarkdownRenderer(fast_path=False)  # the shortened reading itself
    assert short.addresses(text) == _full_conversion_addresses(text)


def test_short_reading_agrees_on_every_real_and_hostile_body() -> None:
    renderer = markdown_render.MarkdownRenderer(fast_path=False)  # one reused, as the build does
    bodies = _checks()
    assert len(bodies) > 10
    for body in bodies:
        assert renderer.addresses(body) == _full_conversion_addresses(body)


def test_the_shortened_reading_finds_unsafe_links() -> None:
    found = markdown_render.MarkdownRenderer().addresses(TRICKY[1] + "\n\n" + TRICKY[3])
    assert "javascript:x" in found
    assert "ftp://example.org/f" in found
