"""A rebuild with nothing to do, found out without reading the content: every input as it was.

A rebuild in which no input changed renders nothing, but the full pass finds that out by going
over every check (its state, its pages planned, their keys): 0.8 s at 10,000 checks. So a build
that committed and refused nothing leaves a record of what it was made from: the identity (type,
size, mtime, ctime and inode) of every file and folder under the folders a build reads, taken
*before* it read any of them, with the builder's code, the versions of what renders and the build
options; and the size of every output it left. A later build into the same folder that finds all
of it unchanged returns that build's report without reading anything else: the full pass would
have rendered nothing either (each output's key is made of these inputs, and its size is checked
the same way).

Why a record never hides a change:
- ctime cannot be set by a user and changes on every write, rename or chmod: a file changed
  after the walk never shows the same identity again, even if a tool kept its size and mtime
  (`cp -p`, `rsync -t`); a folder's stamps change when an entry is added, removed or renamed.
- The walk comes before any input is read: a change during the build makes the next one full.
- A file changed within `RACY_NS` of the walk could keep its stamps through a second change in
  the same clock tick: such a walk is neither recorded nor compared with the record (the build is
  a full one; a later one records). The walk stops at that entry: on a live night, at the capture
  just written (`data/` is walked first), not after the whole tree.
- A symlink under these folders is never recorded (its target can change unseen), nor an entry
  that vanished while walked.
- A build that refused a file is not recorded: its output depends on the refused file's last
  accepted version, and a date refused as in the future becomes valid as time passes.
- Every full build forgets the record before its commit, so a record always describes the
  outputs the last commit left (a build killed after its commit leaves none).
- The accepted copies (`last_good`), which the full pass would put back if deleted, are walked
  after the build wrote them and must be unchanged too.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from site_builder import last_good
from site_builder.state import RACY_NS as RACY_NS  # the same window as the state's stat cache
from site_builder.writer import output_size, write_atomic

# Everything a build reads under the project root, besides its caches in `.cache/` (the test
# `test_a_build_reads_nothing_outside_the_walked_folders` watches a build's reads to hold it so).
FOLDERS = ("data", "content", "templates")  # the live data first: a walk stops at the first new file
RECORD = "inalterado.pickle"  # in the build state's folder: dropped with it (recovery, a cleared cache)
_FORMAT = 1


@dataclass(frozen=True)
class Record:
    """What the last clean build was made from and what it left."""

    key: str  # the inputs' digest with the builder's code, versions and options
    copies: str  # digest of the accepted copies after the build wrote them
    outputs: tuple[tuple[str, int], ...]  # every output and its size
    avisos: tuple[str, ...]  # the build's warnings, repeated by the builds it stands for


def _newest(st: os.stat_result) -> int:
    return max(st.st_mtime_ns, st.st_ctime_ns)


def _line(path: str, st: os.stat_result) -> str:
    return f"{path}\0{st.st_mode}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}"


def _walk(root: str, folder: str, lines: list[str], since: int | None = None) -> bool:
    """Append a line per entry under `root/folder` (its path and identity); False, at once, on
    the first reason not to trust the walk: a symlink, an entry gone or unreadable while walked,
    or (with `since`) a stamp from `since` on."""
    pending = [folder]
    while pending:
        rel = pending.pop()
        try:
            with os.scandir(f"{root}/{rel}") as it:
                entries = [(f"{rel}/{e.name}", e) for e in it]
        except OSError:
            return False
        for path, entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                return False
            if stat.S_ISLNK(st.st_mode) or (since is not None and _newest(st) >= since):
                return False
            lines.append(_line(path, st))
            if stat.S_ISDIR(st.st_mode):
                pending.append(path)
    return True


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()


def inputs(root: Path) -> str | None:
    """A digest of the identity of everything a build reads under `root` (taken before it reads
    any; a missing folder's absence counts), or None when it cannot be trusted (see the module's
    docstring): that build is a full one and leaves no record, and the walk stops at the first
    such entry (on a live night, the capture just written)."""
    since = time.time_ns() - RACY_NS
    lines: list[str] = []
    for folder in FOLDERS:
        try:
            st = os.stat(f"{root}/{folder}", follow_symlinks=False)  # noqa: PTH116 - plain strings
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode) or _newest(st) >= since:
            return None
        lines.append(_line(folder, st))
        if not _walk(str(root), folder, lines, since):
            return None
    return _digest(lines)


def _copies(root: Path) -> str:
    lines: list[str] = []
    _walk(str(root), last_good.FOLDER, lines)
    return _digest(lines)


def unchanged(folder: Path, key: str, root: Path, out: Path) -> Record | None:
    """The record in the build state `folder` when it was made from `key` and the accepted
    copies and every output it lists are as it left them; None otherwise (a full build)."""
    try:
        stored = pickle.loads((folder / RECORD).read_bytes())  # noqa: S301 - written by this builder, in .cache
    except Exception:  # absent or damaged: only means a full build
        return None
    if not (isinstance(stored, tuple) and len(stored) == 2 and stored[0] == _FORMAT):
        return None
    record = stored[1]
    if not isinstance(record, Record) or record.key != key or record.copies != _copies(root):
        return None
    if any(output_size(out, path) != size for path, size in record.outputs):
        return None
    return record


def forget(folder: Path) -> None:
    """Drop the record (before a full build commits: it no longer describes the output)."""
    (folder / RECORD).unlink(missing_ok=True)


def remember(folder: Path, key: str, root: Path, outputs: dict[str, int], avisos: list[str]) -> None:
    """Record a clean build made from `key` (a trusted walk's) that left `outputs` (path -> size)."""
    record = Record(key, _copies(root), tuple(outputs.items()), tuple(avisos))
    write_atomic(folder / RECORD, pickle.dumps((_FORMAT, record), protocol=pickle.HIGHEST_PROTOCOL))
