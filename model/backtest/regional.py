"""Replays in the real regional order (`regioes`): runoff nights at several drift scales and the three
real nights, captured at every real minute in which a ballot box arrived.

* runoff, scale k: the 2022 runoff's regional clock, its fitted within-region order times k, the
  2022 runoff results by municipality; president by UF (the published configuration);
* the real replays: each real night's regional clock and its own fitted within-region order at
  scale 1 (the runoff replay *is* the scale-1 runoff night); the 2022 1st round counts its estimated
  municipal votes, the 2026 1st round counts the same 2022 1st-round votes in 2026's regional order
  (no 2026 municipal results here).

Within-region detail (which municipality's boxes arrive when) is simulated: one seed per night.
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from model.backtest.chegada import ParametrosChegada
from model.backtest.dados import ELEICAO_PRESIDENTE, ELEICAO_PRESIDENTE_1T
from model.backtest.executar import dados_de, juntar_replays
from model.backtest.regioes import EfeitosRegiao, NoiteRegional, gerar_lotes_regionais, ler_noites
from model.backtest.replay import Linha, preparar, replay_simulado
from model.backtest.simulador import Noite, alocar
from model.calibration import Calibration

ESCALAS = (0.5, 1.0, 1.75)
APURADO_MINIMO = 10.0  # seed: the president is not published below 10 % counted
FECHAMENTO = {
    "2022_2t": dt.datetime(2022, 10, 30, 20, tzinfo=dt.UTC),
    "2022_1t": dt.datetime(2022, 10, 2, 20, tzinfo=dt.UTC),
    "2026_1t": dt.datetime(2026, 10, 4, 20, tzinfo=dt.UTC),
}


@dataclass(frozen=True)
class ConfigRegional:
    """What to replay; defaults are the published run (docs/BACKTEST.md)."""

    datasets: Path
    sementes: int = 100
    semente_inicial: int = 0
    escalas: tuple[float, ...] = ESCALAS
    sementes_1t: int = 20  # nights per real 1st round


@dataclass(frozen=True)
class Tarefa:
    """One night to replay."""

    noite: str  # real night id: 2022_2t, 2022_1t, 2026_1t
    escala: float
    semente: int

    def id(self) -> str:
        """Replay id, e.g. `2022_2t-x1.75-s0007`."""
        return f"{self.noite}-x{self.escala:g}-s{self.semente:04d}"


def noite_regional(
    p: ParametrosChegada,
    unidades: Sequence[object],
    real: NoiteRegional,
    efeitos: EfeitosRegiao,
    escala: float,
    semente: int,
) -> Noite:
    """A night in `real`'s regional order, captured at each real minute from the first arrival."""
    units = tuple(unidades)
    lotes = gerar_lotes_regionais(p, units, semente, real, efeitos, escala)  # type: ignore[arg-type]
    first, last = lotes[0].minuto, lotes[-1].minuto
    caps = [m for m in real.minutos() if first <= m < last]
    caps.append(last)
    seen = tuple(min(bisect.bisect_left(caps, lo.minuto - 1e-9), len(caps) - 1) for lo in lotes)
    return Noite(semente, units, tuple(lotes), tuple(caps), seen, FECHAMENTO[real.id])  # type: ignore[arg-type]


def tarefas(cfg: ConfigRegional) -> list[Tarefa]:
    """Every night of `cfg`: runoff seeds at each scale, then the two 1st rounds at scale 1."""
    seeds = range(cfg.semente_inicial, cfg.semente_inicial + cfg.sementes)
    out = [Tarefa("2022_2t", k, s) for k in cfg.escalas for s in seeds]
    first = range(cfg.semente_inicial, cfg.semente_inicial + min(cfg.sementes_1t, cfg.sementes))
    out += [Tarefa(n, 1.0, s) for n in ("2022_1t", "2026_1t") for s in first]
    return out


def rodar_tarefa(
    cfg: ConfigRegional,
    p: ParametrosChegada,
    efeitos: dict[str, EfeitosRegiao],
    cal: Calibration,
    t: Tarefa,
) -> list[Linha]:
    """Replay one night: president by UF at every capture."""
    dados = dados_de(cfg.datasets, None)
    real = ler_noites_cache(cfg.datasets)[t.noite]
    noite = noite_regional(p, dados.unidades, real, efeitos[t.noite], t.escala, t.semente)
    runoff = real.turno == 2
    disputa = dados.presidente if runoff else dados.presidente_1t
    aloc = alocar(noite, disputa, p.dispersao_intra)
    c = preparar(
        noite,
        aloc,
        chave="presidente" if runoff else "presidente-1t",
        variante="uf",
        nivel="uf",
        cargo="presidente",
        eleicao=ELEICAO_PRESIDENTE if runoff else ELEICAO_PRESIDENTE_1T,
        turno=real.turno,
        uf=None,
        baselines=dados.bases if runoff else {},
    )
    linhas = replay_simulado(t.id(), noite, c, list(range(len(noite.capturas))), cal)
    if runoff:
        return linhas
    # The estimated 1st-round data have no file for abroad, which alone fails the missing-file
    # criterion at every capture; the trend is scored from the minimum % counted as if it held.
    return [dataclasses.replace(ln, publicavel=ln.apurado >= APURADO_MINIMO) for ln in linhas]


_NOITES: dict[Path, dict[str, NoiteRegional]] = {}


def ler_noites_cache(datasets: Path) -> dict[str, NoiteRegional]:
    """The real regional curves, read once per process."""
    if datasets not in _NOITES:
        _NOITES[datasets] = ler_noites(datasets)
    return _NOITES[datasets]


def _worker(
    args: tuple[ConfigRegional, ParametrosChegada, dict[str, EfeitosRegiao], Calibration, Tarefa],
) -> list[Linha]:
    return rodar_tarefa(*args)


def rodar(
    cfg: ConfigRegional,
    p: ParametrosChegada,
    efeitos: dict[str, EfeitosRegiao],
    cal: Calibration,
    processos: int = 1,
    progresso: Callable[[int], None] | None = None,
) -> list[Linha]:
    """Replays of every night of `cfg`, in task order whatever the number of processes."""
    jobs = [(cfg, p, efeitos, cal, t) for t in tarefas(cfg)]
    return juntar_replays(_worker, jobs, processos, progresso, 2)
