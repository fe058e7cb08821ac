"""Expensive read-only folders built once per test run, shared by the pytest-xdist workers.

`pasta_compartilhada(tmp_path_factory, "leitor", construir)` returns a folder that `construir`
filled; the first worker to ask builds it while the others wait on a file lock, then all of them
read the same folder. Without xdist it is an ordinary per-session folder. The folder must be
treated as read-only by every test (copy it, `shutil.copytree`, to change anything).
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def raiz_da_execucao(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder common to every worker of this run (the session's own without xdist)."""
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker's base is `<run>/popen-gwN`; `<run>` is the run's, shared by all.
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def pasta_compartilhada(
    tmp_path_factory: pytest.TempPathFactory, nome: str, construir: Callable[[Path], None]
) -> Path:
    """`<run>/compartilhado-<nome>`, built by `construir(pasta)` once per run (file lock, marker)."""
    raiz = raiz_da_execucao(tmp_path_factory)
    pasta = raiz / f"compartilhado-{nome}"
    pronto = raiz / f"compartilhado-{nome}.pronto"
    with (raiz / f"compartilhado-{nome}.trava").open("w") as trava:
        fcntl.flock(trava.fileno(), fcntl.LOCK_EX)  # the others wait here while one builds
        if not pronto.exists():
            if pasta.exists():  # a build that failed in another worker: start again
                shutil.rmtree(pasta)
            pasta.mkdir(parents=True)
            construir(pasta)
            pronto.touch()
    return pasta
