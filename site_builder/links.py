"""Internal link check: every root-relative href/src in the HTML must name a built file."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

_LINK = re.compile(r"""\s(?:href|src)\s*=\s*["'](/[^"'#?]*)""")


def internal_links(html: str) -> tuple[str, ...]:
    """Root-relative paths linked from a page (query and fragment dropped), sorted, unique."""
    # Interned: the build keeps every page's links, and most pages link to the same few paths.
    return tuple(
        sorted(
            {sys.intern(unquote(m.group(1))) for m in _LINK.finditer(html) if not m.group(1).startswith("//")}
        )
    )


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
