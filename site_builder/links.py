"""Internal link check: every root-relative href/src in the HTML must name a built file."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

# A link: whitespace, `href` or `src`, `=` and a quoted address (what `internal_links` reads).
_AFTER_NAME = re.compile(r"""\s*=\s*["'](/[^"'#?]*)""")  # `_LINK` after its attribute name
_LINK = re.compile(r"\s(?:href|src)" + _AFTER_NAME.pattern)


def internal_links(html: str) -> tuple[str, ...]:
    """Root-relative paths linked from a page (query and fragment dropped), sorted, unique: those
    `_LINK` finds, scanning left to right without overlaps, whose address does not start `//`."""
    # `_LINK.finditer` tries its leading `\s` at every character of a page (26 MB of HTML in a
    # 2,000-check build); `str.find` jumps from one attribute name to the next at C speed and the
    # rest of the pattern is matched only there: half the time, the same links (property test).
    starts = []  # every `href` and `src` with a character before it, in page order
    for name in ("href", "src"):
        position = html.find(name, 1)
        while position != -1:
            starts.append((position, len(name)))
            position = html.find(name, position + len(name))
    starts.sort()
    addresses: set[str] = set()
    end = 0  # where the last match ended: the next starts at or after it, as with finditer
    for position, length in starts:
        if position > end and html[position - 1].isspace():
            match = _AFTER_NAME.match(html, position + length)
            if match is not None:
                end = match.end()
                if not match.group(1).startswith("//"):
                    addresses.add(match.group(1))
    # Interned: the build keeps every page's links, and most pages link to the same few paths.
    return tuple(sorted({sys.intern(unquote(address)) for address in addresses}))


# What makes `urlsplit` do more than return a root-relative link as its path: a query, a
# fragment, or the characters it removes from any URL.
_NOT_PLAIN = re.compile(r"[?#\t\r\n]")


def target_of(link: str) -> str:
    """Output file a root-relative link is served from (`/a/` -> `a/index.html`)."""
    # `internal_links` gives plain paths: splitting them (a third of a no-op rebuild's link
    # check) would return them as they are.
    plain = link.startswith("/") and not link.startswith("//") and not _NOT_PLAIN.search(link)
    path = (link if plain else urlsplit(link).path).lstrip("/")
    return path + "index.html" if path == "" or path.endswith("/") else path


def broken_links(
    links_by_page: dict[str, tuple[str, ...]],
    outputs: set[str],
    localizar: Callable[[str, str], str | None] = lambda _page, _link: None,
) -> list[str]:
    """Warnings, in Portuguese, for links whose target is not among the outputs; `localizar(page,
    link)` may word one instead (naming the content file and line that wrote it)."""
    unique = {link for links in links_by_page.values() for link in links}
    broken = {
        link for link in unique if (t := target_of(link)) not in outputs and f"{t}/index.html" not in outputs
    }
    return [
        localizar(page, link) or f"link interno quebrado em {page}: {link}"
        for page in sorted(links_by_page)
        for link in links_by_page[page]
        if link in broken
    ]
