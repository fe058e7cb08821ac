"""The publish manifest: what this project last stored under each key of a target, headers included.

A bucket listing gives size and ETag but not the headers, so a changed Cache-Control would go
unnoticed without it. It also remembers since when a hashed asset is stale (grace period), CDN
paths a failed invalidation left, a stat cache of the local files (size, mtime, inode -> MD5),
so an unchanged build is not reread, and the assets each page references (by the page's MD5), so
checking that every referenced asset is in the build reads only the pages that changed.
Only keys recorded in `objects` are ever deleted from the target: it is the list of what this
project wrote there. Kept outside `public/` (never published), written atomically.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

VERSION = 2

StatEntry = tuple[int, int, int, str]  # size, mtime_ns, inode, md5


@dataclass(frozen=True)
class StoredObject:
    """One object as this project stored it."""

    md5: str
    size: int
    etag: str  # what the target reported for it (an S3 ETag, or size-mtime for a folder)
    content_type: str
    cache_control: str


@dataclass
class Manifest:
    """Everything remembered about one target."""

    target: str
    objects: dict[str, StoredObject] = field(default_factory=dict)
    stale_since: dict[str, float] = field(default_factory=dict)  # stale hashed asset -> epoch seconds
    local: dict[str, StatEntry] = field(default_factory=dict)  # build file -> stat + md5
    cdn_pending: list[str] = field(default_factory=list)
    listed_at: float | None = None  # when the target was last listed in full (epoch seconds)
    references: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)  # page -> md5, assets

    def to_json(self) -> bytes:
        """Stable JSON bytes."""
        data: dict[str, Any] = {
            "version": VERSION,
            "target": self.target,
            "objects": {
                k: [o.md5, o.size, o.etag, o.content_type, o.cache_control]
                for k, o in sorted(self.objects.items())
            },
            "stale_since": dict(sorted(self.stale_since.items())),
            "local": {k: list(v) for k, v in sorted(self.local.items())},
            "cdn_pending": sorted(self.cdn_pending),
            "listed_at": self.listed_at,
            "referencias": {k: [md5, list(links)] for k, (md5, links) in sorted(self.references.items())},
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def manifest_path(state_dir: Path, target: str) -> Path:
    """The manifest file of one target (one file per target identity)."""
    name = hashlib.sha256(target.encode("utf-8")).hexdigest()[:16]
    return state_dir / f"{name}.json"


def load(path: Path, target: str) -> Manifest:
    """Read a manifest; a missing, unreadable or foreign one gives an empty manifest (safe: the
    publish then compares against the listing and re-uploads whatever it cannot vouch for)."""
    try:
        data = json.loads(path.read_bytes())
        if data.get("version") != VERSION or data.get("target") != target:
            return Manifest(target)
        return Manifest(
            target,
            {
                k: StoredObject(str(v[0]), int(v[1]), str(v[2]), str(v[3]), str(v[4]))
                for k, v in data["objects"].items()
            },
            {k: float(v) for k, v in data["stale_since"].items()},
            {k: (int(v[0]), int(v[1]), int(v[2]), str(v[3])) for k, v in data["local"].items()},
            [str(p) for p in data["cdn_pending"]],
            None if data["listed_at"] is None else float(data["listed_at"]),
            {  # absent from manifests written before it existed: then every page is read once
                k: (str(v[0]), tuple(str(link) for link in v[1]))
                for k, v in data.get("referencias", {}).items()
            },
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return Manifest(target)


def save(path: Path, manifest: Manifest) -> None:
    """Write the manifest atomically (temp file + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        temp.write_bytes(manifest.to_json())
        temp.replace(path)
    finally:
        temp.unlink(missing_ok=True)
