"""Earlier revisions of content files, read from git (for the correction rule of `validar`).

Only plain `git` commands run in the project folder; nothing here changes the repository.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

GIT_TIMEOUT_S = 60


class GitError(Exception):
    """git cannot answer (not a repository, unknown revision); the message is in Portuguese."""


def _git(raiz: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", *args], cwd=raiz, capture_output=True, check=False, timeout=GIT_TIMEOUT_S
        )
    except FileNotFoundError as exc:
        raise GitError("o programa git não está instalado") from exc
    except subprocess.TimeoutExpired as exc:
        raise GitError(f"git {args[0]} demorou mais de {GIT_TIMEOUT_S} s") from exc


def e_repositorio(raiz: Path) -> bool:
    """Whether `raiz` is inside a git working tree."""
    try:
        result = _git(raiz, "rev-parse", "--is-inside-work-tree")
    except GitError:
        return False
    return result.returncode == 0 and result.stdout.strip() == b"true"


def revisao(raiz: Path, rev: str) -> str | None:
    """The commit `rev` names, or None when it names none (e.g. HEAD before the first commit)."""
    if rev.startswith("-"):
        raise GitError(f"revisão inválida: {rev!r}")
    result = _git(raiz, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if result.returncode != 0:
        return None
    return result.stdout.decode("ascii").strip()


def conteudo(raiz: Path, commit: str, caminho: str) -> bytes | None:
    """The bytes of `caminho` (relative to `raiz`) at `commit`, or None if it did not exist."""
    result = _git(raiz, "show", f"{commit}:./{caminho}")
    return result.stdout if result.returncode == 0 else None


def arquivos(raiz: Path, commit: str, pasta: str) -> list[str]:
    """Files directly under `pasta` (relative to `raiz`) at `commit`, relative to `raiz`."""
    result = _git(raiz, "ls-tree", "--name-only", "-z", commit, "--", f"{pasta.rstrip('/')}/")
    if result.returncode != 0:
        return []
    prefixo = _prefixo(raiz)
    nomes = [n.decode("utf-8", "replace") for n in result.stdout.split(b"\0") if n]
    return [n.removeprefix(prefixo) for n in nomes]


def _prefixo(raiz: Path) -> str:
    """Where `raiz` sits inside the repository (`ls-tree` names paths from the top)."""
    result = _git(raiz, "rev-parse", "--show-prefix")
    return result.stdout.decode("utf-8").strip() if result.returncode == 0 else ""


def por_id(raiz: Path, commit: str, pasta: str, identificador: str) -> str | None:
    """The file under `pasta` that held the check `identificador` at `commit` (it may have been
    renamed since), or None."""
    if not re.fullmatch(r"[a-z0-9-]+", identificador):
        return None  # only valid ids are looked up, so the pattern needs no escaping
    padrao = r'^id[[:space:]]*=[[:space:]]*"' + identificador + '"'
    result = _git(raiz, "grep", "-l", "-E", "-e", padrao, commit, "--", f"{pasta.rstrip('/')}/")
    if result.returncode != 0:
        return None
    for linha in result.stdout.decode("utf-8", "replace").splitlines():
        _rev, _sep, caminho = linha.partition(":")
        if caminho:
            return caminho
    return None


def alterados(raiz: Path, commit: str, pasta: str) -> list[str]:
    """Files under `pasta` that differ between `commit` and the working tree, relative to `raiz`."""
    result = _git(raiz, "diff", "--name-only", "-z", "--relative", commit, "--", f"{pasta.rstrip('/')}/")
    if result.returncode != 0:
        raise GitError(f"git diff falhou: {result.stderr.decode('utf-8', 'replace').strip()}")
    return [n.decode("utf-8", "replace") for n in result.stdout.split(b"\0") if n]
