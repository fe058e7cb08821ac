"""An artifact: one output file of the build and how to make it (shared by every product's pages)."""

from __future__ import annotations

from collections.abc import Callable
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

    @property
    def url(self) -> str:
        """Root-relative URL the artifact is served at."""
        return url_of(self.path)


def url_of(path: str) -> str:
    """Root-relative URL an output path is served at (`a/index.html` -> `/a/`)."""
    return "/" + path.removesuffix("index.html")


def raw(path: str, fingerprint: str, data: Callable[[], bytes]) -> Artifact:
    """An output copied byte for byte (a data file, a JSON document): no template, not in the sitemap.

    `fingerprint` must change whenever the bytes do (e.g. the source file's SHA-256); `data` is
    called only when the output must be written again.
    """
    return Artifact(path, "", fingerprint, dict, sitemap=False, data=data)
