"""Which municipal files of the president by municipality one cycle asks for (issue 25, item 2).

A whole-country sweep is ~5,570 files: ~280 s at the default 20 requests/s, more than the cycle
deadline, and the TSE answers `x-ratelimit-limit: 2000` and may block an IP that sends many 404s
(TSE-FORMAT.md §1.4), so the answer is not a higher rate. Each cycle first reads the 28 UF files
(and `br`) and the UF coverage files (`<uf>-e<ele>-ab.json`, one row per municipality with its
last totalization); then these rules choose, within a budget of requests, the municipalities to ask:

1. **never read** (no valid reading held): the seed allows 0 % of the electorate without a valid
   file, so these come first. One that answered 404 is asked again only every `sondar_ausentes_s`
   (the TSE publishes its URLs from the config; repeated 404s risk a block);
2. **last answer failed** (reading preserved): the seed allows 0 % with a preserved reading;
3. **still counting, moved, held file generated `renovar_apos` ago or more**, oldest first;
4. **still counting and moved**, the most uncounted electorate first.

"Moved" depends on the municipality's UF. Where its coverage file was read this cycle and is fresh
(`ParteMunicipal.cobertura`), a municipality moved when its row's stamp differs from the one seen
when its file was fetched, or while it is being rechecked (`movido`); one whose row did not move is
**not asked**: the coverage file proves the file held current as of its own generation, and the
model measures it at that time (`model/cobertura.py`, `confirmation`). Where the coverage file could
not be read, is stale or lacks the row, the UF falls back to the file's own clock: every counting
municipality whose held file is `renovar_apos` old is moved (rule 3: the TSE regenerates every file,
and a fresh `hg` only comes by asking), and those of a UF whose file advanced (its counts or `dt/ht`
changed, or it could not be read) are owed (rule 4, `pendentes`) until fetched.

**Never asked again: a municipality that finished** (every section totalized in the reading held):
its counts and `ht` are final, only `hg`/`idg` would move. The model exempts finished parts from
both time rows of the president by municipality (docs/NOITE.md, "President by municipality,
live").

Pure functions: the cycle (`jobs/tse/cycle.py`) gathers the inputs and does the requests.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Seconds of municipal requests one cycle may take at the configured rate (never more than
# FRACAO_DO_PRAZO of the cycle deadline, `prazo_ciclo_s`). Short cycles, not long sweeps: a
# counting file is refreshed once it is REFRESH_AFTER (2.5 min) old, and it must be back under
# the seed's 5 minutes by the end of the cycle that refreshes it, so the cycle itself (requests,
# model, snapshot) has to stay well under 2.5 min. A first benchmark with half the 240 s deadline
# (2,420 requests, ~150 s cycles) left a third of the counting files over 5 minutes at the same
# rate (docs/NOITE.md, "President by municipality, live").
SEGUNDOS_POR_CICLO = 45.0
FRACAO_DO_PRAZO = 0.5


@dataclass(frozen=True)
class ParteMunicipal:
    """What the poller holds of one municipality's file."""

    parte: str  # "sp71072"
    lido: bool  # a valid reading is held
    falhou: bool = False  # its last answer failed: the reading held is preserved
    ausente: bool = False  # never read, and its last answer was a 404
    tentado_em: dt.datetime | None = None  # when it was last asked without success
    final: bool = False  # every section totalized in the reading held
    gerado_em: dt.datetime | None = None  # `dg/hg` of the reading held
    restante: int = 0  # electorate not yet totalized in the reading held
    cobertura: bool = False  # its UF's coverage file, read this cycle and fresh, has its row
    movido: bool = False  # with `cobertura`: its row moved since its file was fetched, or rechecked

    @property
    def uf(self) -> str:
        """The municipality's UF (`zz` abroad)."""
        return self.parte[:2]


@dataclass(frozen=True)
class Agenda:
    """This cycle's municipal requests, in order, and what is left owed for the next cycles."""

    buscar: tuple[str, ...]
    pendentes: frozenset[str]  # counting municipalities of advanced UFs not fetched yet
    adiados: int  # municipalities that qualified but did not fit the budget
    por_regra: tuple[int, int, int, int]  # how many of `buscar` each rule (1-4) chose
    confirmados: int = 0  # counting municipalities not asked: their coverage row did not move


def budget(requisicoes_por_segundo: float, prazo_ciclo_s: float, rajada: int, ja_feitos: int) -> int:
    """Municipal requests one cycle may send: the configured rate over SEGUNDOS_POR_CICLO (at most
    FRACAO_DO_PRAZO of the cycle deadline), plus the bucket, minus the requests already made this
    cycle (UF files, `br`)."""
    segundos = min(SEGUNDOS_POR_CICLO, prazo_ciclo_s * FRACAO_DO_PRAZO)
    return max(0, int(requisicoes_por_segundo * segundos) + rajada - ja_feitos)


def advanced_ufs(antes: dict[str, str | None], agora: dict[str, str | None]) -> set[str]:
    """UFs whose file's data (`cycle.data_key`: counts and `dt/ht`) changed, or that has no valid
    reading now (None: unknown, so every municipality of it may have changed)."""
    return {uf for uf, chave in agora.items() if chave is None or antes.get(uf) != chave}


def plan_fetch(
    partes: Sequence[ParteMunicipal],
    ufs_avancaram: Iterable[str],
    pendentes: frozenset[str],
    agora: dt.datetime,
    orcamento: int,
    renovar_apos: dt.timedelta,
    sondar_ausentes_s: float,
) -> Agenda:
    """The municipalities to fetch this cycle (rules 1-4 of the module docstring, in that order,
    up to `orcamento`), the ones still owed (UFs without a usable coverage file), and how many
    qualified but were left for later."""
    avancaram = set(ufs_avancaram)
    regras: list[list[ParteMunicipal]] = [[], [], [], []]
    devidos: set[str] = set()
    confirmados = 0
    for p in partes:
        contando = p.lido and not p.final
        if contando and not p.cobertura and (p.uf in avancaram or p.parte in pendentes):
            devidos.add(p.parte)
        velho = p.gerado_em is None or agora - p.gerado_em >= renovar_apos
        if not p.lido:
            espera = (agora - p.tentado_em).total_seconds() if p.ausente and p.tentado_em else None
            if espera is None or espera >= sondar_ausentes_s:
                regras[0].append(p)
        elif p.falhou:
            regras[1].append(p)
        elif p.final:
            continue  # final counts: never asked again
        elif p.cobertura and not p.movido:
            confirmados += 1  # the coverage file read this cycle proves the file held current
        elif velho:
            regras[2].append(p)
        elif p.cobertura or p.parte in devidos:
            regras[3].append(p)
    far_past = dt.datetime.min.replace(tzinfo=dt.UTC)
    regras[2].sort(key=lambda p: (p.gerado_em or far_past, p.parte))
    regras[3].sort(key=lambda p: (-p.restante, p.parte))
    buscar: list[str] = []
    por_regra = [0, 0, 0, 0]
    qualificados = 0
    for i, grupo in enumerate(regras):
        qualificados += len(grupo)
        for p in grupo:
            if len(buscar) >= orcamento:
                break
            buscar.append(p.parte)
            por_regra[i] += 1
    escolhidos = set(buscar)
    return Agenda(
        buscar=tuple(buscar),
        pendentes=frozenset(devidos - escolhidos),
        adiados=qualificados - len(buscar),
        por_regra=(por_regra[0], por_regra[1], por_regra[2], por_regra[3]),
        confirmados=confirmados,
    )
