"""`eleicoes backtest` on 3 nights of a small state: calibration file, report, determinism (its speed
is a figure of benchmarks/backtest_bench.py)."""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import pytest

from model import VERSION
from model.backtest import cli
from model.backtest.pipeline_regional import ANTERIOR
from model.calibration import parse_calibration
from tests.model.helpers import DATASETS


def call(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="eleicoes")
    sub = parser.add_subparsers(dest="comando", required=True)
    cli.register(sub)
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


def run(tmp: Path, *extra: str) -> dict[str, bytes]:
    status = call(
        [
            "backtest",
            "--ufs",
            "ro",
            "--sementes",
            "3",
            "--capturas",
            "60",
            "--processos",
            "1",
            "--datasets",
            str(DATASETS),
            "--docs",
            str(tmp / "docs"),
            "--saida-calibracao",
            str(tmp / "cal"),
            *extra,
        ]
    )
    assert status == 0
    files = {str(p.relative_to(tmp)): p.read_bytes() for p in sorted(tmp.rglob("*")) if p.is_file()}
    return files


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return run(tmp_path_factory.mktemp("bt1"))


def test_backtest_of_a_small_state_writes_a_calibration(
    first: dict[str, bytes],
) -> None:
    files = first
    cal_files = [k for k in files if k.startswith("cal/") and k.endswith(".json")]
    assert len(cal_files) == 1
    raw = files[cal_files[0]]
    cal = parse_calibration(raw)  # the model can load it
    root = json.loads(raw)
    assert root["id"] == Path(cal_files[0]).stem and root["id"].startswith(
        f"bt2022sim-ro-v{VERSION.replace('.', '')}-n3-"
    )
    assert (
        files[cal_files[0] + ".sha256"].decode() == f"{hashlib.sha256(raw).hexdigest()}  {root['id']}.json\n"
    )
    assert root["versao_modelo"] == VERSION
    assert set(root["faixas"]) >= {
        "limites_pct",
        "presidente",
        "presidente_erro_medio",
        "presidente_sem_correcao",
        "governador_municipio",
        "governador_zona",
        "governador_degradado",
    }
    assert cal.deriva_grade == tuple(float(x) for x in range(0, 101, 5)) and cal.deriva_pp[-1] == 0.0
    assert root["faixas"]["governador_municipio"][0] is None  # governors: not published below 20 %
    for key in ("presidente", "presidente_sem_correcao", "governador_municipio"):
        rows = [r for r in cal.faixas[key] if r is not None]
        flat = [x for r in rows for x in r]
        assert flat == sorted(flat, reverse=True), key  # band never grows as % counted grows
    bt = root["backtest"]
    assert bt["sementes"] == 3 and bt["ufs"] == ["ro"] and bt["noites_reais"] == ["real-2026-1t"]
    assert len(bt["deriva_1turno_2022_simulada"]) == 21
    assert "docs/BACKTEST.md" in files
    md = files["docs/BACKTEST.md"].decode()
    for heading in (
        "## Decision",
        "## Data",
        "## Method",
        "## Results: president by UF",
        "## Governors",
        "## Targets of the issue",
        "## What these data can and cannot show",
    ):
        assert heading in md
    assert "| 95–100 |" in md and root["id"] in md
    for svg in ("erro-presidente.svg", "deriva.svg", "cobertura.svg"):
        assert files[f"docs/backtest/{svg}"].startswith(b"<svg ")


def test_same_seeds_same_bytes(
    first: dict[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    again = run(tmp_path)
    assert again == first
    assert "backtest: 3/3" in capsys.readouterr().err  # one log line per night off a terminal


def test_other_seeds_change_the_figures(first: dict[str, bytes], tmp_path: Path) -> None:
    other = run(tmp_path, "--semente-inicial", "10")
    a = json.loads(next(v for k, v in first.items() if k.startswith("cal/") and k.endswith(".json")))
    b = json.loads(next(v for k, v in other.items() if k.startswith("cal/") and k.endswith(".json")))
    assert a["id"] != b["id"]
    assert a["deriva"]["deriva_pp"] != b["deriva"]["deriva_pp"] or a["faixas"] != b["faixas"]


def test_bad_options_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert call(["backtest", "--noites", "ontem"]) == 2
    assert "noite desconhecida" in capsys.readouterr().err
    assert call(["backtest", "--datasets", str(tmp_path), "--docs", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("erro: ") and "Traceback" not in err


def test_shipped_fitted_calibration_and_docs_agree() -> None:
    """The versioned file in model/calibracoes, its .sha256, docs/BACKTEST.md and docs/MODELO.md agree,
    and BACKTEST.md says "in force" exactly when model/calibracao.json holds the same bytes."""
    repo = Path(__file__).resolve().parents[2]
    fitted = sorted((repo / "model" / "calibracoes").glob("bt2022sim-v*.json"))
    assert len(fitted) == 1
    raw = fitted[0].read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    ident = json.loads(raw)["id"]
    assert fitted[0].stem == ident
    assert (fitted[0].parent / f"{ident}.json.sha256").read_text() == f"{sha}  {ident}.json\n"
    parse_calibration(raw)
    report = (repo / "docs" / "BACKTEST.md").read_text(encoding="utf-8")
    assert ident in report and sha in report
    in_force = (repo / "model" / "calibracao.json").read_bytes() == raw
    earlier = report.split(ANTERIOR, 1)[-1]  # the national-clock report, after the regional block
    assert ("**It is the calibration in force**" in earlier) == in_force
    for svg in ("erro-presidente.svg", "deriva.svg", "cobertura.svg"):
        assert (repo / "docs" / "backtest" / svg).read_text(encoding="utf-8").startswith("<svg ")


def test_one_night_replays_each_race_once_at_the_planned_captures() -> None:
    from collections import Counter

    from model.backtest.chegada import carregar_parametros
    from model.backtest.executar import ConfigBacktest, capturas_amostradas, rodar_semente
    from tests.model.helpers import calibration

    cfg = ConfigBacktest(
        DATASETS, sementes=1, capturas=30, passo_municipio=10, passo_governador=7, ufs=("ro",)
    )
    lines = rodar_semente(cfg, carregar_parametros(), calibration(), 0)
    keys = Counter((ln.noite, ln.disputa, ln.variante, ln.captura) for ln in lines)
    assert max(keys.values()) == 1  # no capture replayed twice
    by = Counter((ln.disputa, ln.variante) for ln in lines)
    assert by[("presidente", "uf")] == 30
    assert by[("presidente", "municipio")] == len(capturas_amostradas(30, 10)) == 4
    gov = len(capturas_amostradas(30, 7))
    assert by[("governador-ro", "governador_municipio")] == gov
    assert by[("presidente-em-ro", "governador_municipio")] == gov
    assert by[("presidente-1t", "uf")] == len(capturas_amostradas(30, cfg.passo_1t))
