"""The calibration fitted on the regional replays (`regional`), and the choice of the one that survives.

Rules:

* drift curve (president, runoff): mean uncorrected error of the reference candidate over the
  scale-1 runoff replays (the 2022 runoff in its real regional order), on the 5-point grid (as in
  `calibrar.curva_media`);
* president band (with correction), per 1-point bin of % counted: the largest, over the drift
  scales, of the `q`-quantile of the corrected error's size (the curve fitted at scale 1 applied to
  every scale, since 2026's drift is unknown);
* `presidente_sem_correcao` band: the largest, over the runoff scales and the two real 1st rounds, of
  the `q`-quantile of the uncorrected error's size (the mode the live check falls back to must hold
  whatever the drift);
* expected mean error (president): mean corrected error's size per bin at scale 1;
* governor tables: kept from the calibration in force (not refitted here);
* raw partial's error: mean size at scale 1, or the real 2022 runoff national partial's where larger;
* live drift check (`faixa_razao`): the tolerated observed/predicted ratio runs from the 2.5 %
  quantile of the ratios the check read under this calibration's curve (never acting) on the
  smallest drift scale to the 97.5 % quantile on the largest, so it drops the correction only when
  the night's drift is unlike any the band was fitted on (the ratio is noisy: finished UFs carry
  their own random within-UF order). `aplicar_verificacao` then replays the check's decisions.

`escolher` tries `QUANTIS` in increasing order, each fitted on even seeds and scored on odd seeds
and vice versa (2-fold cross-fit), and keeps the first that meets both targets on every scale and
real night: coverage >= `COBERTURA_MINIMA` in every 5-point bin from 10 % counted and no wrong
`tendencia`. If none does, the one with no wrong `tendencia` and the best worst-bin coverage.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from model.backtest.calibrar import (
    GRADE,
    PISO,
    arredondar,
    curva_media,
    documento,
    erro_parcial,
    erro_sem,
    faixas_da_base,
    linhas_tabela,
    media_por_faixa,
    por_ponto,
    replays,
)
from model.backtest.metricas import Ponto, faixa_de, pontuar, quantil, tendencia
from model.backtest.pipeline import calibration_bytes
from model.backtest.regional import APURADO_MINIMO
from model.backtest.replay import Linha
from model.bands import interpolate_grid
from model.calibration import Calibration, parse_calibration

QUANTIS = (0.90, 0.95, 0.98, 0.99, 1.0)
COBERTURA_MINIMA = 85.0

# Live drift check: UF progress range compared, minimum weight of finished UFs, minimum UF x readings.
APURADO_VERIFICACAO = (10.0, 90.0)
PESO_MINIMO_PCT = 10.0
LEITURAS_MINIMAS = 3
VERIFICACAO = {
    "apurado_pct": list(APURADO_VERIFICACAO),
    "peso_minimo_pct": PESO_MINIMO_PCT,
    "leituras_minimas": LEITURAS_MINIMAS,
}
LEITURA = (-1e9, 1e9)  # a tolerated range that never acts: the check only reads its ratio
QUANTIL_RAZAO = 0.025  # tolerated ratio: central 95 % of what the check read at the extreme scales


def escala_de(ln: Linha) -> float:
    """Drift scale of a regional replay id (`2022_2t-x1.75-s0007` -> 1.75)."""
    return float(ln.noite.split("-")[1][1:])


def semente_de(ln: Linha) -> int:
    """Seed of a regional replay id."""
    return int(ln.noite.split("-")[2][1:])


def grupo_de(ln: Linha) -> str:
    """Scoring group: `2022_2t x1.75`, `2022_1t`, `2026_1t`."""
    night = ln.noite.split("-")[0]
    return f"{night} x{escala_de(ln):g}" if night == "2022_2t" else night


def _corrigido(ln: Linha, deriva: Sequence[float]) -> float:
    return erro_sem(ln) - interpolate_grid(GRADE, tuple(deriva), ln.apurado)


def _max_over(groups: Iterable[dict[int, float]]) -> dict[int, float]:
    out: dict[int, float] = {}
    for g in groups:
        for b, v in g.items():
            out[b] = max(out.get(b, 0.0), v)
    return out


def ajustar(
    linhas: Sequence[Linha],
    base: Calibration,
    ident: str,
    prov: dict[str, Any],
    q: float,
    serie_real: Sequence[tuple[float, float]],
    faixa_tolerada: Sequence[float] = LEITURA,
) -> dict[str, Any]:
    """The calibration object (JSON-ready) fitted from the regional replays (module docstring); the
    check's tolerated range comes from `faixa_razao` (default: read the ratio, never act)."""
    lim = list(base.limites_pct)
    by_group: dict[str, list[Linha]] = {}
    for ln in linhas:
        by_group.setdefault(grupo_de(ln), []).append(ln)
    runoff = {g: v for g, v in by_group.items() if g.startswith("2022_2t")}
    first = {g: v for g, v in by_group.items() if not g.startswith("2022_2t")}
    um = replays(runoff["2022_2t x1"])
    deriva = arredondar(curva_media(um, erro_sem))

    def qf(v: list[float]) -> float:
        return quantil(v, q)

    pres = _max_over(
        por_ponto(((ln.apurado, abs(_corrigido(ln, deriva))) for ln in v), qf) for v in runoff.values()
    )
    sem = _max_over(
        por_ponto(((ln.apurado, abs(erro_sem(ln))) for ln in v), qf)
        for v in (*runoff.values(), *first.values())
    )
    media = por_ponto(
        ((ln.apurado, abs(_corrigido(ln, deriva))) for g in um for ln in g), lambda v: sum(v) / len(v)
    )
    faixas: dict[str, Any] = {"limites_pct": lim}
    faixas["presidente"] = linhas_tabela(pres, lim, lim[0], PISO["presidente"])
    faixas["presidente_erro_medio"] = media_por_faixa(media, lim, lim[0])
    faixas["presidente_sem_correcao"] = linhas_tabela(sem, lim, lim[0], PISO["presidente_sem_correcao"])
    for key in ("governador_municipio", "governador_zona", "governador_degradado"):
        faixas[key] = faixas_da_base(base, key)
    parcial = curva_media(um, lambda ln: abs(erro_parcial(ln)))
    real = [
        abs(interpolate_grid(tuple(x for x, _ in serie_real), tuple(y for _, y in serie_real), x))
        for x in GRADE
    ]
    erro_parc = [max(a, b) for a, b in zip(parcial, real, strict=True)]
    erro_parc[-1] = 0.0
    out = documento(ident, prov, faixas, base, deriva, erro_parc)
    out["verificacao_deriva"] = {"faixa_tolerada": list(faixa_tolerada), **VERIFICACAO}
    out["backtest"] = {**prov["backtest"], "quantil_faixa": q}
    return out


def faixa_razao(linhas: Sequence[Linha]) -> list[float]:
    """Tolerated ratio range from runoff replays read under the calibration (module docstring)."""
    by_scale: dict[float, list[float]] = {}
    for ln in linhas:
        if grupo_de(ln).startswith("2022_2t") and ln.deriva_suficiente and ln.deriva_razao is not None:
            by_scale.setdefault(escala_de(ln), []).append(ln.deriva_razao)
    lo, hi = by_scale[min(by_scale)], by_scale[max(by_scale)]
    return arredondar([quantil(lo, QUANTIL_RAZAO), quantil(hi, 1.0 - QUANTIL_RAZAO)])


def aplicar_verificacao(linhas: Sequence[Linha], cal: Calibration) -> list[Linha]:
    """The check's decisions under `cal`'s tolerated range, from replays that only read the ratio
    (same rule as `model.drift_check.verificar`: out once the ratio, with enough data, leaves the
    range; then out for the rest of the night)."""
    regra = cal.verificacao_deriva
    out: list[Linha] = []
    for g in replays(linhas):
        fora = False
        for ln in g:
            r = ln.deriva_razao
            if regra is not None and ln.deriva_suficiente and r is not None:
                fora = fora or not regra.razao_min <= r <= regra.razao_max
            out.append(dataclasses.replace(ln, deriva_fora=fora))
    return out


@dataclass(frozen=True)
class Avaliacao:
    """Scores of one calibration choice, per scoring group."""

    q: float
    pontos: dict[str, list[Ponto]]  # group -> scored captures from APURADO_MINIMO on

    def cobertura_minima(self) -> dict[str, float]:
        """Worst 5-point-bin coverage per group, %."""
        out = {}
        for g, ps in self.pontos.items():
            cells: dict[int, list[bool]] = {}
            for p in ps:
                cells.setdefault(faixa_de(p.linha.apurado), []).append(p.coberto)
            out[g] = min(100.0 * sum(v) / len(v) for v in cells.values())
        return out

    def noites_erradas(self) -> dict[str, int]:
        """Replays in which `tendencia` named the wrong winner, per group."""
        return {g: tendencia(ps).replays_com_erro for g, ps in self.pontos.items()}

    def passa(self) -> bool:
        """Both targets on every group."""
        return all(v >= COBERTURA_MINIMA for v in self.cobertura_minima().values()) and not any(
            self.noites_erradas().values()
        )


def pontuar_grupos(linhas: Iterable[Linha], cal: Calibration, verificacao: bool) -> dict[str, list[Ponto]]:
    """Score captures from APURADO_MINIMO on, by group; with `verificacao` the live check's choice
    (recorded in the replay) decides between the corrected and uncorrected band."""
    out: dict[str, list[Ponto]] = {}
    for ln in linhas:
        if ln.apurado >= APURADO_MINIMO:
            corrigir = not (verificacao and ln.deriva_fora)
            out.setdefault(grupo_de(ln), []).append(pontuar(ln, cal, corrigir=corrigir))
    return dict(sorted(out.items()))


def validacao_cruzada(
    linhas: Sequence[Linha],
    base: Calibration,
    prov: dict[str, Any],
    q: float,
    serie_real: Sequence[tuple[float, float]],
) -> Avaliacao:
    """Fit on even seeds, score odd seeds, and vice versa (check off: the corrected band throughout)."""
    pontos: dict[str, list[Ponto]] = {}
    for par in (0, 1):
        fit = [ln for ln in linhas if semente_de(ln) % 2 == par]
        test = [ln for ln in linhas if semente_de(ln) % 2 != par]
        cal = parse_calibration(
            calibration_bytes(ajustar(fit, base, "validacao-cruzada", prov, q, serie_real))
        )
        for g, ps in pontuar_grupos(test, cal, verificacao=False).items():
            pontos.setdefault(g, []).extend(ps)
    return Avaliacao(q, dict(sorted(pontos.items())))


def escolher(
    linhas: Sequence[Linha],
    base: Calibration,
    prov: dict[str, Any],
    serie_real: Sequence[tuple[float, float]],
) -> tuple[float, list[Avaliacao]]:
    """The band quantile to use, and the cross-fit evaluation of every quantile tried (module docstring)."""
    tried = []
    for q in QUANTIS:
        av = validacao_cruzada(linhas, base, prov, q, serie_real)
        tried.append(av)
        if av.passa():
            return q, tried
    safe = [a for a in tried if not any(a.noites_erradas().values())] or tried
    best = max(safe, key=lambda a: (min(a.cobertura_minima().values()), -a.q))
    return best.q, tried
