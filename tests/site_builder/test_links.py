"""The output link check reads links as its regular expression defines them (`links._LINK`):
the scan that jumps between attribute names finds exactly what `finditer` over the page finds."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import unquote

from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.links import _LINK, internal_links

REPO = Path(__file__).resolve().parents[2]

# Pieces that make and break links: names, separators, quotes, the characters that end an
# address, whitespace of several kinds (`\s` is Unicode whitespace), percent escapes.
PIECES = st.sampled_from(
    [
        "href",
        "src",
        "hre",
        "srcset",
        "=",
        " = ",
        '"',
        "'",
        "/",
        "//",
        "#",
        "?",
        "a",
        "%C3%A7",
        " ",
        "\n",
        "\t",
        "\u00a0",
        "\u2003",
        "<a ",
        ">",
        "x",
    ]
)


def by_regex(html: str) -> tuple[str, ...]:
    """What `internal_links` gives by definition: `_LINK.finditer`, addresses not starting `//`."""
    found = {sys.intern(unquote(m.group(1))) for m in _LINK.finditer(html) if not m.group(1).startswith("//")}
    return tuple(sorted(found))


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_the_links_are_those_of_the_regular_expression(html: str) -> None:
    assert internal_links(html) == by_regex(html)


def test_overlapping_candidates_are_read_as_finditer_reads_them() -> None:
    # The first match runs through " href=" inside its address: the second name is not a link.
    html = "<a href=\"/a href='/b'\"> <img src=/x> <a\thref = '/c?q#f'> <a href=\"//cdn/x\">"
    assert internal_links(html) == by_regex(html) == ("/a href=", "/c")


def test_the_templates_give_the_same_links() -> None:
    templates = [path.read_text(encoding="utf-8") for path in (REPO / "templates").glob("*.html")]
    assert templates
    for html in templates:
        assert internal_links(html) == by_regex(html)
