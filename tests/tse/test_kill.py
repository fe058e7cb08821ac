"""SIGKILL of a real `eleicoes tse poll` at pseudo-random points: the next run recovers, git trail too.

The poll runs as a subprocess (its own process group, as a service manager would start it) against
the replay server, committing into a tmp git repository. It is killed with its git children:
- during a `git commit` (a `prepare-commit-msg` hook, which `--no-verify` does not skip, signals the
  test and blocks while git holds `index.lock`), at the k-th commit;
- after N files were written under `data/tse` (the test waits on the file count).
The next `eleicoes tse poll --once` must leave no git lock, commit every snapshot on disk, and its
latest snapshots must pass `eleicoes auditar` with a whole `saida.json`.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from eleicoes import main
from jobs.tse.gitlog import stale_locks
from model.calibration import load_calibration
from tests.tse.conftest import REPO, Replay

RACES = ("6258/presidente", "6260/governador-ac")
HOOK = """#!/bin/sh
[ -n "$KILL_DIR" ] || exit 0
n=$(cat "$KILL_DIR/commits" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$KILL_DIR/commits"
if [ -n "$KILL_AT_COMMIT" ] && [ "$n" -ge "$KILL_AT_COMMIT" ]; then
  touch "$KILL_DIR/in-commit"
  exec sleep 600
fi
"""


def _config(path: Path, url: str) -> Path:
    lines = [
        "[tse]",
        f'url_base = "{url}"',
        'relogio = "servidor"',
        "git = true",
        "requisicoes_por_segundo = 1000",
        "rajada = 1000",
        "tentativas = 1",
        f'calibracao_sha256 = "{load_calibration().sha256}"',
        "[[tse.corridas]]",
        'cargo = "presidente"',
        'eleicao = "6258"',
        "[[tse.corridas]]",
        'cargo = "governador"',
        'eleicao = "6260"',
        'uf = "ac"',
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _repo(tmp_path: Path) -> Path:
    dados = tmp_path / "data"
    subprocess.run(["git", "init", "-q", str(dados)], check=True)
    hook = dados / ".git" / "hooks" / "prepare-commit-msg"
    hook.write_text(HOOK, encoding="utf-8")
    hook.chmod(0o755)
    return dados


def _files(dados: Path) -> int:
    tse = dados / "tse"
    return sum(1 for p in tse.rglob("*") if p.is_file()) if tse.is_dir() else 0


def _start(config: Path, dados: Path, kill_at_commit: int | None) -> subprocess.Popen[bytes]:
    env = dict(os.environ, KILL_DIR=str(dados.parent), PYTHONPATH=str(REPO))
    env.pop("KILL_AT_COMMIT", None)
    if kill_at_commit is not None:
        env["KILL_AT_COMMIT"] = str(kill_at_commit)
    return subprocess.Popen(
        [
            sys.executable,
            str(REPO / "eleicoes.py"),
            "tse",
            "poll",
            "--config",
            str(config),
            "--intervalo",
            "0",
        ],
        cwd=dados.parent,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _kill(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGKILL)  # the poll and its git children, no cleanup
    proc.wait()


def _wait_for(proc: subprocess.Popen[bytes], done: Callable[[], bool]) -> None:
    """Wait on a condition of the files the poll writes (or its exit, which fails the test)."""
    while not done():
        assert proc.poll() is None, "a coleta terminou antes do ponto de interrupção"
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.01)  # yields the CPU; returns only if the poll ended


def _assert_recovered(tmp_path: Path, config: Path, dados: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.environ.pop("KILL_AT_COMMIT", None)
    capsys.readouterr()
    assert main(["tse", "poll", "--once", "--config", str(config)]) in (0, 1)
    out = capsys.readouterr().out
    assert "commit falhou" not in out, out
    assert stale_locks(dados) == []
    status = subprocess.run(
        ["git", "-C", str(dados), "status", "--porcelain", "--untracked-files=all", "--", "tse"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert status == "", status
    for race in RACES:
        pasta = dados / "tse" / race
        latest = (pasta / "latest").read_text(encoding="utf-8").strip()
        saida = json.loads((pasta / latest / "saida.json").read_bytes())  # whole JSON
        assert "publicavel" in saida
        assert main(["auditar", str(pasta / latest)]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("seed", [1, 2])
def test_kill_during_git_commit_recovers_lock_and_commits_everything(
    seed: int,
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    replay = replay_factory(synthetic_night)
    dados = _repo(tmp_path)
    config = _config(tmp_path / "eleicoes.toml", replay.url)
    k = random.Random(seed).randint(1, 2)  # the first or the second race's commit
    proc = _start(config, dados, k)
    _wait_for(proc, lambda: (tmp_path / "in-commit").exists())
    assert stale_locks(dados) != []  # git holds its index lock right now
    _kill(proc)
    assert stale_locks(dados) != []  # reproduced: the killed git left its lock behind
    replay.avancar()  # the count moves on: the next run writes new snapshots too
    _assert_recovered(tmp_path, config, dados, capsys)


@pytest.mark.parametrize("seed", [3, 4])
def test_kill_after_n_files_written_recovers(
    seed: int,
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    replay = replay_factory(synthetic_night)
    dados = _repo(tmp_path)
    config = _config(tmp_path / "eleicoes.toml", replay.url)
    n = random.Random(seed).randint(5, 60)  # somewhere in the first race's snapshot
    proc = _start(config, dados, None)
    _wait_for(proc, lambda: _files(dados) >= n)
    _kill(proc)
    _assert_recovered(tmp_path, config, dados, capsys)
