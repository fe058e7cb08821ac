"""A cache of converted Markdown bodies, keyed by content hash, that outlives the output folder.

One entry per body: the HTML of its conversion and the link addresses that same conversion read
(the content rules judge those), so a body is parsed once per build and, once cached, never
again, whether the output folder was wiped (a CI run, a build after a crash) or not.

The key is the SHA-256 of the body text together with `cache_version()`: the converter (the
Markdown package's version, its extensions and output format, the Python version) and the
rules that shape the output (the source of `site_builder.markdown_render`, of its fast path
`site_builder.markdown_rapido` and of `site_builder.conteudo.texto_seguro`, hashed). A change
of any of them gives every body a new key, so an entry of another converter or other rules is
never read. Entries live beside the build state (`.cache/eleicoes-build/markdown/`), never in
the output folder, in packs (`site_builder.packs.EntryStore`: a store of more than
`packs.MAX_ENTRIES` drops its oldest entries). An entry that cannot be read, or whose checksum
does not match its bytes, counts as absent: the body is converted again and the entry rewritten.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import markdown

from site_builder import markdown_render
from site_builder.packs import EntryStore

FOLDER = "markdown"  # `.cache/eleicoes-build/markdown/`, beside the build states (`BuildState.shared`)
FORMAT = 1  # of an entry's bytes


PACKAGE = Path(__file__).resolve().parent  # `site_builder/`
# The rules that shape a body's HTML and addresses: the converter's configuration and
# treeprocessors, its fast path for the bodies of a common subset, and the URL and
# conversion-cost checks they apply. Hashed, so that editing any of these files invalidates
# every entry without anyone having to remember a version number.
RULE_SOURCES = ("markdown_render.py", "markdown_rapido.py", "conteudo/texto_seguro.py")


def converter_signature() -> str:
    """The converter: Markdown's version, its extensions and output format, Python's version."""
    return repr(
        (
            FORMAT,
            markdown.__version__,
            markdown_render.EXTENSIONS,
            markdown_render.OUTPUT_FORMAT,
            sys.version_info[:2],
        )
    )


def rules_signature() -> str:
    """Checksum of the source files of the rules (`RULE_SOURCES`)."""
    digest = hashlib.sha256()
    for name in RULE_SOURCES:
        digest.update(name.encode() + b"\0" + (PACKAGE / name).read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def cache_version() -> str:
    """Checksum of everything besides the text that decides a body's HTML and addresses (once
    per process: the files cannot change under a running build without changing its code hash)."""
    return hashlib.sha256(f"{converter_signature()}\0{rules_signature()}".encode()).hexdigest()


@dataclass(frozen=True)
class Converted:
    """A body's conversion: its HTML and the link addresses read before unsafe ones were removed."""

    html: str
    addresses: tuple[str, ...]


class MarkdownCache(EntryStore):
    """The converted bodies stored in `folder` (an `EntryStore`), keyed by `cache_version()`."""

    def key(self, text: str) -> str:
        """The entry name of one body under this converter and these rules."""
        return hashlib.sha256(f"{cache_version()}\0{text}".encode()).hexdigest()

    def get(self, key: str) -> Converted | None:
        """The entry `key`, or None when absent, unreadable or corrupt."""
        payload = self.get_bytes(key)
        if payload is None:
            return None
        try:
            html, addresses = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(html, str) or not isinstance(addresses, list):
            return None
        return Converted(html, tuple(str(a) for a in addresses))

    def put(self, key: str, converted: Converted) -> None:
        """Store an entry (atomically: a reader sees the whole entry or none)."""
        self.put_bytes(key, json.dumps([converted.html, converted.addresses], ensure_ascii=False).encode())


class CachedRenderer:
    """A `MarkdownRenderer` that looks every body up in a `MarkdownCache` before converting it,
    and stores what it converts: the pages' HTML and the link rules' addresses from one parse."""

    def __init__(self, folder: Path | None) -> None:
        self.cache = MarkdownCache(folder) if folder is not None else None
        self._renderer: markdown_render.MarkdownRenderer | None = None  # built on the first miss

    def converted(self, text: str) -> Converted:
        """The conversion of one body, from the cache or done now (and stored);
        ConversionRefusedError for a body too costly to convert (never stored)."""
        key = self.cache.key(text) if self.cache is not None else ""
        if self.cache is not None and (hit := self.cache.get(key)) is not None:
            return hit
        if self._renderer is None:
            self._renderer = markdown_render.MarkdownRenderer()
        html, addresses = self._renderer.convert_with_addresses(text)
        done = Converted(html, tuple(addresses))
        if self.cache is not None:
            self.cache.put(key, done)
        return done

    def convert(self, text: str) -> str:
        """HTML for one Markdown document (`MarkdownRenderer.convert`)."""
        return self.converted(text).html

    def addresses(self, text: str) -> list[str]:
        """Every link and image address of a Markdown document (`MarkdownRenderer.addresses`)."""
        return list(self.converted(text).addresses)
