"""One git commit per capture, so auditors can `git log -p` the night and diff readings.

The repository is the configured folder itself (`data/` by default): it must be the top level of a
git work tree (`git init data` once), so the job never commits into an enclosing project repository
by accident. Only the snapshot's paths are staged and committed; nothing else in the index moves.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

GIT_TIMEOUT_S = 120

# Lock files git leaves behind when it is killed mid-command (SIGKILL skips its cleanup): the
# index, HEAD and any ref being moved. While one exists every later `git add`/`git commit` fails.
GIT_LOCKS = ("index.lock", "HEAD.lock", "packed-refs.lock")
GIT_REF_LOCKS = "refs/**/*.lock"


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


def _git_dir(repo: Path) -> Path:
    dot = repo / ".git"
    if dot.is_file():  # a worktree or submodule: `gitdir: <path>`
        texto = dot.read_text(encoding="utf-8").strip()
        if texto.startswith("gitdir:"):
            alvo = Path(texto.partition(":")[2].strip())
            return alvo if alvo.is_absolute() else (repo / alvo).resolve()
    return dot


def git_running_in(repo: Path, proc: Path = Path("/proc")) -> list[int]:
    """Pids of live `git` processes whose working folder is `repo` or inside it (Linux /proc).

    `git -C <repo>` changes its working folder to the repository before taking any lock, so a git
    that may hold one of the repository's locks is always found here. Processes that cannot be
    inspected (another user's) are skipped.
    """
    raiz = repo.resolve()
    pids: list[int] = []
    try:
        entradas = list(proc.iterdir())
    except OSError:
        return pids
    for e in entradas:
        if not e.name.isdigit() or int(e.name) == os.getpid():
            continue
        try:
            if (e / "comm").read_text(encoding="utf-8").strip() not in ("git", "git-remote-http"):
                continue
            cwd = (e / "cwd").readlink()
        except OSError:
            continue
        if cwd == raiz or raiz in cwd.parents:
            pids.append(int(e.name))
    return pids


def stale_locks(repo: Path) -> list[Path]:
    """The git lock files present in `repo`'s git folder (index, HEAD, packed-refs, refs)."""
    gd = _git_dir(repo)
    achados = [gd / n for n in GIT_LOCKS if (gd / n).is_file()]
    return achados + sorted(p for p in gd.glob(GIT_REF_LOCKS) if p.is_file())


def recover_stale_locks(repo: Path) -> list[str]:
    """Remove the lock files a killed git left in `repo`; returns one Portuguese line per lock removed.

    Safe only for a caller that holds the TSE poll lock (`take_poll_lock`: no other poll of ours
    writes to this repository). A lock is then stale when no live `git` process works in the
    repository; when one does (an editor running git by hand, say), nothing is touched and the
    commit fails with git's own message, the snapshot kept for the next commit.
    """
    travas = stale_locks(repo)
    if not travas:
        return []
    vivos = git_running_in(repo)
    if vivos:
        return []
    linhas = []
    for t in travas:
        try:
            t.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            linhas.append(f"trava do git {t} não pôde ser removida: {exc.strerror or exc}")
            continue
        linhas.append(
            f"trava do git abandonada removida ({t.name}, de um git interrompido; nenhum git ativo)"
        )
    return linhas


def pending_paths(repo: Path, paths: Sequence[Path]) -> bool:
    """Whether anything under `paths` differs from HEAD or is untracked (a commit a killed run missed)."""
    rel = [str(p.resolve().relative_to(repo.resolve())) for p in paths]
    return bool(_git(repo, "status", "--porcelain", "--untracked-files=all", "--", *rel).strip())


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
