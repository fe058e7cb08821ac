"""The last accepted version of the content files a site cannot do without (issue 22).

A section intro, a methodology page, a candidate file, the editors' registry and `site.toml` are
read by many pages: when an editor breaks one of them during the night, the default build (the
scheduler's) must not stop rebuilding the live projection and debate pages. So every build that
commits keeps a copy of each such file it accepted, in `.cache/eleicoes-aceitas/` (never published
nor tracked; apart from the incremental state, which a killed build's recovery drops), and the
next default build that finds the file broken reads that copy instead, says so, and goes on.
`--strict` never reads a copy. A file without an accepted copy (new, or `.cache/` was cleared)
is left out, and what depends on it is refused the usual way (a check naming an unknown
candidate or editor).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from site_builder.writer import write_atomic

FOLDER = ".cache/eleicoes-aceitas"  # relative to the project root: mirrors its `content/`
SITE_CONFIG = "content/site.toml"
SINGLE_FILES = (SITE_CONFIG, "content/editores.toml")
REQUIRED = ("content/secoes/", SITE_CONFIG)  # a missing one is refused, not deleted
FOLDERS = (("content/secoes/", ".md"), ("content/metodologia/", ".md"), ("content/candidatos/", ".toml"))


def kept(rel: str) -> bool:
    """True for the content files whose last accepted version is kept (`rel` relative to the root)."""
    if rel in SINGLE_FILES:
        return True
    return any(
        rel.startswith(folder) and rel.endswith(suffix) and "/" not in rel[len(folder) :]
        for folder, suffix in FOLDERS
    )


def copies_root(root: Path) -> Path:
    """The folder that mirrors the project's `content/` with the accepted copies."""
    return root / FOLDER


def copy_of(root: Path, rel: str) -> Path | None:
    """The accepted copy of `rel`, or None when there is none."""
    path = copies_root(root) / rel
    return path if kept(rel) and path.is_file() and not path.is_symlink() else None


def save(root: Path, accepted: dict[str, str]) -> None:
    """Keep a copy of each accepted file (`rel` -> the SHA-256 the build accepted), once it is
    committed; a file changed since it was read is not copied. Copies whose file is gone from the
    project are removed (a deleted page must not come back), except those of files the site
    requires (a missing one is an error, like a broken one); a refused file keeps its copy."""
    base = copies_root(root)
    for rel, sha256 in sorted(accepted.items()):
        if not kept(rel):
            continue
        try:
            data = (root / rel).read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() != sha256:
            continue
        target = base / rel
        try:
            if target.read_bytes() == data:
                continue
        except OSError:
            pass
        write_atomic(target, data)
    for folder, dirs, files in os.walk(base):
        dirs.sort()
        for name in files:
            copy = Path(folder) / name
            rel = copy.relative_to(base).as_posix()
            if not rel.startswith(REQUIRED) and not (root / rel).is_file():
                copy.unlink(missing_ok=True)
