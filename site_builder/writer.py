"""Transactional output writer: stage every changed file beside its target, then rename all.

- A path can be written once per build (two pages slugging alike fail loudly).
- A file whose bytes did not change is not touched (its mtime stays, a publish skips it).
- Nothing replaces a file in the output folder until `commit`; `abort` (or a crash before
  commit) leaves the previous output exactly as it was.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.errors import DuplicatePathError

STAGING_DIR = ".eleicoes-staging"  # inside the output folder: same file system, so renames are atomic


@dataclass(frozen=True)
class KnownFile:
    """What the previous build recorded of an output file, to skip re-reading it."""

    sha256: str
    size: int


@dataclass
class StagedWriter:
    """Writes a build's output into `root` all at once, or not at all."""

    root: Path
    known: dict[str, KnownFile] = field(default_factory=dict)
    claimed: set[str] = field(default_factory=set)
    staged: dict[str, Path] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)

    def claim(self, rel: str) -> None:
        """Reserve an output path; a second claim of the same path is an error."""
        if rel in self.claimed:
            raise DuplicatePathError(f"dois artefatos querem escrever o mesmo arquivo: {rel}")
        self.claimed.add(rel)

    def _unchanged(self, target: Path, rel: str, digest: str, size: int) -> bool:
        try:
            actual_size = target.stat().st_size
        except FileNotFoundError:
            return False
        if actual_size != size:
            return False
        known = self.known.get(rel)
        if known is not None and known.size == size:
            return known.sha256 == digest
        return hashlib.sha256(target.read_bytes()).hexdigest() == digest

    def stage(self, rel: str, data: bytes) -> str:
        """Stage `data` for a claimed `rel` unless the file already holds these bytes; return its SHA-256."""
        digest = hashlib.sha256(data).hexdigest()
        target = self.root / rel
        if self._unchanged(target, rel, digest, len(data)):
            return digest
        staging = self.root / STAGING_DIR
        staging.mkdir(parents=True, exist_ok=True)
        temp = staging / f"{len(self.staged):06d}"
        temp.write_bytes(data)
        self.staged[rel] = temp
        return digest

    def commit(self, delete: list[str] | None = None) -> None:
        """Move every staged file into place, then remove the outputs listed in `delete`."""
        for rel, temp in sorted(self.staged.items()):
            target = self.root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            temp.replace(target)
            self.written.append(rel)
        self.staged.clear()
        remove_staging(self.root)
        for rel in delete or []:
            (self.root / rel).unlink(missing_ok=True)

    def abort(self) -> None:
        """Remove every staged file; the output folder is as before the build."""
        self.staged.clear()
        remove_staging(self.root)


def remove_staging(root: Path) -> None:
    """Delete the staging folder, with whatever a killed build left in it."""
    shutil.rmtree(root / STAGING_DIR, ignore_errors=True)


def write_atomic(path: Path, data: bytes) -> None:
    """Write one file atomically (temp file in the same folder + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        temp.write_bytes(data)
        temp.replace(path)
    finally:
        temp.unlink(missing_ok=True)
