"""The live drift check end to end: two readings through `project`, the output says the correction was
dropped (Portuguese keys) and the race page says so."""

from __future__ import annotations

import dataclasses
from typing import Any

from model.calibration import Calibration, RegraVerificacao
from model.forecast import project, to_json_bytes
from site_builder.projecao_dados import parse_saida
from site_builder.projecao_view import correction_text
from tests.model.helpers import NOW, Part, baselines, calibration, president_files, snapshot_of


def _cal() -> Calibration:
    return dataclasses.replace(
        calibration(), verificacao_deriva=RegraVerificacao(0.5, 1.75, 10.0, 90.0, 5.0, 1)
    )


def _night(cal: Calibration, final_ac: Part) -> tuple[dict[str, Any], dict[str, Any]]:
    first = president_files({"ac": Part(te=1_000_000, est=500_000, ts=3000, st=1500)})
    second = president_files({"ac": final_ac})
    kw: dict[str, Any] = {"calibracao": cal, "baselines": baselines(), "agora": NOW}
    a = project(snapshot_of(first), **kw)
    b = project(snapshot_of(second), saida_anterior=a, **kw)
    return a, b


def test_a_finished_uf_far_from_the_curve_drops_the_correction() -> None:
    # AC counted 50 % Lula at half its sections and finished at 37.5 %: +12.5 points of drift where the
    # curve predicted a small negative one.
    far = Part(te=1_000_000, est=1_000_000, ts=3000, st=3000, votes={13: 300_000, 22: 500_000})
    a, b = _night(_cal(), far)
    assert a["verificacao_deriva"]["estado"] == "dados_insuficientes"
    assert a["modo"] == "presidente"
    v = b["verificacao_deriva"]
    assert v["estado"] == "fora" and v["acao"] == "sem_correcao"
    assert v["razao_observada"] < 0.5 and v["faixa_tolerada"] == [0.5, 1.75]
    assert v["ufs_finalizadas"] == 1
    assert b["modo"] == "presidente_sem_correcao"
    assert b["forecast"]["tabela_faixa"] == "presidente_sem_correcao"
    assert b["forecast"]["correcao_pp"] == 0.0
    text = correction_text(parse_saida(to_json_bytes(b)))
    assert text is not None and text.startswith("Sem a correção da deriva")
    assert "0,50 a 1,75" in text


def test_without_the_rule_or_in_sem_correcao_mode_nothing_changes() -> None:
    far = Part(te=1_000_000, est=1_000_000, ts=3000, st=3000, votes={13: 300_000, 22: 500_000})
    off = dataclasses.replace(calibration(), verificacao_deriva=None)
    _, b = _night(off, far)
    assert b["verificacao_deriva"]["estado"] == "desativada"
    assert b["modo"] == "presidente"
    out = project(
        snapshot_of(president_files()),
        calibracao=_cal(),
        baselines=baselines(),
        agora=NOW,
        corrigir_deriva=False,
    )
    assert out["verificacao_deriva"]["estado"] == "nao_aplicavel"
    assert correction_text(parse_saida(to_json_bytes(out))) is None
