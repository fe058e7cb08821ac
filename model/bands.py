"""Error bands: the seed's half-width table by % of electorate counted and race type.

Seed, "Faixa de erro": the table of half-widths (pp of a candidate) per range of electorate counted;
"±0,75 a ±0,70" over 30-50 % is read as a linear interpolation from 0.75 at 30 % to 0.70 at 50 %;
a single value is constant over its range. Ranges are [lower, upper); the last ("acima de 98%")
is [98, 100]. Below the lowest publishable range the first publishable row's start value is output
(and the minimum-counted criterion fails, so nothing is published).
"""

from __future__ import annotations

from dataclasses import dataclass

from model.calibration import Calibration, Row


def _row_value(limits: tuple[float, ...], rows: tuple[Row, ...], pct: float) -> float:
    first = next(i for i, r in enumerate(rows) if r is not None)
    p = min(max(pct, 0.0), 100.0)
    if p < limits[first]:
        row = rows[first]
        assert row is not None
        return row[0]
    for i, row in enumerate(rows):
        lo, hi = limits[i], limits[i + 1]
        if row is not None and (lo <= p < hi or (i == len(rows) - 1 and p >= lo)):
            return row[0] + (row[1] - row[0]) * (p - lo) / (hi - lo)
    last = rows[-1]
    assert last is not None
    return last[1]


def half_width(cal: Calibration, tabela: str, pct: float) -> float:
    """Candidate half-width (pp) for the band column `tabela` at `pct` % of electorate counted."""
    return _row_value(cal.limites_pct, cal.faixas[tabela], pct)


def margin_half_width(candidate_half_width: float) -> float:
    """Seed: "A faixa da margem (diferença A − B) é o dobro da faixa de cada candidato"."""
    return 2.0 * candidate_half_width


def expected_error(cal: Calibration, tabela: str, pct: float) -> float:
    """erro_medio_esperado.projecao; seed: "o maior entre o erro médio observado nos testes e metade
    da faixa".

    Observed mean errors exist only for the president (with correction); elsewhere it is half the band
    (`FONTES_ERRO`).
    """
    half = half_width(cal, tabela, pct) / 2.0
    if FONTES_ERRO[tabela].projecao == ERRO_DOS_TESTES:
        return max(_row_value(cal.limites_pct, cal.erro_medio_presidente, pct), half)
    return half


def partial_error(cal: Calibration, pct: float) -> float:
    """erro_medio_esperado.parcial: mean error of the raw partial at `pct` (provisional curve)."""
    return interpolate_grid(cal.erro_parcial_grade, cal.erro_parcial_pp, pct)


def interpolate_grid(grid: tuple[float, ...], values: tuple[float, ...], x: float) -> float:
    """Linear interpolation on a sorted grid, flat outside it."""
    if x <= grid[0]:
        return values[0]
    for i in range(1, len(grid)):
        if x <= grid[i]:
            x0, x1 = grid[i - 1], grid[i]
            return values[i - 1] + (values[i] - values[i - 1]) * (x - x0) / (x1 - x0)
    return values[-1]


# Which error figures each band table was tested for (issue 23, item 4): a page may show only these.
# `faixa`: "backtest" = measured by this project's replays (docs/BACKTEST.md), "metodo_original" = kept
# from the seed, never re-measured here. `projecao`: what erro_medio_esperado.projecao rests on:
# "testes" = the larger of the mean error observed in the replays and half the band (the seed's rule,
# both terms measured), "metade_da_faixa" = half the band only (no observed mean error for it in the
# calibration). `parcial`: the raw partial's mean error curve (erro_medio_esperado.parcial) was measured
# on the national president partial only, so it applies to the president's tables alone; in the
# degraded governor mode the projection is the partial itself.
@dataclass(frozen=True)
class FonteErro:
    """Where one band table's error figures come from (see the comment above)."""

    faixa: str
    projecao: str
    parcial: str | None

    def to_json(self) -> dict[str, str | None]:
        """The `erro_medio_esperado.fonte` object of `saida.json`."""
        return {"faixa": self.faixa, "projecao": self.projecao, "parcial": self.parcial}


FAIXA_MEDIDA, FAIXA_ORIGINAL = "backtest", "metodo_original"
# The president by municipality borrows the by-UF tables: measured, but for the other count.
FAIXA_EMPRESTADA = "emprestada_da_conta_por_uf"
ERRO_DOS_TESTES, METADE_DA_FAIXA = "testes", "metade_da_faixa"
PARCIAL_NACIONAL = "parcial_nacional_presidente"
FONTES_ERRO = {
    "presidente": FonteErro(FAIXA_MEDIDA, ERRO_DOS_TESTES, PARCIAL_NACIONAL),
    "presidente_sem_correcao": FonteErro(FAIXA_MEDIDA, METADE_DA_FAIXA, PARCIAL_NACIONAL),
    "governador_municipio": FonteErro(FAIXA_ORIGINAL, METADE_DA_FAIXA, None),
    "governador_zona": FonteErro(FAIXA_ORIGINAL, METADE_DA_FAIXA, None),
    "governador_degradado": FonteErro(FAIXA_ORIGINAL, METADE_DA_FAIXA, None),
}


def error_source(tabela: str, modo: str = "") -> FonteErro:
    """Where the error figures of the band column `tabela` come from (`FONTES_ERRO`); in the
    president-by-municipality modes the by-UF figures are borrowed, not measured for that count."""
    fonte = FONTES_ERRO[tabela]
    if modo.startswith("presidente_municipio") and fonte.faixa == FAIXA_MEDIDA:
        return FonteErro(FAIXA_EMPRESTADA, fonte.projecao, fonte.parcial)
    return fonte
