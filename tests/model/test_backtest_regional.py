"""Replays in the real regional order (model/backtest/regioes.py, regional.py, calibrar_regional.py):
the regional clock, the calibration in force at drift x0.5 / x1 / x1.75, and the live drift check."""

from __future__ import annotations

import dataclasses
import functools
import json

import pytest

from model.backtest import calibrar_regional as cr
from model.backtest.chegada import carregar_parametros, grupos
from model.backtest.dados import DATASETS_PADRAO
from model.backtest.executar import dados_de
from model.backtest.metricas import faixa_de
from model.backtest.pipeline_regional import MARCA_FIM, MARCA_INICIO, bloco_existente, inserir_bloco
from model.backtest.regioes import PARAMETROS_REGIONAIS_PATH, ajustar_noite, carregar_efeitos, relogio
from model.backtest.regional import ConfigRegional, Tarefa, ler_noites_cache, noite_regional, rodar_tarefa
from model.backtest.replay import Linha
from model.calibration import load_calibration

pytestmark = pytest.mark.skipif(
    not (DATASETS_PADRAO / "timeseries/regioes/apuracao_por_minuto_regiao.csv").is_file(),
    reason="shared/datasets not available",
)
# A few fixed nights (seconds, not minutes). The band is the 90 % quantile: about one night in ten
# has a stretch outside it (seed 1 is one); the per-bin floor over all 100 nights per scale is
# asserted by the backtest itself (docs/BACKTEST.md), here on nights 2-4 as a regression check.
SEMENTES = (2, 3, 4)


@functools.lru_cache(maxsize=32)
def _replay(
    noite: str, escala: float, semente: int, tolerada: tuple[float, float] | None = None
) -> tuple[Linha, ...]:
    """One night under the calibration in force, or with the live check's range set to `tolerada`."""
    cfg = ConfigRegional(DATASETS_PADRAO)
    cal = load_calibration()
    if tolerada is not None:
        assert cal.verificacao_deriva is not None
        regra = dataclasses.replace(cal.verificacao_deriva, razao_min=tolerada[0], razao_max=tolerada[1])
        cal = dataclasses.replace(cal, verificacao_deriva=regra)
    lines = rodar_tarefa(cfg, carregar_parametros(), carregar_efeitos(), cal, Tarefa(noite, escala, semente))
    return tuple(lines)


def test_each_region_advances_as_it_really_did() -> None:
    """The simulated night's regional progress at each real minute is the real one (to a batch)."""
    dados = dados_de(DATASETS_PADRAO, None)
    real = ler_noites_cache(DATASETS_PADRAO)["2022_2t"]
    noite = noite_regional(carregar_parametros(), dados.unidades, real, carregar_efeitos()["2022_2t"], 1.0, 3)
    total: dict[str, int] = {}
    for u in dados.unidades:
        total[u.regiao] = total.get(u.regiao, 0) + u.secoes
    for reg in ("N", "NE", "CO", "SE", "S"):
        xs, ys = relogio(real.curvas[reg])
        for pct_real, minuto in zip(xs[1::15], ys[1::15], strict=False):
            done = sum(
                lo.secoes
                for lo in noite.lotes
                if lo.minuto <= minuto and dados.unidades[lo.unidade].regiao == reg
            )
            assert 100.0 * done / total[reg] == pytest.approx(pct_real, abs=1.0), (reg, minuto)


@pytest.mark.parametrize("escala", [0.5, 1.0, 1.75])
def test_calibration_in_force_survives_the_drift_scales(escala: float) -> None:
    """Calibration in force, live check on: no wrong trend, band covers >= 85 % in every 5-point bin."""
    cal = load_calibration()
    lines = [ln for s in SEMENTES for ln in _replay("2022_2t", escala, s)]
    pontos = cr.pontuar_grupos(lines, cal, verificacao=True)[f"2022_2t x{escala:g}"]
    assert not any(p.errou_vencedor for p in pontos)
    cells: dict[int, list[bool]] = {}
    for p in pontos:
        cells.setdefault(faixa_de(p.linha.apurado), []).append(p.coberto)
    worst = min(100.0 * sum(v) / len(v) for v in cells.values())
    assert worst >= cr.COBERTURA_MINIMA


def test_first_round_replay_in_2026_order_names_no_wrong_winner() -> None:
    pontos = cr.pontuar_grupos(_replay("2026_1t", 1.0, 0), load_calibration(), verificacao=True)["2026_1t"]
    assert pontos and not any(p.errou_vencedor for p in pontos)


@pytest.mark.parametrize("escala", [0.5, 1.75])
def test_live_check_decisions_are_the_models_and_reach_the_output(escala: float) -> None:
    """On x0.5 and x1.75 nights: the model's own decisions equal the backtest's replay of the rule; with a
    narrow tolerated range the check drops the correction, says so, and stays out."""
    base = load_calibration()
    assert base.verificacao_deriva is not None
    read = _replay("2022_2t", escala, 0, (-1e9, 1e9))  # the check reads its ratio, never acts
    assert not any(ln.deriva_fora for ln in read)
    ratios = [ln.deriva_razao for ln in read if ln.deriva_suficiente and ln.deriva_razao is not None]
    assert ratios, "finished UFs must give the check a ratio during the night"
    mid = sorted(ratios)[len(ratios) // 2]
    narrow = (mid + 1e-3, mid + 2e-3)
    regra = base.verificacao_deriva
    for tolerada in (None, narrow):
        live = _replay("2022_2t", escala, 0, tolerada)
        lo, hi = tolerada or (regra.razao_min, regra.razao_max)
        cal = dataclasses.replace(
            base, verificacao_deriva=dataclasses.replace(regra, razao_min=lo, razao_max=hi)
        )
        offline = cr.aplicar_verificacao(list(read), cal)
        assert [ln.deriva_fora for ln in live] == [ln.deriva_fora for ln in offline]
    live = _replay("2022_2t", escala, 0, narrow)
    flags = [ln.deriva_fora for ln in live]
    first = flags.index(True)
    assert all(flags[first:])  # once out, out for the rest of the night
    assert [ln.sem_correcao for ln in live] == [ln.sem_correcao for ln in read]
    # With the check's choice, the night still names no wrong winner and the band still covers.
    pontos = cr.pontuar_grupos(live, base, verificacao=True)[f"2022_2t x{escala:g}"]
    assert not any(p.errou_vencedor for p in pontos)


def test_replays_are_deterministic() -> None:
    cfg = ConfigRegional(DATASETS_PADRAO)
    again = rodar_tarefa(
        cfg, carregar_parametros(), carregar_efeitos(), load_calibration(), Tarefa("2022_2t", 1.0, 0)
    )
    assert tuple(again) == _replay("2022_2t", 1.0, 0)


def test_stored_within_region_fit_is_reproduced() -> None:
    """chegada_regional.json is what `eleicoes backtest-regional --ajustar` computes (runoff night)."""
    efeitos, ajustes = ajustar_noite(
        carregar_parametros(),
        grupos(dados_de(DATASETS_PADRAO, None)),
        ler_noites_cache(DATASETS_PADRAO)["2022_2t"],
    )
    assert efeitos == carregar_efeitos()["2022_2t"]
    stored = json.loads(PARAMETROS_REGIONAIS_PATH.read_bytes())["noites"]["2022_2t"]["ajuste"]
    assert {a.regiao: round(a.rms(), 3) for a in ajustes} == {r: v["rms"] for r, v in stored.items()}


def test_regional_block_is_replaced_in_place() -> None:
    text = "# Title\n\nold report\n"
    once = inserir_bloco(text, f"{MARCA_INICIO}\nA\n{MARCA_FIM}\n")
    twice = inserir_bloco(once, f"{MARCA_INICIO}\nB\n{MARCA_FIM}\n")
    assert "old report" in twice and "\nB\n" in twice and "\nA\n" not in twice
    assert bloco_existente(twice) == f"{MARCA_INICIO}\nB\n{MARCA_FIM}\n"
