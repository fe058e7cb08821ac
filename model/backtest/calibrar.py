"""The calibration fitted from the replays: drift curve, band tables, expected errors.

Rules (seed, "4b" and "Faixa de erro"):

* drift curve (president, runoff): the mean error (uncorrected projection - final) of the
  reference candidate at each point of the 5-point grid, over the simulated runoff nights (each
  night's error curve interpolated at the grid point); flat below 10 % (nothing is published
  there and the first captures hold a handful of sections); 0 at 100 %;
* president band (with correction), per 1-point bin of % counted: the larger of (a) the worst
  error after correction (simulated 2022 runoff and 1st round, each with its own curve, and the
  real 2026 1st-round test) plus the inter-election bias, and (b) 75 % of the correction at that
  level. The bias is the mean error the simulated 2022 1st-round curve left on the real 2026
  1st-round captures, taken relative to the correction it made there and applied in proportion
  to the runoff curve at each level;
* `presidente_sem_correcao` band: the worst uncorrected error (same sets);
* expected mean error (president): mean absolute error after correction per bin (runoff nights);
* governor by municipality, DF by zone, degraded governor: the value that covered 90 % of the
  captures per bin (seed: "o valor que cobriu 90% dos instantes") over the 38 state races
  (12 real governor runoffs + 26 presidential races inside a state) / DF by zone / the raw UF
  partial of those 38 races;
* raw partial's error (`erro_parcial`): mean absolute error of the national raw partial in the
  simulated runoff nights, or the real series' error (2022 runoff, 2026 1st round) where larger.

Band tables are then shaped like the seed's: per range [10,20), [20,30), [30,50), [50,70), [70,90),
[90,98), [98,100], a straight line [start, end] that stays above the non-increasing envelope of the
required values, rounded up to 0.01 point, never below the published table's last value.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from model.backtest.metricas import quantil
from model.backtest.replay import Linha
from model.bands import interpolate_grid
from model.calibration import Calibration

GRADE = tuple(float(x) for x in range(0, 101, 5))
INICIO_CURVA = 10.0  # the curve is flat below this % counted
FRACAO_CORRECAO = 0.75  # seed: "(b) 75% do tamanho da própria correção"
QUANTIL_GOVERNADOR = 0.90  # seed: "o valor que cobriu 90% dos instantes"
PISO = {  # never below the published table's last value
    "presidente": 0.05,
    "presidente_sem_correcao": 0.05,
    "governador_municipio": 0.05,
    "governador_zona": 0.06,
    "governador_degradado": 0.1,
}


def _curve(points: Sequence[tuple[float, float]], x: float) -> float:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return interpolate_grid(tuple(xs), tuple(ys), x)


def replays(linhas: Iterable[Linha]) -> list[list[Linha]]:
    """Lines grouped by replay (night, race, variant), each in capture order; groups in key order."""
    out: dict[tuple[str, str, str], list[Linha]] = {}
    for ln in linhas:
        out.setdefault((ln.noite, ln.disputa, ln.variante), []).append(ln)
    return [sorted(v, key=lambda x: x.captura) for _, v in sorted(out.items())]


def erro_sem(ln: Linha) -> float:
    """Uncorrected projection error of the reference candidate, points."""
    return dict(ln.sem_correcao).get(ln.candidato, 0.0) - ln.final


def erro_parcial(ln: Linha) -> float:
    """Raw partial's error of the reference candidate, points."""
    return ln.parcial - ln.final


def curva_media(grupos: Sequence[Sequence[Linha]], valor: Callable[[Linha], float]) -> list[float]:
    """Mean over replays of `valor` interpolated at each grid point (flat below INICIO_CURVA, 0 at 100)."""
    if not grupos:
        return [0.0] * len(GRADE)
    sums = [0.0] * len(GRADE)
    for g in grupos:
        pts = sorted({(ln.apurado, valor(ln)) for ln in g})
        for i, x in enumerate(GRADE):
            sums[i] += _curve(pts, max(x, INICIO_CURVA))
    out = [s / len(grupos) for s in sums]
    out[-1] = 0.0
    return out


def arredondar(v: Sequence[float], casas: int = 2) -> list[float]:
    """Round half away from zero to `casas` decimals (stable text in the JSON)."""
    f = 10**casas
    return [math.copysign(math.floor(abs(x) * f + 0.5) / f, x) + 0.0 for x in v]


def por_ponto(
    pares: Iterable[tuple[float, float]], agregar: Callable[[list[float]], float]
) -> dict[int, float]:
    """Aggregate values by 1-point bin of % counted: {bin start: agregar(values)}."""
    acc: dict[int, list[float]] = {}
    for x, v in pares:
        acc.setdefault(min(int(x), 99), []).append(v)
    return {b: agregar(vs) for b, vs in sorted(acc.items())}


def linhas_tabela(
    exigido: dict[int, float], limites: Sequence[float], publica_de: float, piso: float
) -> list[list[float] | None]:
    """Rows [start, end] per range, above the non-increasing envelope of `exigido` (module docstring)."""
    envelope: dict[int, float] = {}
    running = piso
    for pt in range(99, -1, -1):
        running = max(running, exigido.get(pt, 0.0))
        envelope[pt] = running
    rows: list[list[float] | None] = []
    for lo, hi in itertools.pairwise(limites):
        if lo < publica_de:
            rows.append(None)
            continue
        bins = list(range(int(lo), int(hi)))
        a, b = envelope[bins[0]], envelope[bins[-1]]
        short = 0.0
        for p in bins:  # the line at the bin's upper edge must still cover the bin
            x = (p + 1 - lo) / (hi - lo)
            short = max(short, envelope[p] - (a + (b - a) * x))
        rows.append([a + short, b + short])
    up = [
        None if r is None else [math.ceil(r[0] * 100 - 1e-9) / 100, math.ceil(r[1] * 100 - 1e-9) / 100]
        for r in rows
    ]
    nxt = 0.0  # no range may start above where the previous one ends
    for i in range(len(up) - 1, -1, -1):
        r = up[i]
        if r is None:
            continue
        r[1] = max(r[1], nxt)
        r[0] = max(r[0], r[1])
        nxt = r[0]
    return up


def media_por_faixa(
    por_bin: dict[int, float], limites: Sequence[float], publica_de: float
) -> list[list[float] | None]:
    """Expected mean error rows: mean over each range's first and last 5 points (2 decimals)."""
    rows: list[list[float] | None] = []
    for lo, hi in itertools.pairwise(limites):
        if lo < publica_de:
            rows.append(None)
            continue
        width = min(5, int(hi - lo))
        first = [por_bin[b] for b in range(int(lo), int(lo) + width) if b in por_bin]
        last = [por_bin[b] for b in range(int(hi) - width, int(hi)) if b in por_bin]
        a = sum(first) / len(first) if first else 0.0
        b = sum(last) / len(last) if last else a
        rows.append(arredondar([a, b]))
    return rows


@dataclass(frozen=True)
class TesteIndependente:
    """The 2022 1st-round curve applied to the real 2026 1st-round captures."""

    apurado: list[float]
    erro_sem: list[float]
    erro_corrigido: list[float]
    vies: float  # |mean error after correction|


def teste_independente(curva_1t: Sequence[float], reais: Sequence[Linha]) -> TesteIndependente:
    """Apply the simulated 1st-round curve (grid GRADE) to real 1st-round captures."""
    ap = [ln.apurado for ln in reais]
    sem = [erro_sem(ln) for ln in reais]
    corr = [
        e - interpolate_grid(GRADE, tuple(curva_1t), ln.apurado) for e, ln in zip(sem, reais, strict=True)
    ]
    vies = abs(sum(corr) / len(corr)) if corr else 0.0
    return TesteIndependente(ap, sem, corr, vies)


def _corrigido(ln: Linha, curva: Sequence[float]) -> float:
    return erro_sem(ln) - interpolate_grid(GRADE, tuple(curva), ln.apurado)


def ajustar(
    linhas: Sequence[Linha],
    reais_1t: Sequence[Linha],
    base: Calibration,
    identificacao: str,
    proveniencia: dict[str, Any],
    series_reais: dict[str, list[tuple[float, float]]],
) -> dict[str, Any]:
    """The calibration object (JSON-ready) fitted from pass-1 lines; `base` fills what has no data.

    `series_reais` are real national partial series (% counted, error of the reference candidate)
    that also bound the raw partial's expected error; `proveniencia` holds the texts of the file.
    """
    lim = list(base.limites_pct)
    uf2 = [g for g in replays(ln for ln in linhas if ln.disputa == "presidente" and ln.variante == "uf")]
    mun2 = [
        g for g in replays(ln for ln in linhas if ln.disputa == "presidente" and ln.variante == "municipio")
    ]
    uf1 = [g for g in replays(ln for ln in linhas if ln.disputa == "presidente-1t")]
    deriva = arredondar(curva_media(uf2, erro_sem)) if uf2 else list(base.deriva_pp)
    deriva_1t = curva_media(uf1, erro_sem)
    teste = teste_independente(deriva_1t, reais_1t) if uf1 and reais_1t else None
    # Inter-election bias, relative: what the 1st-round curve left on the real test, as a fraction of
    # the correction it made there; applied in proportion to the runoff curve at each level (a bias
    # measured at 37-40 % counted does not apply as such at 99 %).
    vies = teste.vies if teste else 0.0
    vies_rel = 0.0
    if teste:
        applied = [abs(interpolate_grid(GRADE, tuple(deriva_1t), a)) for a in teste.apurado]
        vies_rel = vies / (sum(applied) / len(applied)) if sum(applied) > 0 else 0.0

    def runoff(lines: Iterable[Linha]) -> list[tuple[float, float]]:
        return [(ln.apurado, abs(_corrigido(ln, deriva))) for ln in lines]

    worst = list(runoff(ln for g in uf2 for ln in g))
    worst += [(ln.apurado, abs(_corrigido(ln, deriva_1t))) for g in uf1 for ln in g]
    if teste:
        worst += [(a, abs(e)) for a, e in zip(teste.apurado, teste.erro_corrigido, strict=True)]
    a_part = por_ponto(worst, max)
    exigido = {}
    for b in range(100):
        size = abs(interpolate_grid(GRADE, tuple(deriva), b + 0.5))
        exigido[b] = max(a_part.get(b, 0.0) + vies_rel * size, FRACAO_CORRECAO * size)
    faixas: dict[str, Any] = {"limites_pct": lim}
    faixas["presidente"] = (
        linhas_tabela(exigido, lim, lim[0], PISO["presidente"]) if uf2 else faixas_da_base(base, "presidente")
    )
    media = por_ponto(runoff(ln for g in uf2 for ln in g), lambda v: sum(v) / len(v))
    faixas["presidente_erro_medio"] = (
        media_por_faixa(media, lim, lim[0])
        if uf2
        else [list(r) if r else None for r in base.erro_medio_presidente]
    )
    sem_pairs = [(ln.apurado, abs(erro_sem(ln))) for g in (*uf2, *uf1) for ln in g]
    sem_pairs += [(ln.apurado, abs(erro_sem(ln))) for ln in reais_1t]
    faixas["presidente_sem_correcao"] = (
        linhas_tabela(por_ponto(sem_pairs, max), lim, lim[0], PISO["presidente_sem_correcao"])
        if uf2
        else faixas_da_base(base, "presidente_sem_correcao")
    )
    gov_start = next(
        (lim[i] for i, r in enumerate(base.faixas["governador_municipio"]) if r is not None), 20.0
    )
    q90 = lambda v: quantil(v, QUANTIL_GOVERNADOR)  # noqa: E731
    gov = [ln for ln in linhas if ln.variante == "governador_municipio"]
    zona = [ln for ln in linhas if ln.variante == "governador_zona"]
    for key, lines, fn in (
        ("governador_municipio", gov, erro_sem),
        ("governador_zona", zona, erro_sem),
        ("governador_degradado", gov, erro_parcial),
    ):
        faixas[key] = (
            linhas_tabela(
                por_ponto(((ln.apurado, abs(fn(ln))) for ln in lines), q90), lim, gov_start, PISO[key]
            )
            if lines
            else faixas_da_base(base, key)
        )
    parcial_sim = curva_media(uf2, lambda ln: abs(erro_parcial(ln))) if uf2 else list(base.erro_parcial_pp)
    erro_parc = []
    for i, x in enumerate(GRADE):
        vals = [parcial_sim[i]] + [abs(_curve(pts, x)) for pts in series_reais.values()]
        erro_parc.append(max(vals))
    erro_parc[-1] = 0.0
    out = documento(identificacao, proveniencia, faixas, base, deriva, erro_parc)
    out["backtest"] = {
        **proveniencia["backtest"],
        "deriva_1turno_2022_simulada": arredondar(deriva_1t),
        "deriva_municipio": arredondar(curva_media(mun2, erro_sem)) if mun2 else None,
        "vies_entre_eleicoes_pp": round(vies, 4),
        "vies_entre_eleicoes_relativo": round(vies_rel, 4),
        "teste_independente_2026": None
        if teste is None
        else {
            "apurado_pct": [round(x, 4) for x in teste.apurado],
            "erro_sem_correcao_pp": [round(x, 4) for x in teste.erro_sem],
            "erro_corrigido_pp": [round(x, 4) for x in teste.erro_corrigido],
        },
    }
    return out


def documento(
    identificacao: str,
    proveniencia: dict[str, Any],
    faixas: dict[str, Any],
    base: Calibration,
    deriva: list[float],
    erro_parc: list[float],
) -> dict[str, Any]:
    """The head every fitted calibration file shares (id, bands, drift curve, partial's error), in
    file order; each fit appends its own backtest keys."""
    return {
        "id": identificacao,
        "versao_modelo": proveniencia["versao_modelo"],
        "nota": proveniencia["nota"],
        "faixas": faixas,
        "deriva": {
            "candidato_referencia": base.deriva_candidato,
            "grade_pct": list(GRADE),
            "deriva_pp": deriva,
            "nota": "Erro médio (projeção - final) da participação do candidato de referência, em "
            "pontos, por % do eleitorado apurado; a projeção publicada subtrai o valor interpolado.",
            "proveniencia": proveniencia["deriva"],
        },
        "erro_parcial": {
            "grade_pct": list(GRADE),
            "erro_parcial_pp": arredondar(erro_parc),
            "proveniencia": proveniencia["erro_parcial"],
        },
    }


def faixas_da_base(base: Calibration, key: str) -> list[list[float] | None]:
    """Band rows of `key` carried over unchanged from `base`."""
    return [list(r) if r is not None else None for r in base.faixas[key]]
