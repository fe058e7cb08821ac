"""The project lock (fcntl.flock) taken around build and publish.

A manual `eleicoes build` / `eleicoes publicar` and the scheduler's rebuild + publish take the same
lock, so they never overlap: a publish never uploads a half-committed build. The kernel releases
the lock when the process dies, so a killed run never leaves it stuck.

It lives with the builder, which owns `public/` and `.cache/`: the publish job and the scheduler
import it from here (jobs and scheduler may import the builder; the builder imports neither).
`take_lock` is the same kernel lock held for a whole process's life: one scheduler per data
folder, one TSE poller per data folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

LOCK_FILE = Path(".cache") / "eleicoes.lock"
POLL_S = 0.05


class LockBusyError(RuntimeError):
    """The lock stayed taken by another run for longer than the caller wanted to wait."""


def lock_path(root: Path) -> Path:
    """The lock file of the project in `root` (outside `public/`, never published)."""
    return root / LOCK_FILE


def holder(root: Path) -> str:
    """What the last holder wrote in the lock file (pid and what it was doing), for messages."""
    return _read_holder(lock_path(root))


def _read_holder(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def _mark(fd: int, what: str) -> None:
    """Write the new holder (pid and what it does) into the lock file it just took."""
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"pid {os.getpid()} {what}".strip().encode("utf-8") + b"\n", 0)


def print_waiting(holder: str) -> None:
    """What a command says on stderr while another run holds the project lock (`on_wait`)."""
    print(f"aguardando outra execução terminar ({holder or 'trava ocupada'})...", file=sys.stderr)


@contextlib.contextmanager
def project_lock(
    root: Path,
    what: str = "",
    *,
    timeout_s: float | None = None,
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[None]:
    """Hold the project lock for the `with` block.

    Waits for a run in progress: forever when `timeout_s` is None, else raises `LockBusyError`
    after `timeout_s` seconds. `on_wait(holder)` is called once if the lock is taken.
    """
    path = lock_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not _try(fd):
            if on_wait is not None:
                on_wait(holder(root))
            if timeout_s is None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            else:
                deadline = time.monotonic() + timeout_s
                while not _try(fd):
                    if time.monotonic() >= deadline:
                        raise LockBusyError(
                            f"outra execução está com a trava do projeto ({holder(root) or 'desconhecida'}); "
                            f"desisti depois de {timeout_s:g} s"
                        )
                    time.sleep(POLL_S)
        _mark(fd, what)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _try(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class HeldLock:
    """A lock held until `release` (or until the process dies: the kernel drops it)."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    def release(self) -> None:
        """Let the lock go (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> HeldLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def take_lock(path: Path, what: str, busy: str) -> HeldLock:
    """Take the lock at `path` now, for as long as the caller wants, or raise `LockBusyError`.

    `busy` is the Portuguese sentence for "someone else holds it"; the holder's pid and activity
    are appended. Used for the one-instance rules (one scheduler per data folder, one TSE poller).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    if not _try(fd):
        os.close(fd)
        raise LockBusyError(f"{busy} ({_read_holder(path) or 'processo desconhecido'}; trava {path})")
    _mark(fd, what)
    return HeldLock(fd, path)
