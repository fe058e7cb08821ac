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
the output folder; a store of more than `MAX_ENTRIES` drops its oldest entries. An entry that
cannot be read, or whose checksum does not match its bytes, counts as absent: the body is
converted again and the entry rewritten.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import markdown

from site_builder import markdown_render

FOLDER = "markdown"  # `.cache/eleicoes-build/markdown/`, beside the build states (`BuildState.shared`)
FORMAT = 1  # of an entry's bytes
MAX_ENTRIES = 40_000  # 16,000 pages and two earlier versions of each, about 8 KiB apiece
PRUNED_TO = 30_000  # what a pruned store keeps, so that pruning is not redone every build
_DIGEST = 64  # hex characters of the checksum that starts an entry


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


@dataclass(frozen=True)
class EntryStore:
    """Checksummed byte entries in `folder`, one file per key, sharded by the key's first two
    characters: what every cross-build cache of the builder keeps (converted bodies, drawn images)."""

    folder: Path

    def _path(self, key: str) -> str:
        return f"{self.folder}/{key[:2]}/{key[2:]}"

    def get_bytes(self, key: str) -> bytes | None:
        """The payload of entry `key`, or None when absent, unreadable or corrupt."""
        try:
            with open(self._path(key), "rb") as handle:  # noqa: PTH123 - once per page
                data = handle.read()
        except OSError:
            return None
        payload = data[_DIGEST + 1 :]
        if (
            data[:_DIGEST] != hashlib.sha256(payload).hexdigest().encode()
            or data[_DIGEST : _DIGEST + 1] != b"\n"
        ):
            return None
        return payload

    def has(self, key: str) -> bool:
        """Whether entry `key` exists (it may still be corrupt: `get_bytes` says)."""
        return os.path.exists(self._path(key))  # noqa: PTH110

    def put_bytes(self, key: str, payload: bytes) -> None:
        """Store an entry (atomically: a reader sees the whole entry or none)."""
        data = hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
        path = self._path(key)
        temp = f"{path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)  # noqa: PTH103, PTH120
            with open(temp, "wb") as handle:  # noqa: PTH123
                handle.write(data)
            os.replace(temp, path)  # noqa: PTH105
        except OSError:
            # A cache that cannot be written only means doing the work again next time.
            with contextlib.suppress(OSError):
                os.unlink(temp)  # noqa: PTH108

    def prune(self, limit: int = MAX_ENTRIES, keep: int = PRUNED_TO) -> int:
        """Drop the oldest entries when there are more than `limit`, down to `keep`; how many went."""
        try:
            shards = [e.path for e in os.scandir(self.folder) if e.is_dir(follow_symlinks=False)]
        except OSError:
            return 0
        # Keys are checksums, spread evenly over the shards: a few shards' mean count times the
        # number of shards estimates the store's size, so a store far below `limit` (a quarter:
        # no sample is that far below the mean once a store nears the limit) is not listed whole
        # (listing 256 folders took 0.1 s of a one-page rebuild).
        with contextlib.suppress(OSError):
            sample = [len(os.listdir(shard)) for shard in shards[:4]]  # noqa: PTH208
            if sample and 4 * sum(sample) * len(shards) < limit * len(sample):
                return 0
        names: list[str] = []
        for shard in shards:
            with contextlib.suppress(OSError):
                names += [f"{shard}/{n}" for n in os.listdir(shard)]  # noqa: PTH208
        if len(names) <= limit:
            return 0
        dated: list[tuple[int, str]] = []
        for name in names:
            with contextlib.suppress(OSError):
                dated.append((os.stat(name).st_mtime_ns, name))  # noqa: PTH116
        dated.sort()
        removed = 0
        for _mtime, name in dated[: max(0, len(dated) - keep)]:
            with contextlib.suppress(OSError):
                os.unlink(name)  # noqa: PTH108
                removed += 1
        return removed


@dataclass(frozen=True)
class MarkdownCache(EntryStore):
    """The converted bodies stored in `folder`, keyed by `cache_version()`."""

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
