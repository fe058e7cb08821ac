"""The builder's cross-build caches on disk: checksummed entries appended to pack files.

Every cache that outlives the output folder (converted bodies, checks as read, rendered pages,
drawn images) is an `EntryStore`: a folder of packs, each written by one process only, by
appending. A pack is two files: `<name>.pack`, the payloads one after another, and
`<name>.idx`, one fixed-size record per entry (its key, where its payload lies, the payload's
SHA-256). A cold build used to write one file per entry (about four per page, most of them
created and renamed into a freshly emptied tree), and on an ext4 disk that file creation cost
more system time than the Markdown conversions (docs/PERFORMANCE.md, "Site build"); appending
costs one write per entry.

Why it is safe without renames or locks:
- a payload is written before the index record that points at it, each with one `write`, so a
  process killed between the two leaves a payload no index names (unused) or, at worst, a torn
  last index record (shorter than a record: ignored);
- a payload is read back only if its SHA-256 is the one its index record holds: damaged bytes
  count as a missing entry, and the caller does the work again and stores it anew;
- the newest record of a key wins (packs are named by creation time, records in write order);
- pruning writes the kept entries into a new pack and only then deletes the old ones; another
  process that still reads or appends to a deleted pack loses entries of a cache, never data.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import struct
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

MAX_ENTRIES = 40_000  # 16,000 pages and two earlier versions of each
PRUNED_TO = 30_000  # what a pruned store keeps, so that pruning is not redone every build
# Packs a store may hold before `prune` merges them into one even under MAX_ENTRIES: each
# process that writes opens a pack of its own (the build and each of its workers), and every
# first look-up of a build opens all of them.
MAX_PACKS = 48

PACK, INDEX = ".pack", ".idx"
# An index record: key (SHA-256, raw), payload offset and length in the pack, payload's SHA-256.
_RECORD = struct.Struct("<32sQI32s")


@dataclass(frozen=True, slots=True)
class _Location:
    pack: str  # path of the `.pack` file
    offset: int
    length: int
    digest: bytes


class _Writer:
    """This process's open pack in one store's folder (appends only)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{folder}/{time.time_ns():020d}-{os.getpid()}"
        self.pack_path = name + PACK
        # Unbuffered: every record reaches the file in one write, readable at once by any process.
        self._pack = open(self.pack_path, "ab", buffering=0)  # noqa: PTH123, SIM115 - lives with the process
        self._index = open(name + INDEX, "ab", buffering=0)  # noqa: PTH123, SIM115

    def append(self, key: bytes, payload: bytes, digest: bytes) -> _Location:
        """Write one entry, its payload first; where it went."""
        self._pack.write(payload)
        # Where the payload landed, from the file itself: appends always go to the end, even of a
        # pack someone cut short since (a test's damage, a disk tool).
        offset = self._pack.tell() - len(payload)
        self._index.write(_RECORD.pack(key, offset, len(payload), digest))
        return _Location(self.pack_path, offset, len(payload), digest)

    def linked(self) -> bool:
        """Whether both files still have a name: appending to a deleted pack would store nothing."""
        return os.fstat(self._pack.fileno()).st_nlink > 0 and os.fstat(self._index.fileno()).st_nlink > 0

    def close(self) -> None:
        self._pack.close()
        self._index.close()


# This process's writer for each store folder. Module state on purpose: a store object is made
# per use (each worker task makes its own), and one pack per process and folder keeps the number
# of packs down to one per process per build. Keyed by pid too: a forked worker inherits the
# dict, and must open packs of its own.
_WRITERS: dict[tuple[str, int], _Writer] = {}


def _writer(folder: Path) -> _Writer:
    key = (str(folder), os.getpid())
    writer = _WRITERS.get(key)
    if writer is not None and not writer.linked():  # the folder was wiped (or pruned by another build)
        writer.close()
        writer = None
    if writer is None:
        writer = _WRITERS[key] = _Writer(folder)
    return writer


def _forget_writer(folder: Path) -> None:
    """Close this process's pack of `folder` (pruning is about to delete it)."""
    writer = _WRITERS.pop((str(folder), os.getpid()), None)
    if writer is not None:
        writer.close()


# The index records of each pack this process has parsed, by index path: the index bytes parsed and
# their records in file order. Module state on purpose, like `_WRITERS`: a store object is made per
# worker task and reads every index on its first look-up, so parsing every record each time grew
# with the square of a cold build's pages (at 10,000 pages, 157 tasks per phase each parsing up to
# 10,000 records). The index is still read whole, but only the records appended since are parsed;
# an index whose earlier bytes changed (cut, rewritten, replaced) is parsed anew.
_PARSED: dict[str, tuple[bytes, list[tuple[bytes, _Location]]]] = {}


# The last index merged from each store folder's packs, with the record lists it was merged from:
# a store made again while no pack changed (every task of a build's render phase) takes it as it
# is instead of merging 10,000 records again. Shared read-only: a store never changes its index.
_MERGED: dict[str, tuple[list[tuple[str, list[tuple[bytes, _Location]]]], dict[bytes, _Location]]] = {}


def _index_records(base: str) -> list[tuple[bytes, _Location]]:
    """Every whole record of the pack `base`'s index, in file order (OSError if unreadable)."""
    path = base + INDEX
    with open(path, "rb") as handle:  # noqa: PTH123
        data = handle.read()
    whole = len(data) - len(data) % _RECORD.size  # a torn last record is left out, read when whole
    known = _PARSED.get(path)
    # What was parsed still holds if the index is those bytes plus records after them.
    parsed, records = known if known is not None and data.startswith(known[0]) else (b"", [])
    if known is None or parsed is not known[0] or whole > len(parsed):
        pack = base + PACK
        records = records + [
            (key, _Location(pack, offset, length, digest))
            for key, offset, length, digest in _RECORD.iter_unpack(data[len(parsed) : whole])
        ]
        _PARSED[path] = (data[:whole], records)
    return records


def _same_parts(
    earlier: list[tuple[str, list[tuple[bytes, _Location]]]],
    now: list[tuple[str, list[tuple[bytes, _Location]]]],
) -> bool:
    """Whether `now` is the very packs and record lists `earlier` was merged from (`_index_records`
    makes a new list whenever a pack's records change)."""
    return len(earlier) == len(now) and all(
        base == other and records is others
        for (base, records), (other, others) in zip(earlier, now, strict=True)
    )


def _key_bytes(key: str) -> bytes:
    try:
        raw = bytes.fromhex(key)
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise ValueError(f"chave de cache inválida (esperado SHA-256 em hexadecimal): {key!r}")
    return raw


def _records_in(packs: list[str]) -> int:
    """How many records the indexes of `packs` hold, by their sizes (a torn record counts as
    one): a store is pruned at every build that adds entries, and reading every index of a
    store of 30,000 entries to count them costs more than the rest of a small rebuild's pruning."""
    try:
        return sum(-(-os.stat(base + INDEX).st_size // _RECORD.size) for base in packs)  # noqa: PTH116
    except OSError:
        return sys.maxsize  # counted the long way


class EntryStore:
    """Checksummed byte entries in `folder`, keyed by SHA-256 hex strings (see the module's
    docstring): what every cross-build cache of the builder keeps. The index is read on the
    first look-up and holds what the packs held then (`put_bytes`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._index: dict[bytes, _Location] | None = None  # read on first use, oldest entry first
        self._readers: dict[str, BinaryIO] = {}  # packs opened for reading, closed with this object

    def _listing(self) -> tuple[list[str], list[str]]:
        """The packs' paths without suffix, oldest first, and the folders of the earlier
        one-file-per-entry layout (`prune` removes them)."""
        try:
            found = list(os.scandir(self.folder))
        except OSError:
            return [], []
        packs = sorted(f"{self.folder}/{e.name[: -len(INDEX)]}" for e in found if e.name.endswith(INDEX))
        return packs, [e.path for e in found if e.is_dir(follow_symlinks=False)]

    def _entries(self) -> dict[bytes, _Location]:
        if self._index is None:
            bases = self._listing()[0]
            parts = []
            for base in bases:
                try:
                    parts.append((base, _index_records(base)))
                except OSError:
                    continue
            # Packs another process pruned away are parsed no more: forget them (a long-lived
            # process that builds every few minutes would otherwise keep them all).
            here, listed = f"{self.folder}/", {base + INDEX for base in bases}
            for gone in [path for path in _PARSED if path.startswith(here) and path not in listed]:
                del _PARSED[gone]
            merged = _MERGED.get(str(self.folder))
            if merged is not None and _same_parts(merged[0], parts):
                self._index = merged[1]
                return self._index
            index: dict[bytes, _Location] = {}
            for _base, records in parts:
                for key, location in records:
                    index.pop(key, None)  # the newest record of a key counts, as the newest
                    index[key] = location
            _MERGED[str(self.folder)] = (parts, index)
            self._index = index
        return self._index

    def entry_keys(self) -> list[str]:
        """Every key the index holds, oldest first (an entry may still be damaged)."""
        return [key.hex() for key in self._entries()]

    def location(self, key: str) -> tuple[Path, int, int] | None:
        """Where entry `key`'s payload lies: (pack file, offset, length); None when absent."""
        found = self._entries().get(_key_bytes(key))
        return None if found is None else (Path(found.pack), found.offset, found.length)

    def has(self, key: str) -> bool:
        """Whether entry `key` is indexed (it may still be damaged: `get_bytes` says)."""
        return _key_bytes(key) in self._entries()

    def get_bytes(self, key: str) -> bytes | None:
        """The payload of entry `key`, or None when absent, unreadable or damaged."""
        checked = self.get_checked(key)
        return None if checked is None else checked[0]

    def get_checked(self, key: str) -> tuple[bytes, str] | None:
        """`get_bytes` with the payload's SHA-256 (hex) it was checked against: a caller that
        needs the checksum of what it read (a build staging a cached page) does not hash it again."""
        found = self._entries().get(_key_bytes(key))
        if found is None:
            return None
        try:
            handle = self._readers.get(found.pack)
            if handle is None:  # one open per pack, not per entry: a warm build reads thousands
                handle = self._readers[found.pack] = open(found.pack, "rb")  # noqa: PTH123, SIM115
            payload = os.pread(handle.fileno(), found.length, found.offset)
        except OSError:
            return None
        if len(payload) != found.length or hashlib.sha256(payload).digest() != found.digest:
            return None
        return payload, found.digest.hex()

    def put_bytes(self, key: str, payload: bytes, sha256: str | None = None) -> None:
        """Store an entry; a reader sees the whole entry or none (see the module's docstring).
        Objects made from here on find it; this one's index stays as it was read: a build
        looks each entry up before storing it, never after, and a cold build of 16,000 pages
        would otherwise hold an index record for each of its ~64,000 new entries. `sha256`: the
        payload's SHA-256 (hex) when the caller has it (the build has hashed the page it stages)."""
        raw = _key_bytes(key)
        digest = bytes.fromhex(sha256) if sha256 is not None else hashlib.sha256(payload).digest()
        try:
            _writer(self.folder).append(raw, payload, digest)
        except OSError:
            _forget_writer(self.folder)  # a cache that cannot be written only means work again

    def prune(self, limit: int = MAX_ENTRIES, keep: int = PRUNED_TO, max_packs: int = MAX_PACKS) -> int:
        """With more than `limit` entries, keep the `keep` newest; with more than `max_packs`
        packs, merge them into one. Returns how many entries went."""
        packs, old_layout = self._listing()
        for folder in old_layout:
            shutil.rmtree(folder, ignore_errors=True)
        if len(packs) <= max_packs and _records_in(packs) <= limit:
            return 0  # each entry has a record in an index: no more records, no more entries
        self._index = None  # every entry stored until now counts, this object's own included
        entries = self._entries()
        if len(entries) <= limit and len(packs) <= max_packs:
            return 0
        kept = list(entries.items())[-keep:] if len(entries) > limit else list(entries.items())
        _forget_writer(self.folder)
        for reader in self._readers.values():
            reader.close()
        self._readers.clear()
        merged = _Writer(self.folder)
        fresh: dict[bytes, _Location] = {}
        try:
            for key, found in kept:
                payload = self.get_bytes(key.hex())
                if payload is not None:  # a damaged entry is not carried over
                    fresh[key] = merged.append(key, payload, found.digest)
        finally:
            merged.close()
        for base in packs:
            for suffix in (INDEX, PACK):
                with contextlib.suppress(OSError):
                    os.unlink(base + suffix)  # noqa: PTH108
        self._index = fresh
        return len(entries) - len(fresh)
