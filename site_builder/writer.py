"""Transactional output writer: stage every changed file beside its target, then rename all.

- A path can be written once per build (two pages slugging alike fail loudly).
- A file whose bytes did not change is not touched (its mtime stays, a publish skips it).
- Nothing replaces a file in the output folder until `commit`; `abort` (or a crash before
  commit) leaves the previous output exactly as it was.
- The commit is recoverable. Before the first rename a journal (`commit.json` in the staging
  folder) lists every rename, in order, and every deletion; the staging folder goes only after
  the build recorded its state. A staging folder left by a killed build is therefore either
  without a journal (nothing was renamed yet: `recover` rolls back) or with one (`recover` redoes
  the remaining renames and deletions, which are idempotent, and drops the incremental state the
  killed build could not save).
- Renames go in tiers (`site_builder.tiers`, the publisher's order too): assets, then data, then
  pages, then indexes (sitemap, feeds), so a page is never in place before what it links;
  within a tier, new files before changed ones (a changed listing links to a new check page,
  never the other way round); deletions go last.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.errors import BuildError, DuplicatePathError
from site_builder.tiers import tier_of

STAGING_DIR = ".eleicoes-staging"  # inside the output folder: same file system, so renames are atomic
JOURNAL = "commit.json"
JOURNAL_VERSION = 1
STATE_PARENT = "eleicoes-build"  # `.cache/eleicoes-build/<hash>`: see `site_builder.build.state_path`


class JournalError(BuildError):
    """A staging folder whose journal cannot be read: the commit can be neither finished nor undone."""


@dataclass(frozen=True)
class KnownFile:
    """What the previous build recorded of an output file, to skip re-reading it."""

    sha256: str
    size: int


@dataclass(frozen=True)
class Journal:
    """A decided commit: staged file -> output path, in order, then the outputs to delete."""

    moves: list[tuple[str, str]]
    deletions: list[str]
    state: str  # the build's incremental state folder, stale once the commit was interrupted

    def to_json(self) -> bytes:
        """Stable JSON bytes."""
        data = {
            "versao": JOURNAL_VERSION,
            "mover": [list(m) for m in self.moves],
            "remover": self.deletions,
            "estado": self.state,
        }
        return json.dumps(data, ensure_ascii=False, indent=0).encode("utf-8")


def commit_order(rel: str, new: bool = False) -> tuple[int, int, str]:
    """Sort key of a rename: the publish tier first (assets before pages), then new files before
    changed ones (what a changed page may newly link to), then the path."""
    return (int(tier_of(rel)), 0 if new else 1, rel)


@dataclass
class StagedWriter:
    """Writes a build's output into `root` all at once, or not at all."""

    root: Path
    known: dict[str, KnownFile] = field(default_factory=dict)
    claimed: set[str] = field(default_factory=set)
    staged: dict[str, str] = field(default_factory=dict)  # output path -> its file in the staging folder
    written: list[str] = field(default_factory=list)
    new: set[str] = field(default_factory=set)  # staged paths the output folder does not hold yet
    _staging: Path | None = None  # the staging folder, once made (not once per staged file)

    def claim(self, rel: str) -> None:
        """Reserve an output path; a second claim of the same path is an error."""
        if rel in self.claimed:
            raise DuplicatePathError(f"dois artefatos querem escrever o mesmo arquivo: {rel}")
        self.claimed.add(rel)

    def _unchanged(self, target: str, rel: str, digest: str, size: int) -> bool:
        try:
            actual_size = os.stat(target).st_size  # noqa: PTH116 - once per output: strings, not pathlib
        except FileNotFoundError:
            self.new.add(rel)
            return False
        if actual_size != size:
            return False
        known = self.known.get(rel)
        if known is not None and known.size == size:
            return known.sha256 == digest
        with open(target, "rb") as handle:  # noqa: PTH123
            return hashlib.sha256(handle.read()).hexdigest() == digest

    def stage(self, rel: str, data: bytes, sha256: str | None = None) -> str:
        """Stage `data` for a claimed `rel` unless the file already holds these bytes; return its
        SHA-256 (hex; `sha256` when the caller has it: a page read from a checked cache)."""
        digest = sha256 if sha256 is not None else hashlib.sha256(data).hexdigest()
        if self._unchanged(f"{self.root}/{rel}", rel, digest, len(data)):
            return digest
        staging = self._staging
        if staging is None:
            staging = self._staging = self.root / STAGING_DIR
            staging.mkdir(parents=True, exist_ok=True)
        name = f"{len(self.staged):06d}"
        with open(f"{staging}/{name}", "wb") as handle:  # noqa: PTH123 - once per output, as above
            handle.write(data)
        self.staged[rel] = name
        return digest

    def commit(self, delete: list[str], state: Path) -> None:
        """Record the journal, move every staged file into place, then remove the outputs in `delete`.

        The staging folder (and its journal) stays until `finish`: call it once the build's
        `state` is saved.
        """
        order = sorted(self.staged, key=lambda rel: commit_order(rel, rel in self.new))
        moves = [(self.staged[rel], rel) for rel in order]
        journal = Journal(moves, sorted(delete), str(state))
        staging = self.root / STAGING_DIR
        staging.mkdir(parents=True, exist_ok=True)
        write_atomic(staging / JOURNAL, journal.to_json())
        apply_journal(self.root, journal)
        self.written = [rel for _, rel in moves]
        self.staged.clear()

    def finish(self) -> None:
        """End the commit: the staging folder and its journal go."""
        self._staging = None
        remove_staging(self.root)

    def abort(self) -> None:
        """Remove every staged file; the output folder is as before the build."""
        self.staged.clear()
        self.new.clear()
        self._staging = None
        remove_staging(self.root)


def apply_journal(root: Path, journal: Journal) -> None:
    """Do the journal's renames and deletions; what a previous attempt did already is skipped."""
    staging = f"{root}/{STAGING_DIR}"
    made: set[str] = set()  # folders known to exist: one mkdir per folder, not per file
    for temp, rel in journal.moves:  # plain strings: pathlib's cost adds up over 20,000 files
        source = f"{staging}/{temp}"
        if os.path.exists(source):  # noqa: PTH110 - else a previous attempt moved it already
            target = f"{root}/{rel}"
            parent = os.path.dirname(target)  # noqa: PTH120
            if parent not in made:
                os.makedirs(parent, exist_ok=True)  # noqa: PTH103
                made.add(parent)
            os.replace(source, target)  # noqa: PTH105
    for rel in journal.deletions:
        path = root / rel
        path.unlink(missing_ok=True)
        parent_path = path.parent
        while parent_path != root and parent_path.is_dir() and not any(parent_path.iterdir()):
            parent_path.rmdir()
            parent_path = parent_path.parent


def read_journal(root: Path) -> Journal | None:
    """The journal of an interrupted commit in `root`; None when there is none (nothing renamed)."""
    path = root / STAGING_DIR / JOURNAL
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise JournalError(f"{path}: diário do build ilegível ({exc})") from exc
    try:
        if data["versao"] != JOURNAL_VERSION:
            raise JournalError(f"{path}: versão {data['versao']!r} do diário do build desconhecida")
        moves = [(str(temp), str(rel)) for temp, rel in data["mover"]]
        return Journal(moves, [str(rel) for rel in data["remover"]], str(data["estado"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"{path}: diário do build incompleto ({exc})") from exc


def recover(root: Path) -> str:
    """Finish or undo a commit a killed build left in `root`.

    Returns "" when there was nothing to do, "desfeito" when the build died before its commit
    (staged files dropped, output untouched), "concluido" when it died during the commit
    (remaining renames and deletions done, the build's incremental state dropped). Raises
    `JournalError` when the journal is unreadable (the folder is left as it is).
    """
    staging = root / STAGING_DIR
    if not staging.exists():
        return ""
    journal = read_journal(root)
    if journal is None:
        remove_staging(root)
        return "desfeito"
    apply_journal(root, journal)
    # The killed build never saved its state: records of the files just moved in are stale.
    state = Path(journal.state)
    if state.parent.name == STATE_PARENT:  # only ever a build state folder, whatever the journal says
        shutil.rmtree(state, ignore_errors=True)
    remove_staging(root)
    return "concluido"


def remove_staging(root: Path) -> None:
    """Delete the staging folder, with whatever a killed build left in it."""
    shutil.rmtree(root / STAGING_DIR, ignore_errors=True)


def output_size(out: Path, rel: str) -> int:
    """The size of the output `rel` in the folder `out`, -1 when it is missing."""
    try:
        return os.stat(f"{out}/{rel}").st_size  # noqa: PTH116 - hot loop: strings, not pathlib
    except FileNotFoundError:
        return -1


def write_atomic(path: Path, data: bytes) -> None:
    """Write one file atomically (temp file in the same folder + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        temp.write_bytes(data)
        temp.replace(path)
    finally:
        temp.unlink(missing_ok=True)
