"""SIGKILL of a real `eleicoes tse poll` at pseudo-random points: the next run recovers, git trail too.
And SIGKILL of a real publish to moto's S3 server at pseudo-random requests (end of this file).

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
import itertools
import json
import logging
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from eleicoes import main
from jobs.publish.publisher import publicar
from jobs.publish.targets import S3Target, boto3_client
from jobs.tse.gitlog import stale_locks
from model.calibration import load_calibration
from tests.publish.conftest import broken_references, md5s, write_site
from tests.publish.matar_publicar_s3 import config as publish_config
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
    """Files the running poll has written so far. It renames its staging folders while this walks
    them (a walk then meets a folder that is gone): such a count is taken again."""
    tse = dados / "tse"
    while True:
        try:
            return sum(1 for p in tse.rglob("*") if p.is_file()) if tse.is_dir() else 0
        except FileNotFoundError:
            continue


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


@contextlib.contextmanager
def _running(config: Path, dados: Path, kill_at_commit: int | None) -> Iterator[subprocess.Popen[bytes]]:
    """The poll, killed on the way out if the test has not killed it: it loops with no interval in
    a session of its own, so a failing test would otherwise leave it running after pytest."""
    proc = _start(config, dados, kill_at_commit)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            _kill(proc)


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
    with _running(config, dados, k) as proc:
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
    with _running(config, dados, None) as proc:
        _wait_for(proc, lambda: _files(dados) >= n)
        _kill(proc)
    _assert_recovered(tmp_path, config, dados, capsys)


# --- publish to S3 ----------------------------------------------------------------------------

CREDENTIALS = {"AWS_ACCESS_KEY_ID": "teste", "AWS_SECRET_ACCESS_KEY": "teste"}
_buckets = itertools.count(1)


@pytest.fixture(scope="module")
def moto_s3() -> Iterator[tuple[str, Any]]:
    """moto's S3 server in this process (it outlives the killed publishes), on a free loopback
    port, and one client of it for the whole module (making one costs a tenth of a second)."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with pytest.MonkeyPatch.context() as mp:
        for key, value in CREDENTIALS.items():
            mp.setenv(key, value)
        mp.delenv("AWS_PROFILE", raising=False)
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
        host, port = server.get_host_and_port()
        endpoint = f"http://{host}:{port}"
        try:
            yield endpoint, boto3_client("s3", publish_config(endpoint, "matar", Path()), endpoint)
        finally:
            server.stop()


def _publish_killed(
    public: Path, endpoint: str, bucket: str, estado: Path, step: int
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "AWS_PROFILE"} | CREDENTIALS
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.publish.matar_publicar_s3",
            str(public),
            endpoint,
            bucket,
            str(estado),
            str(step),
        ],
        cwd=REPO,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
    )


def _bucket_with_v1(moto: tuple[str, Any], tmp_path: Path) -> tuple[S3Target, Path, Path, dict[str, bytes]]:
    """A new bucket holding the published v1 site; the build folder then holds v2 (returned)."""
    endpoint, client = moto
    target = S3Target(client, f"matar-{next(_buckets)}", "", endpoint)
    client.create_bucket(Bucket=target.bucket)
    public, estado = tmp_path / "public", tmp_path / "estado"
    public.mkdir()
    write_site(public, version=1, pages=4)
    publicar(publish_config(endpoint, target.bucket, estado), public, destino=target)
    v2 = write_site(public, version=2, pages=3)  # new stylesheet, pages changed, one removed
    return target, public, estado, v2


def _objects(target: S3Target) -> dict[str, bytes]:
    out = {}
    for page in target.client.get_paginator("list_objects_v2").paginate(Bucket=target.bucket):
        for item in page.get("Contents", ()):
            out[item["Key"]] = target.client.get_object(Bucket=target.bucket, Key=item["Key"])["Body"].read()
    return out


@pytest.fixture(scope="module")
def publish_steps(moto_s3: tuple[str, Any], tmp_path_factory: pytest.TempPathFactory) -> int:
    """How many steps (S3 requests, manifest saves) the uninterrupted publish of v2 takes."""
    target, public, estado, v2 = _bucket_with_v1(moto_s3, tmp_path_factory.mktemp("passos"))
    whole = _publish_killed(public, target.endpoint, target.bucket, estado, 10**9)
    assert whole.returncode == 0, whole.stderr
    assert md5s(_objects(target)) == md5s(v2)
    return int(whole.stdout)


@pytest.mark.parametrize("seed", [5, 6, 7, 8])
def test_kill_during_publish_to_s3_recovers(
    moto_s3: tuple[str, Any], publish_steps: int, tmp_path: Path, seed: int
) -> None:
    """Killed at any request: readers see the old or the new site, never a link to a missing
    object; the next run completes, with the bucket exactly the new site (nothing lost), and a
    further run has nothing left to send."""
    assert publish_steps > 10
    target, public, estado, v2 = _bucket_with_v1(moto_s3, tmp_path)
    step = random.Random(seed).randint(1, publish_steps)
    killed = _publish_killed(public, target.endpoint, target.bucket, estado, step)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert broken_references(_objects(target)) == [], f"passo {step} de {publish_steps}"
    cfg = publish_config(target.endpoint, target.bucket, estado)
    publicar(cfg, public, destino=target)
    assert md5s(_objects(target)) == md5s(v2), f"passo {step} de {publish_steps}"
    assert publicar(cfg, public, destino=target).enviados == []
