"""The projection of real 2026 captures against a hand computation done here with plain json."""

from __future__ import annotations

import json

from model.calibration import load_calibration
from model.forecast import project, to_json_bytes
from model.snapshot import read_snapshot
from tests.model.helpers import CAPTURES, baselines

FIRST = CAPTURES / "2026-10-04T21-36-05Z"
SECOND = CAPTURES / "2026-10-04T21-39-46Z"


def hand_projection(folder_files: list[str]) -> tuple[dict[str, float], float, float]:
    """Seed step by step without model/: remaining valid = (te-est)*vv/est per UF, split as counted."""
    projected: dict[str, float] = {}
    te_sum = est_sum = 0
    for name in folder_files:
        d = json.loads((FIRST / name).read_text(encoding="utf-8"))
        te, est, vv = int(d["e"]["te"]), int(d["e"]["est"]), int(d["v"]["vv"])
        te_sum, est_sum = te_sum + te, est_sum + est
        remaining = (te - est) * vv / est
        for agr in d["carg"][0]["agr"]:
            for par in agr["par"]:
                for c in par["cand"]:
                    v = int(c["vap"])
                    projected[c["n"]] = projected.get(c["n"], 0.0) + v + remaining * v / vv
    total = sum(projected.values())
    return {n: 100 * v / total for n, v in projected.items()}, total, 100 * est_sum / te_sum


def test_first_capture_matches_hand_computation() -> None:
    snap = read_snapshot(FIRST)
    out = project(snap, calibracao=load_calibration(), baselines=baselines())
    files = sorted(
        n for n in snap.arquivos if n.endswith("-c0001-e006257-u.json") and not n.startswith("br-")
    )
    assert len(files) == 28
    pct, total, apurado = hand_projection(files)
    assert out["eleicao"] == "6257" and out["turno"] == 1
    assert out["modo"] == "presidente_sem_correcao"  # 1st round: no runoff drift curve applies
    assert abs(out["apurado_pct"] - apurado) < 1e-4
    got = {str(c["numero"]): c for c in out["forecast"]["candidatos"]}
    for n in ("13", "22", "70"):
        assert abs(got[n]["pct"] - pct[n]) < 1e-4
        assert got[n]["pct"] == got[n]["sem_correcao"]
    assert abs(out["forecast"]["validos_projetados"] - total) <= 1
    # One part by hand, Acre: te 613742, est 438360, vv 336098, Flávio 216488, Lula 96001.
    ac = next(s for s in out["estratos"] if s["id"] == "ac")
    remaining = (613742 - 438360) * 336098 / 438360
    assert ac["validos_restantes_estimados"] == round(remaining)
    assert ac["candidatos"]["22"] == round(216488 + remaining * 216488 / 336098)
    assert ac["candidatos"]["13"] == round(96001 + remaining * 96001 / 336098)
    assert ac["base"] == "parcial"
    # Official partial = the national file (lags the UF files by minutes).
    assert out["parcial"]["fonte"] == "br-c0001-e006257-u.json"
    assert {c["numero"]: c["votos"] for c in out["parcial"]["candidatos"]}[22] == 18644760
    # All criteria but none broken: 28 valid files, skew and age within 5 min at capture time.
    assert out["criterios_nao_atendidos"] == []
    assert out["publicavel"] is True
    # Projection is closer to the final (Lula 45.16, Flávio 47.03) than the partial.
    partial = {c["numero"]: c["pct"] for c in out["parcial"]["candidatos"]}
    assert abs(got["13"]["pct"] - 45.16) < abs(partial[13] - 45.16)


def test_second_capture_lacks_rs_and_is_not_publishable() -> None:
    out = project(read_snapshot(SECOND), calibracao=load_calibration(), baselines=baselines())
    rs = next(s for s in out["estratos"] if s["id"] == "rs")
    assert rs["valido"] is False and rs["motivo"] == "arquivo ausente"
    assert "eleitorado_sem_arquivo_valido" in out["criterios_nao_atendidos"]
    assert out["publicavel"] is False
    assert out["parcial"]["candidatos"]  # the official partial is still there


def test_same_input_same_bytes() -> None:
    cal, base = load_calibration(), baselines()
    a = to_json_bytes(project(read_snapshot(FIRST), calibracao=cal, baselines=base))
    b = to_json_bytes(project(read_snapshot(FIRST), calibracao=cal, baselines=base))
    assert a == b
