"""Seed conformance (issue 14, item 6): degraded mode, electorate of missing parts, the race a
snapshot holds, and the demonstration flag."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model import cli
from model.snapshot import CaptureEntry, Snapshot, read_snapshot
from tests.model.helpers import (
    Part,
    baselines,
    criterion,
    president_files,
    president_name,
    run,
    snapshot_of,
    stratum,
    u_file,
    write_snapshot,
)

ES_BASE = baselines()["6260-governador-es-municipio"]


def _es_files(skip_municipal: bool) -> tuple[dict[str, bytes], dict[str, CaptureEntry]]:
    """An ES governor capture; with `skip_municipal`, every municipal download failed (no bytes)."""
    a, b = ES_BASE.finalistas
    parts = {
        pid: Part(te=bp.eleitorado or 0, est=(bp.eleitorado or 0) // 2, votes={a: 1000, b: 900}, vb=10, vn=10)
        for pid, bp in ES_BASE.partes.items()
    }
    uf = Part(
        te=sum(p.te for p in parts.values()),
        est=sum(p.est for p in parts.values()),
        votes={a: 1000 * len(parts), b: 900 * len(parts)},
        vb=10 * len(parts),
        vn=10 * len(parts),
    )
    files = {"es-c0003-e006260-u.json": u_file("es", uf, cargo=3, ele="6260")}
    failed: dict[str, CaptureEntry] = {}
    for pid, p in parts.items():
        name = f"{pid}-c0003-e006260-u.json"
        if skip_municipal:
            failed[name] = CaptureEntry(None, None, False, None)  # the poller asked; nothing came back
        else:
            files[name] = u_file(pid[2:], p, cargo=3, ele="6260", tpabr="mu")
    return files, failed


def test_failed_municipal_downloads_are_missing_files_not_degraded_mode() -> None:
    files, failed = _es_files(skip_municipal=True)
    out = run(snapshot_of(files, failed), cargo="governador", uf="es")
    assert out["modo"] == "governador_municipio" and out["degradado"] is False
    sem = criterion(out, "eleitorado_sem_arquivo_valido")
    assert sem["ok"] is False and sem["valor"] == 100.0
    assert out["publicavel"] is False
    # The TSE not publishing municipal files at all (none asked for) is the degraded mode.
    only_uf = {"es-c0003-e006260-u.json": files["es-c0003-e006260-u.json"]}
    assert run(snapshot_of(only_uf), cargo="governador", uf="es")["modo"] == "governador_degradado"


def test_missing_part_keeps_its_electorate_from_the_previous_capture() -> None:
    files = president_files({"rs": Part(te=8_600_000, est=4_300_000)})
    previous = snapshot_of(files)
    del files[president_name("rs")]
    # No baseline: before, the part's electorate was "desconhecido" and left out of the total.
    out = run(snapshot_of(files), baselines={}, anterior=previous)
    rs = stratum(out, "rs")
    assert rs["valido"] is False and rs["eleitorado"] == 8_600_000
    sem = criterion(out, "eleitorado_sem_arquivo_valido")
    assert sem["valor"] is not None and sem["valor"] > 0 and sem["nota"] is not None
    assert "desconhecido" not in (sem["nota"] or "")
    total = 27 * 1_000_000 + 8_600_000
    assert out["apurado_pct"] == round(100.0 * 27 * 500_000 / total, 4)


def test_missing_part_keeps_its_electorate_from_the_coverage_file() -> None:
    files = president_files()
    del files[president_name("rs")]
    coverage = {"abr": [{"tpabr": "uf", "cdabr": "rs", "e": {"te": "8600000", "est": "0"}}]}
    base = snapshot_of(files)
    snap = Snapshot(
        base.arquivos, base.captura, cobertura={"rs-e006258-ab.json": json.dumps(coverage).encode()}
    )
    out = run(snap, baselines={})
    assert stratum(out, "rs")["eleitorado"] == 8_600_000
    assert criterion(out, "eleitorado_sem_arquivo_valido")["valor"] == round(
        100 * 8_600_000 / (27e6 + 8.6e6), 4
    )


def _governor_folder(tmp_path: Path, corrida: dict[str, str] | None) -> Path:
    files, _ = _es_files(skip_municipal=False)
    folder = write_snapshot(tmp_path / "2026-10-25T20-00-00Z", snapshot_of(files))
    if corrida is not None:
        doc = json.loads((folder / "captura.json").read_text(encoding="utf-8"))
        doc["corrida"] = corrida
        (folder / "captura.json").write_text(json.dumps(doc), encoding="utf-8")
    return folder


@pytest.mark.parametrize("corrida", [{"cargo": "governador", "uf": "es", "eleicao": "6260"}, None])
def test_projetar_without_flags_projects_the_snapshot_race(
    tmp_path: Path, corrida: dict[str, str] | None, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _governor_folder(tmp_path, corrida)
    assert read_snapshot(folder).cargo == (corrida or {}).get("cargo")
    assert cli.main(["projetar", str(folder), "--agora", "2026-10-25T20:00:00Z"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["cargo"], out["uf"], out["modo"]) == ("governador", "es", "governador_municipio")
    assert out["publicavel"] is True


def test_demonstration_flag_follows_the_files() -> None:
    real = run(snapshot_of(president_files()))
    assert real["demonstracao"] is False
    simulated = {n: raw.replace(b'"f": "o"', b'"f": "s"') for n, raw in president_files().items()}
    assert run(snapshot_of(simulated))["demonstracao"] is True
