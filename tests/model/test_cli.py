"""The `projetar` / `baseline` subcommands through an argparse harness, and the stdlib-only import."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from model import cli
from model.tse_files import BRASILIA
from tests.model.helpers import CAPTURES, NOW, president_files, snapshot_of, write_snapshot

REPO = Path(__file__).resolve().parents[2]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="eleicoes")
    sub = p.add_subparsers(dest="comando", required=True)
    cli.register(sub)
    return p


def call(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    status: int = args.func(args)
    return status


def test_projetar_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_snapshot(tmp_path / "2026-10-25T20-00-00Z", snapshot_of(president_files()))
    assert call(["projetar", str(folder), "--agora", "2026-10-25T20:00:00Z"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["publicavel"] is True and out["eleicao"] == "6258"
    assert out["agora"] == "2026-10-25T17:00:00-03:00" == NOW.astimezone(BRASILIA).isoformat()


def test_projetar_default_now_is_latest_download(capsys: pytest.CaptureFixture[str]) -> None:
    assert call(["projetar", str(CAPTURES / "2026-10-04T21-36-05Z")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["agora"] == "2026-10-04T18:36:05.598000-03:00"


def test_projetar_uses_previous_sibling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.model.helpers import Part

    write_snapshot(tmp_path / "a", snapshot_of(president_files(default=Part(votes={13: 300_000, 22: 1}))))
    folder = write_snapshot(tmp_path / "b", snapshot_of(president_files()))
    assert call(["projetar", str(folder)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "arquivos_validos" in out["criterios_nao_atendidos"]
    assert call(["projetar", str(folder), "--anterior", "nenhum"]) == 0
    assert json.loads(capsys.readouterr().out)["criterios_nao_atendidos"] == []


def test_projetar_continues_the_drift_check_from_the_previous_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The live drift check's running sums come from the previous sibling's saida.json (the job stores
    it there), so rerunning the night's folders in order gives the job's bytes."""
    first = write_snapshot(tmp_path / "a", snapshot_of(president_files()))
    folder = write_snapshot(tmp_path / "b", snapshot_of(president_files()))
    assert call(["projetar", str(first)]) == 0
    stored = capsys.readouterr().out
    assert call(["projetar", str(folder)]) == 0
    alone = json.loads(capsys.readouterr().out)["verificacao_deriva"]
    (first / "saida.json").write_text(stored, encoding="utf-8")
    assert call(["projetar", str(folder)]) == 0
    chained = json.loads(capsys.readouterr().out)["verificacao_deriva"]
    acc_alone, acc_chained = alone["acumulado"], chained["acumulado"]
    assert acc_alone and set(acc_alone) == set(acc_chained)
    assert all(acc_chained[uf][0] == acc_alone[uf][0] + 1 for uf in acc_alone)
    (first / "saida.json").write_text("{não é json", encoding="utf-8")  # unreadable: the check restarts
    assert call(["projetar", str(folder)]) == 0
    assert json.loads(capsys.readouterr().out)["verificacao_deriva"] == alone


def test_bad_input_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert call(["projetar", str(tmp_path / "nao-existe")]) == 2
    err = capsys.readouterr().err
    assert "pasta de snapshot não encontrada" in err and "Traceback" not in err
    assert call(["projetar", str(tmp_path), "--agora", "ontem"]) == 2
    assert "--agora inválido" in capsys.readouterr().err
    (tmp_path / "x").mkdir()
    assert call(["projetar", str(tmp_path / "x"), "--cargo", "governador"]) == 2
    assert "UF" in capsys.readouterr().err


def test_baseline_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    finals = sorted(
        (CAPTURES.parent / "2026-1t-final" / "presidente-uf").glob("[a-z][a-z]-c0001-e006257-u.json")
    )
    finals = [p for p in finals if not p.name.startswith("br-")]
    args = ["baseline", "--eleicao", "6258", "--saida", str(tmp_path), *map(str, finals)]
    assert call(args) == 0
    built = json.loads((tmp_path / "6258-presidente-br-uf.json").read_text(encoding="utf-8"))
    shipped = json.loads(
        (REPO / "model" / "baselines" / "6258-presidente-br-uf.json").read_text(encoding="utf-8")
    )
    assert built["partes"] == shipped["partes"] and built["finalistas"] == [22, 13]
    assert call(["baseline"]) == 2


def test_shipped_baselines_are_rebuilt_identically(tmp_path: Path) -> None:
    assert call(["baseline", "--datasets", str(CAPTURES.parent.parent), "--saida", str(tmp_path)]) == 0
    for path in sorted((REPO / "model" / "baselines").glob("*.json")):
        assert (tmp_path / path.name).read_bytes() == path.read_bytes()


def test_model_imports_without_third_party_packages() -> None:
    code = (
        f"import sys; sys.path.insert(0, {str(REPO)!r}); "
        "import model, model.cli, model.forecast, model.drift_fit; "
        "assert 'numpy' not in sys.modules; print(model.VERSION)"
    )
    res = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=False
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "3.1.0"


def test_python_m_model_cli_standalone() -> None:
    snap = str(CAPTURES / "2026-10-04T21-36-05Z")
    res = subprocess.run(
        [sys.executable, "-S", "-m", "model.cli", "projetar", snap],  # -S: no site-packages
        capture_output=True,
        cwd=REPO,
        check=False,
    )
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["modelo"]["versao"] == "3.1.0"
