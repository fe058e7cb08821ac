"""One git commit per capture, so auditors can `git log -p` the night and diff readings.

The repository is the configured folder itself (`data/` by default): it must be the top level of a
git work tree (`git init data` once), so the job never commits into an enclosing project repository
by accident. Only the snapshot's paths are staged and committed; nothing else in the index moves.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

GIT_TIMEOUT_S = 120


class GitError(RuntimeError):
    """A git command failed (Portuguese message)."""


def _git(repo: Path, *args: str, env_autor: str | None = None) -> str:
    cmd = ["git", "-C", str(repo)]
    if env_autor:
        nome, _, email = env_autor.partition("<")
        cmd += ["-c", f"user.name={nome.strip()}", "-c", f"user.email={email.rstrip('>').strip()}"]
    try:
        r = subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitError(f"git {args[0]} falhou: {exc}") from exc
    if r.returncode != 0:
        raise GitError(f"git {args[0]} falhou: {(r.stderr or r.stdout).strip()[:300]}")
    return r.stdout


def is_repository_root(path: Path) -> bool:
    """True when `path` is the top level of a git work tree."""
    if not path.is_dir():
        return False
    try:
        top = _git(path, "rev-parse", "--show-toplevel").strip()
    except GitError:
        return False
    return Path(top).resolve() == path.resolve()


def commit_paths(repo: Path, paths: Sequence[Path], mensagem: str, autor: str) -> str:
    """Stage `paths` (inside `repo`) and commit only them; returns the new commit's hash."""
    rel = [str(p.resolve().relative_to(repo.resolve())) for p in paths]
    _git(repo, "add", "--", *rel)
    _git(repo, "commit", "-q", "--no-verify", "-m", mensagem, "--", *rel, env_autor=autor)
    return _git(repo, "rev-parse", "HEAD").strip()


def model_commit(code: Path) -> str | None:
    """The commit of the code checkout `code` when its `model/` is exactly that commit's.

    Recorded in each snapshot so the site can point auditors at the model's exact source; None
    when `code` is not a git checkout or `model/` has changes not committed (no commit holds them).
    """
    try:
        if _git(code, "status", "--porcelain", "--untracked-files=no", "--", "model").strip():
            return None
        return _git(code, "rev-parse", "HEAD").strip() or None
    except GitError:
        return None
