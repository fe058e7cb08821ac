"""The command line: `eleicoes tse poll|servidor|noite-real|noite-sintetica` and `eleicoes auditar`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from eleicoes import main
from model.calibration import load_calibration
from site_builder.lock import project_lock
from tests.site_builder.conftest import FIXTURE_CONTENT, FIXTURE_DATA
from tests.tse.conftest import DATASETS, REPO, Replay


def write_config(path: Path, url: str, pin: str | None = None) -> Path:
    lines = [
        "[tse]",
        f'url_base = "{url}"',
        'relogio = "servidor"',
        "git = false",
        "requisicoes_por_segundo = 500",
        "rajada = 500",
        f'calibracao_sha256 = "{pin or load_calibration().sha256}"',
        "[[tse.corridas]]",
        'cargo = "presidente"',
        'eleicao = "6258"',
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_poll_once_logs_one_line_per_race(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    replay = replay_factory(synthetic_night)
    config = write_config(tmp_path / "eleicoes.toml", replay.url)
    assert main(["tse", "poll", "--once", "--config", str(config)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "presidente 6258: 60 pedidos, 29 alterados" in out[0] and "publicável" in out[0]
    latest = (tmp_path / "data" / "tse" / "6258" / "presidente" / "latest").read_text(encoding="utf-8")
    # The night's clock (the replay's `Date`) starts the step at 20:30:00 and runs with real time.
    assert re.fullmatch(r"2026-10-25T20-30-\d\dZ\n", latest), latest
    assert main(["tse", "poll", "--once", "--config", str(config)]) == 0
    assert "sem mudança, nada gravado" in capsys.readouterr().out


def test_poll_rebuild_waits_for_the_project_lock(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--construir` takes the lock of `eleicoes build` and `publicar`: never a build under a publish."""
    shutil.copytree(FIXTURE_CONTENT, tmp_path / "content")
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    shutil.copytree(REPO / "templates", tmp_path / "templates")
    config = write_config(tmp_path / "eleicoes.toml", replay_factory(synthetic_night).url)
    status: list[int] = []
    poll = threading.Thread(
        target=lambda: status.append(main(["tse", "poll", "--once", "--construir", "--config", str(config)]))
    )
    err = ""
    with project_lock(tmp_path, "publicação em curso"):
        poll.start()
        for _ in range(6000):  # event-based: until the poll says it waits (generous bound, 0.05 s steps)
            err += capsys.readouterr().err
            if "aguardando outra execução terminar" in err or not poll.is_alive():
                break
            time.sleep(0.05)
        assert "aguardando outra execução terminar (pid" in err and "publicação em curso" in err
        assert not (tmp_path / "public").exists()
    poll.join(timeout=600)
    assert status == [0] and (tmp_path / "public" / "index.html").is_file()
    assert "build: " in capsys.readouterr().out


def test_poll_refuses_another_calibration_and_bad_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path / "a.toml", "http://127.0.0.1:9", pin="0" * 64)
    assert main(["tse", "poll", "--once", "--config", str(config)]) == 2
    assert "não é a fixada para a noite" in capsys.readouterr().err
    (tmp_path / "b.toml").write_text("[tse]\nrajada = -1\n", encoding="utf-8")
    assert main(["tse", "poll", "--once", "--config", str(tmp_path / "b.toml")]) == 2
    assert "rajada" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()


def test_night_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["tse", "noite-sintetica", str(tmp_path / "s"), "--niveis", "0.2,0.6", "--governadores", "ac"])
        == 0
    )
    caps = sorted((tmp_path / "s" / "capturas").iterdir())
    assert len(caps) == 2 and (caps[0] / "ac-c0003-e006260-u.json").is_file()
    assert "RUI AMARAL" in (caps[0] / "br-c0001-e006258-u.json").read_text(encoding="utf-8")
    assert (
        main(["tse", "noite-real", str(tmp_path / "r"), "--origem", str(DATASETS / "tse"), "--sem-final"])
        == 0
    )
    assert len(list((tmp_path / "r" / "capturas").iterdir())) == 6  # the six real captures
    assert main(["tse", "noite-sintetica", str(tmp_path / "x"), "--governadores", "zz"]) == 2
    capsys.readouterr()


def test_server_command_serves_a_night(synthetic_night: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "eleicoes",
            "tse",
            "servidor",
            "--replay",
            str(synthetic_night),
            "--porta",
            "0",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = None
        for _ in range(5):
            m = re.search(r"servindo em (http://127\.0\.0\.1:\d+)", proc.stdout.readline())
            if m:
                url = m.group(1)
                break
        assert url is not None
        with urllib.request.urlopen(url + "/oficial/comum/config/ele-c.json", timeout=60) as r:
            assert json.loads(r.read())["pl"][0]["c"] == "ele2026"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
