"""What the previous build saw and made, so a rebuild redoes only what changed (Lektor's idea).

Kept outside the output folder (`.cache/eleicoes-build/`, never published or tracked); a missing
or unreadable state only means a full rebuild.

Outputs: per output file, the checksum of everything it was made from, the checksum and size
of its bytes, and its internal links (for the link check of pages that are not re-rendered).

Sources: per content file, its checksum and what parsing it gave. A file counts as unchanged
when its checksum is the one recorded. To avoid hashing 10,000 files
on every build, a file whose size and mtime are exactly those recorded reuses the recorded
checksum (git's stat cache does the same); any other file is hashed. A fresh clone gives every
file a new mtime, so everything is hashed once, and only files whose checksum changed are parsed.
Files modified within RACY_NS of the moment the cache was written are always hashed, because a
write in the same clock tick could leave size and mtime unchanged.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from site_builder.writer import write_atomic

RACY_NS = 2_000_000_000


class CachedSource(NamedTuple):  # a tuple: pickles twice as fast as a dataclass over 10,000 files
    """One source file as last seen: identity, checksum and what parsing it gave."""

    size: int
    mtime_ns: int
    sha256: str
    parsed: Any


class OutputRecord(NamedTuple):
    """One output file as the last build left it."""

    entradas: str  # checksum of everything the output was made from
    sha256: str
    tamanho: int
    links: tuple[str, ...]


SHARDS = 16  # the state is split so that one changed page rewrites 1/16 of it


def _shard(rel: str) -> int:
    return zlib.crc32(rel.encode("utf-8")) % SHARDS


@dataclass
class _Shard:
    key: str
    written_ns: int = 0
    entries: dict[str, CachedSource] = field(default_factory=dict)
    outputs: dict[str, OutputRecord] = field(default_factory=dict)


@dataclass
class BuildState:
    """The incremental state of builds into one output folder, stored in a folder of shards."""

    folder: Path
    key: str  # builder code checksum: new code invalidates everything
    shards: list[_Shard] = field(default_factory=list)
    dirty: set[int] = field(default_factory=set)

    @classmethod
    def load(cls, folder: Path, key: str) -> BuildState:
        """The state stored in `folder`; shards absent, unreadable or stale start empty."""
        state = cls(folder, key)
        for index in range(SHARDS):
            shard = _Shard(key)
            try:
                with (folder / f"{index:02d}.pickle").open("rb") as handle:
                    stored = pickle.load(handle)  # noqa: S301 - written by this builder, in the project's .cache
                if isinstance(stored, _Shard) and stored.key == key:
                    shard = stored
            except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
                pass
            state.shards.append(shard)
        return state

    def shared(self, name: str) -> Path:
        """A folder beside this state, shared by every output folder's build of the project
        (`.cache/eleicoes-build/<name>`): caches whose entries hold whatever the output is."""
        return self.folder.parent / name

    @property
    def outputs(self) -> dict[str, OutputRecord]:
        """Every output the previous build recorded."""
        return {rel: record for shard in self.shards for rel, record in shard.outputs.items()}

    def read(self, path: str, rel: str) -> tuple[str, bytes | None, CachedSource | None]:
        """(checksum, bytes if they had to be read, cache entry if still valid) for a source file."""
        stat = os.stat(path)  # noqa: PTH116 - hot loop over every source file
        index = _shard(rel)
        shard = self.shards[index]
        entry = shard.entries.get(rel)
        if (
            entry is not None
            and entry.size == stat.st_size
            and entry.mtime_ns == stat.st_mtime_ns
            and shard.written_ns - stat.st_mtime_ns > RACY_NS
        ):
            return entry.sha256, None, entry
        with open(path, "rb") as handle:  # noqa: PTH123
            data = handle.read()
        digest = hashlib.sha256(data).hexdigest()
        if entry is not None and entry.sha256 == digest:
            shard.entries[rel] = CachedSource(stat.st_size, stat.st_mtime_ns, digest, entry.parsed)
            self.dirty.add(index)
            return digest, data, shard.entries[rel]
        return digest, data, None

    def store(self, path: str, rel: str, digest: str, parsed: Any) -> None:
        """Remember what parsing `rel` gave."""
        stat = os.stat(path)  # noqa: PTH116
        index = _shard(rel)
        self.shards[index].entries[rel] = CachedSource(stat.st_size, stat.st_mtime_ns, digest, parsed)
        self.dirty.add(index)

    def save(self, seen: set[str], outputs: dict[str, OutputRecord]) -> None:
        """Record this build's outputs and the sources it saw; rewrite only the shards that changed."""
        new_outputs: list[dict[str, OutputRecord]] = [{} for _ in range(SHARDS)]
        for rel, record in outputs.items():
            new_outputs[_shard(rel)][rel] = record
        for index, shard in enumerate(self.shards):
            stale = [rel for rel in shard.entries if rel not in seen]
            for rel in stale:
                del shard.entries[rel]
            if stale or new_outputs[index] != shard.outputs:
                self.dirty.add(index)
            shard.outputs = new_outputs[index]
        now = time.time_ns()
        for index in sorted(self.dirty):
            self.shards[index].written_ns = now
            data = pickle.dumps(self.shards[index], protocol=pickle.HIGHEST_PROTOCOL)
            write_atomic(self.folder / f"{index:02d}.pickle", data)
        self.dirty.clear()
