"""`eleicoes auditar`: a stored snapshot is reproduced byte for byte; one tampered byte fails."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from eleicoes import main
from jobs.tse.audit import audit_snapshot
from jobs.tse.config import Corrida
from tests.tse.conftest import PRESIDENT, Job, Replay, job_config, snapshots


def written(dados: Path, eleicao: str = "6258") -> list[Path]:
    return snapshots(dados / "tse" / eleicao / "presidente")


@pytest.fixture
def night_data(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> Path:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, PRESIDENT))
    job.ciclo()
    replay.avancar()
    job.ciclo()
    return dados


def test_audit_of_a_written_snapshot_passes(night_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    snap = written(night_data)[-1]
    assert main(["auditar", str(snap)]) == 0
    out = capsys.readouterr().out
    assert "reproduzido byte a byte" in out and f"eleicoes projetar {snap}" in out


def test_one_tampered_raw_byte_fails_the_audit(
    night_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "copia"
    shutil.copytree(night_data / "tse", copy)  # a copy: the hard-linked originals stay intact
    snap = sorted((copy / "6258" / "presidente").glob("2026-*"))[-1]
    raw = snap / "sp-c0001-e006258-u.json"
    data = bytearray(raw.read_bytes())
    i = data.index(b'"vap": "') + len(b'"vap": "')  # first digit of a candidate's votes
    data[i] = ord("9") if data[i] != ord("9") else ord("8")
    raw.write_bytes(bytes(data))
    assert main(["auditar", str(snap)]) == 1
    out = capsys.readouterr().out
    assert "sp-c0001-e006258-u.json: SHA-256 diferente" in out
    assert "--- saida.json (guardada)" in out and "FALHOU" in out
    # Without the recorded hashes the rerun of the model alone still catches it.
    cap = json.loads((snap / "captura.json").read_bytes())
    for entry in cap["arquivos"].values():
        entry.pop("sha256", None)
    (snap / "captura.json").write_text(json.dumps(cap), encoding="utf-8")
    result = audit_snapshot(snap)
    assert not result.ok and not result.problemas and result.diff


def test_tampered_output_or_missing_files_fail(night_data: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copia"
    shutil.copytree(night_data / "tse", copy)
    snap = sorted((copy / "6258" / "presidente").glob("2026-*"))[-1]
    saida = snap / "saida.json"
    saida.write_bytes(saida.read_bytes().replace(b'"publicavel": true', b'"publicavel": false'))
    result = audit_snapshot(snap)
    assert not result.ok and '-  "publicavel": false,' in result.diff
    (snap / "captura.json").unlink()
    assert audit_snapshot(snap).problemas[0].startswith("snapshot incompleto")
    assert main(["auditar", str(tmp_path / "nao-existe")]) == 2


def test_audit_checks_the_tse_signatures(
    real_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(real_night)
    replay.avancar(para=-1)  # the signed final capture
    dados = tmp_path / "data"
    job_factory(job_config(replay.url, dados, Corrida("presidente", "6257", "br", "uf"))).ciclo()
    snap = written(dados, "6257")[-1]
    assert audit_snapshot(snap).assinaturas == 29
    twin = snap / "rj-c0001-e006257-u.jws"
    data = bytearray(twin.read_bytes())
    data[-3] = ord("A") if data[-3] != ord("A") else ord("B")
    twin.unlink()  # replace, do not write through a hard link
    twin.write_bytes(bytes(data))
    result = audit_snapshot(snap)
    assert result.problemas == ["rj-c0001-e006257-u.jws: assinatura Ed25519 do TSE não confere"]
