"""An artifact: one output file of the build and how to make it (shared by every product's pages)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from site_builder.conteudo.registros import Fonte


@dataclass(frozen=True)
class Artifact:
    """One output file and how to make it."""

    path: str  # relative to the output folder
    template: str
    fingerprint: str  # checksum of the inputs besides templates and site-wide settings
    context: Callable[[], dict[str, Any]]
    markdown: Fonte | None = None  # its body is converted in the parallel phase, passed as `corpo_html`
    sitemap: bool = True  # listed in sitemap.xml (HTML pages only)
    data: Callable[[], bytes] | None = None  # raw bytes published as they are (no template): see `raw`
    # When what the page shows last changed, for sitemap.xml (W3C format); None for pages whose
    # content carries no date (methodology texts): no date is better than an invented one.
    lastmod: str | None = None
    # Raw bytes costly to make (a drawn image), kept in the builder's cross-build cache under
    # the key this returns (what they show and how they are drawn, found only when the output
    # is made again): an output folder wiped (CI, a crash), or a change of the builder's code
    # that does not change what they show, gets them back without drawing them again. Such
    # bytes are made by the builder's code from the site's inputs: the site-wide ones count in
    # their output key, as for a page.
    guardar: Callable[[], str] | None = None

    @property
    def url(self) -> str:
        """Root-relative URL the artifact is served at."""
        return url_of(self.path)


def w3c(value: dt.datetime | dt.date) -> str:
    """`2026-10-25T20:20:00Z` (a moment, in UTC) or `2026-10-15` (a day), as sitemaps write them."""
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    return value.isoformat()


def latest(values: Iterable[str | None]) -> str | None:
    """The most recent of some `w3c` dates (a day sorts before the moments of that day)."""
    return max((v for v in values if v), default=None)


def url_of(path: str) -> str:
    """Root-relative URL an output path is served at (`a/index.html` -> `/a/`)."""
    return "/" + path.removesuffix("index.html")


def raw(
    path: str, fingerprint: str, data: Callable[[], bytes], *, guardar: Callable[[], str] | None = None
) -> Artifact:
    """An output copied byte for byte (a data file, a JSON document): no template, not in the sitemap.

    `fingerprint` must change whenever the bytes do (e.g. the source file's SHA-256); `data` is
    called only when the output must be written again (`guardar`: see `Artifact.guardar`).
    """
    return Artifact(path, "", fingerprint, dict, sitemap=False, data=data, guardar=guardar)
