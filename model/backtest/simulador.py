"""One simulated night: batches in arrival order, exact vote splits, captures and cumulative counts.

A night (one seed) fixes when each batch of sections arrives (`chegada.gerar_lotes`). Each race
then spreads each unit's final counts over that unit's batches: the electorate in proportion to
the batch's sections, the composition drawn from what is left of the unit (an urn without
replacement) with a random tilt between the first two candidates per batch
(`dispersao_intra`, logit scale), so batches differ but the unit adds up exactly. The same
batches carry the president and the governor (one ballot box, two races). Captures are taken at
evenly spaced instants from the first to the last arrival; a part's counts at a capture are the
sum of its batches arrived by then, so they never decrease and equal the final result at the last
capture.
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
import random
from collections.abc import Iterable
from dataclasses import dataclass

from model.backtest.arredondamento import largest_remainder
from model.backtest.chegada import Lote, ParametrosChegada, gerar_lotes
from model.backtest.dados import Dados2022, Disputa, Unidade

# 2022 runoff: polls closed at 17:00 Brasília (20:00 UTC) everywhere.
FECHAMENTO_2022 = dt.datetime(2022, 10, 30, 20, 0, tzinfo=dt.UTC)


@dataclass(frozen=True)
class Noite:
    """The arrival side of one night: batches (arrival order) and capture instants."""

    semente: int
    unidades: tuple[Unidade, ...]
    lotes: tuple[Lote, ...]
    capturas: tuple[float, ...]  # minutes after closing
    captura_do_lote: tuple[int, ...]  # first capture at which each batch is visible
    fechamento: dt.datetime

    def instante(self, k: int) -> dt.datetime:
        """UTC instant of capture k (whole seconds)."""
        return self.fechamento + dt.timedelta(seconds=round(self.capturas[k] * 60))


def simular_noite(
    dados: Dados2022,
    params: ParametrosChegada,
    semente: int,
    n_capturas: int = 200,
    fechamento: dt.datetime = FECHAMENTO_2022,
    unidades: tuple[Unidade, ...] | None = None,
) -> Noite:
    """Arrival order and capture instants of the night of `semente`."""
    units = unidades if unidades is not None else dados.unidades
    lotes = gerar_lotes(params, units, semente)
    first, last = lotes[0].minuto, lotes[-1].minuto
    n = max(2, n_capturas)
    caps = tuple(first + (last - first) * k / (n - 1) for k in range(n))
    seen = tuple(min(bisect.bisect_left(caps, lo.minuto - 1e-9), n - 1) for lo in lotes)
    return Noite(semente, tuple(units), tuple(lotes), caps, seen, fechamento)


def _tilted_draw(
    rng: random.Random, remaining: list[int], size: int, n_cands: int, tilt_sd: float
) -> list[int]:
    """Take `size` voters out of the urn `remaining` (modified in place), exact, tilted between the
    first two candidates by a N(0, tilt_sd) logit shift."""
    total = sum(remaining)
    if size >= total:
        out = list(remaining)
        for i in range(len(remaining)):
            remaining[i] = 0
        return out
    w = [1.0] * len(remaining)
    if n_cands >= 2 and tilt_sd > 0:
        d = rng.gauss(0.0, tilt_sd)
        w[0], w[1] = math.exp(d / 2), math.exp(-d / 2)
    weights = [r * x for r, x in zip(remaining, w, strict=True)]
    out = largest_remainder(weights, size)
    over = 0
    for i, (o, r) in enumerate(zip(out, remaining, strict=True)):
        if o > r:
            over += o - r
            out[i] = r
    i = 0
    while over > 0:  # hand back what the tilt asked beyond the urn to categories with room
        room = remaining[i] - out[i]
        if room > 0:
            k = min(room, over)
            out[i] += k
            over -= k
        i += 1
    for i, o in enumerate(out):
        remaining[i] -= o
    return out


@dataclass(frozen=True)
class Alocacao:
    """A race's counts per batch of the night (batches outside the race's units are None)."""

    disputa: Disputa
    por_lote: tuple[tuple[int, ...] | None, ...]


def alocar(noite: Noite, disputa: Disputa, dispersao_intra: float) -> Alocacao:
    """Spread each unit's final counts over its batches (exact; see module docstring)."""
    rng = random.Random(f"{noite.semente}:{disputa.chave}")  # noqa: S311 - reproducible simulation
    by_unit: dict[int, list[int]] = {}
    for j, lote in enumerate(noite.lotes):
        by_unit.setdefault(lote.unidade, []).append(j)
    out: list[tuple[int, ...] | None] = [None] * len(noite.lotes)
    n_cands = len(disputa.candidatos)
    for i, unit in enumerate(noite.unidades):
        counts = disputa.votos.get(unit.id)
        if counts is None:
            continue
        batches = by_unit.get(i, [])
        sizes = largest_remainder([float(noite.lotes[j].secoes) for j in batches], sum(counts))
        urn = list(counts)
        # Drawn in a random order unrelated to arrival, so the last-drawn remainder is not late.
        order = list(range(len(batches)))
        rng.shuffle(order)
        for pos in order:
            out[batches[pos]] = tuple(_tilted_draw(rng, urn, sizes[pos], n_cands, dispersao_intra))
    return Alocacao(disputa, tuple(out))


@dataclass
class Serie:
    """Cumulative counts of one part over the captures: changes at `capturas` (ascending)."""

    secoes_total: int
    total: tuple[int, ...]
    capturas: list[int]
    acumulado: list[tuple[int, ...]]  # counts (race layout) after each change
    secoes: list[int]  # sections counted after each change
    minuto: list[float]  # arrival minute of the last batch counted at each change

    def em(self, k: int) -> tuple[tuple[int, ...], int, float | None]:
        """(counts, sections, last arrival minute or None) at capture k."""
        i = bisect.bisect_right(self.capturas, k) - 1
        if i < 0:
            return tuple(0 for _ in self.total), 0, None
        return self.acumulado[i], self.secoes[i], self.minuto[i]


def nivel_da_parte(unit: Unidade, nivel: str) -> str:
    """Part id of a unit at a level: `br`, `uf`, `municipio` (abroad stays `zz`) or `zona` (DF zones)."""
    if nivel == "br":
        return "br"
    if nivel == "uf":
        return unit.uf
    if nivel == "municipio":
        return unit.parte_municipio
    return unit.id


def series(
    noite: Noite, aloc: Alocacao, nivel: str, unidades: Iterable[str] | None = None
) -> dict[str, Serie]:
    """Cumulative series of every part of the race at `nivel` (only units in `unidades` if given)."""
    keep = set(unidades) if unidades is not None else None
    width = len(aloc.disputa.candidatos) + 3
    deltas: dict[str, dict[int, list[float]]] = {}
    totals: dict[str, list[int]] = {}
    sections: dict[str, int] = {}
    for j, lote in enumerate(noite.lotes):
        counts = aloc.por_lote[j]
        if counts is None:
            continue
        unit = noite.unidades[lote.unidade]
        if keep is not None and unit.id not in keep:
            continue
        part = nivel_da_parte(unit, nivel)
        k = noite.captura_do_lote[j]
        d = deltas.setdefault(part, {}).setdefault(k, [0.0] * (width + 2))
        for c in range(width):
            d[c] += counts[c]
        d[width] += lote.secoes
        d[width + 1] = max(d[width + 1], lote.minuto)
        t = totals.setdefault(part, [0] * width)
        for c in range(width):
            t[c] += counts[c]
        sections[part] = sections.get(part, 0) + lote.secoes
    out: dict[str, Serie] = {}
    for part in sorted(deltas):
        caps = sorted(deltas[part])
        acc = [0] * width
        sec = 0
        s = Serie(sections[part], tuple(totals[part]), caps, [], [], [])
        for k in caps:
            d = deltas[part][k]
            for c in range(width):
                acc[c] += int(d[c])
            sec += int(d[width])
            s.acumulado.append(tuple(acc))
            s.secoes.append(sec)
            s.minuto.append(d[width + 1])
        out[part] = s
    return out


def soma_series(noite: Noite, aloc: Alocacao, nivel: str, unidades: Iterable[str] | None = None) -> Serie:
    """The aggregate series (`br`, or the UF when `unidades` are one UF's): every batch in one part."""
    parts = series(noite, aloc, nivel, unidades)
    if len(parts) != 1:
        raise ValueError(f"agregado com {len(parts)} partes no nível {nivel}")
    return next(iter(parts.values()))
