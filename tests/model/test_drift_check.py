"""The live drift check (model/drift_check.py): its arithmetic, its states and its running state."""

from __future__ import annotations

import dataclasses
import json

import pytest

from model.calibration import Calibration, RegraVerificacao, load_calibration
from model.drift import drift_at
from model.drift_check import ParteLida, verificar


def _cal(lo: float = 0.5, hi: float = 1.75, peso: float = 10.0, leituras: int = 2) -> Calibration:
    regra = RegraVerificacao(lo, hi, 10.0, 90.0, peso, leituras)
    return dataclasses.replace(load_calibration(), verificacao_deriva=regra)


def _night(cal: Calibration, escala: float) -> list[dict[str, ParteLida]]:
    """Two UFs: `aa` drifts `escala` x the curve at its own progress and finishes; `bb` is still counting."""
    out = []
    for pct in (20.0, 40.0, 60.0, 80.0, 100.0):
        d = drift_at(cal, pct) if pct < 100 else 0.0
        out.append(
            {
                "aa": ParteLida(50.0 + escala * d, 1000, pct),
                "bb": ParteLida(45.0, 3000, pct / 2),
            }
        )
    return out


def _run(cal: Calibration, night: list[dict[str, ParteLida]]) -> list[dict[str, object]]:
    outs: list[dict[str, object]] = []
    prev = None
    for partes in night:
        v = verificar(cal, prev, partes).to_json()
        outs.append(v)
        prev = {"verificacao_deriva": json.loads(json.dumps(v))}  # as stored in saida.json
    return outs


@pytest.mark.parametrize(
    ("escala", "estado"), [(1.0, "dentro"), (0.6, "dentro"), (3.0, "fora"), (-1.0, "fora")]
)
def test_ratio_recovers_the_scale_of_a_finished_uf(escala: float, estado: str) -> None:
    cal = _cal()
    last = _run(cal, _night(cal, escala))[-1]
    assert last["razao_observada"] == pytest.approx(escala, abs=1e-3)
    assert last["estado"] == estado
    assert last["acao"] == ("sem_correcao" if estado == "fora" else "correcao_mantida")
    assert last["ufs_finalizadas"] == 1
    assert last["leituras_usadas"] == 4  # aa between 10 and 90 % of its sections: 20, 40, 60, 80


def test_no_decision_before_finished_ufs_weigh_enough() -> None:
    cal = _cal(peso=30.0)  # aa holds 1000 / 4000 = 25 % of the valid votes
    outs = _run(cal, _night(cal, 5.0))
    assert [o["estado"] for o in outs] == ["dados_insuficientes"] * 5


def test_once_out_it_stays_out() -> None:
    cal = _cal()
    night = _night(cal, 3.0)
    night.append({"aa": night[-1]["aa"], "bb": ParteLida(45.0, 3000, 100.0)})  # bb finishes without drift
    outs = _run(cal, night)
    assert outs[-2]["estado"] == "fora"
    assert outs[-1]["estado"] == "fora"


def test_disabled_without_a_rule_and_restart_on_a_malformed_previous_output() -> None:
    cal = dataclasses.replace(load_calibration(), verificacao_deriva=None)
    assert verificar(cal, None, {}).estado == "desativada"
    fresh = verificar(_cal(), None, _night(_cal(), 1.0)[0])
    broken = verificar(_cal(), {"verificacao_deriva": {"acumulado": {"aa": "x"}}}, _night(_cal(), 1.0)[0])
    assert broken == fresh


def test_running_sums_survive_the_json_round_trip() -> None:
    """The next reading reuses the sums as stored: in memory and from saida.json give the same bytes."""
    cal = _cal()
    night = _night(cal, 1.3)
    prev_mem: dict[str, object] | None = None
    prev_json: dict[str, object] | None = None
    for partes in night:
        a = verificar(cal, prev_mem, partes).to_json()
        b = verificar(cal, prev_json, partes).to_json()
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
        prev_mem = {"verificacao_deriva": a}
        prev_json = json.loads(json.dumps({"verificacao_deriva": b}))
