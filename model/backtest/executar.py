"""Replays of the simulated nights, seed by seed (optionally in parallel processes).

One seed = one night (`simulador.simular_noite`); on it the model runs:

* president by UF (`variante "uf"`) at every capture: the published configuration;
* president by municipality (`"municipio"`) every `passo_municipio` captures (the "beyond the seed"
  variant; about 5,600 parts per capture, so it is sampled more sparsely);
* for the first `sementes_governador` seeds, every `passo_governador` captures: the 12 real 2022
  governor runoffs by municipality, the presidential race inside each of the 26 states run as a
  governor race by municipality (seed: "26 simulações da disputa presidencial dentro de cada
  estado"), and the presidential race inside DF by zone;
* for the first `sementes_1t` seeds, every `passo_1t` captures: the 2022 1st round (estimated
  counts), whose drift curve is applied to the real 2026 1st-round captures as the independent test.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from model.backtest.chegada import ParametrosChegada
from model.backtest.dados import (
    ELEICAO_GOVERNADOR,
    ELEICAO_PRESIDENTE,
    ELEICAO_PRESIDENTE_1T,
    Dados2022,
    carregar,
)
from model.backtest.replay import Linha, preparar, replay_simulado
from model.backtest.simulador import Alocacao, Noite, alocar, series, simular_noite
from model.calibration import Calibration


@dataclass(frozen=True)
class ConfigBacktest:
    """What to replay; defaults are the published backtest (docs/BACKTEST.md)."""

    datasets: Path
    sementes: int = 100
    semente_inicial: int = 0  # nights are seeds semente_inicial .. semente_inicial + sementes - 1
    capturas: int = 200
    municipio: bool = True
    passo_municipio: int = 10
    sementes_governador: int = 20
    passo_governador: int = 5
    sementes_1t: int = 20
    passo_1t: int = 5
    ufs: tuple[str, ...] | None = None  # restrict the simulation to these UFs (tests)

    def conjunto_ufs(self) -> set[str] | None:
        """`ufs` as a set (None = all)."""
        return set(self.ufs) if self.ufs is not None else None


@functools.lru_cache(maxsize=4)
def dados_de(datasets: Path, ufs: tuple[str, ...] | None) -> Dados2022:
    """Datasets read once per process (the replays of every seed share them)."""
    return carregar(datasets, set(ufs) if ufs is not None else None)


def capturas_amostradas(n: int, passo: int) -> list[int]:
    """Every `passo`-th capture, and always the last one."""
    out = list(range(0, n, max(1, passo)))
    if out[-1] != n - 1:
        out.append(n - 1)
    return out


def rodar_semente(
    cfg: ConfigBacktest, params: ParametrosChegada, cal: Calibration, semente: int
) -> list[Linha]:
    """Every replay of the night of `semente` (module docstring)."""
    dados = dados_de(cfg.datasets, cfg.ufs)
    noite = simular_noite(dados, params, semente, cfg.capturas)
    nid = f"sim-{semente:04d}"
    k_all = list(range(len(noite.capturas)))
    pres = alocar(noite, dados.presidente, params.dispersao_intra)
    out: list[Linha] = []
    for variante in ("uf", "municipio") if cfg.municipio else ("uf",):
        c = preparar(
            noite,
            pres,
            chave="presidente",
            variante=variante,
            nivel=variante,
            cargo="presidente",
            eleicao=ELEICAO_PRESIDENTE,
            turno=2,
            uf=None,
            baselines=dados.bases,
        )
        caps = k_all if variante == "uf" else capturas_amostradas(len(k_all), cfg.passo_municipio)
        out += replay_simulado(nid, noite, c, caps, cal)
    if semente - cfg.semente_inicial < cfg.sementes_governador:
        out += _governadores(cfg, dados, noite, params, cal, nid, pres)
    if semente - cfg.semente_inicial < cfg.sementes_1t:
        first = alocar(noite, dados.presidente_1t, params.dispersao_intra)
        c = preparar(
            noite,
            first,
            chave="presidente-1t",
            variante="uf",
            nivel="uf",
            cargo="presidente",
            eleicao=ELEICAO_PRESIDENTE_1T,
            turno=1,
            uf=None,
            baselines={},
        )
        out += replay_simulado(nid, noite, c, capturas_amostradas(len(k_all), cfg.passo_1t), cal)
    return out


def _governadores(
    cfg: ConfigBacktest,
    dados: Dados2022,
    noite: Noite,
    params: ParametrosChegada,
    cal: Calibration,
    nid: str,
    pres: Alocacao,
) -> list[Linha]:
    caps = capturas_amostradas(len(noite.capturas), cfg.passo_governador)
    out: list[Linha] = []
    for uf, race in sorted(dados.governadores.items()):
        aloc = alocar(noite, race, params.dispersao_intra)
        units = [u.id for u in dados.unidades_da_uf(uf)]
        c = preparar(
            noite,
            aloc,
            chave=f"governador-{uf}",
            variante="governador_municipio",
            nivel="municipio",
            cargo="governador",
            eleicao=ELEICAO_GOVERNADOR,
            turno=2,
            uf=uf,
            baselines=dados.bases,
            unidades=units,
        )
        out += replay_simulado(nid, noite, c, caps, cal)
    # The presidential race inside each state: cut the president's batches once, then per UF.
    by_mun = series(noite, pres, "municipio")
    by_uf = series(noite, pres, "uf")
    zones = series(noite, pres, "zona", [u.id for u in dados.unidades_da_uf("df") if u.zona])
    for uf in sorted(set(by_uf) - {"zz"}):
        if uf == "df":
            variante, nivel, chave, partes = "governador_zona", "zona", "presidente-df-zonas", zones
        else:
            variante, nivel, chave = "governador_municipio", "municipio", f"presidente-em-{uf}"
            partes = {k: v for k, v in by_mun.items() if k[:2] == uf}
        c = preparar(
            noite,
            pres,
            chave=chave,
            variante=variante,
            nivel=nivel,
            cargo="governador",
            eleicao=ELEICAO_PRESIDENTE,
            turno=2,
            uf=uf,
            baselines=dados.bases,
            partes=partes,
            agregado=by_uf[uf],
        )
        out += replay_simulado(nid, noite, c, caps, cal)
    return out


def _worker(args: tuple[ConfigBacktest, ParametrosChegada, Calibration, int]) -> list[Linha]:
    return rodar_semente(*args)


def rodar_sementes(
    cfg: ConfigBacktest,
    params: ParametrosChegada,
    cal: Calibration,
    processos: int = 1,
    progresso: Callable[[int], None] | None = None,
) -> list[Linha]:
    """Replays of every seed of `cfg`, in seed order whatever the number of processes."""
    seeds = range(cfg.semente_inicial, cfg.semente_inicial + cfg.sementes)
    return juntar_replays(_worker, [(cfg, params, cal, s) for s in seeds], processos, progresso, 1)


_T = TypeVar("_T")


def juntar_replays(
    worker: Callable[[_T], list[Linha]],
    tarefas: Sequence[_T],
    processos: int,
    progresso: Callable[[int], None] | None,
    chunksize: int,
) -> list[Linha]:
    """Every task's replay rows, in task order, in this process or in a pool of `processos`."""
    out: list[Linha] = []
    results: Iterator[list[Linha]]
    with contextlib.ExitStack() as stack:
        if processos <= 1:
            results = map(worker, tarefas)
        else:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=processos))
            results = pool.map(worker, tarefas, chunksize=chunksize)
        for r in results:
            out += r
            if progresso:
                progresso(1)
    return out


def por_chave(linhas: Sequence[Linha]) -> dict[tuple[str, str, str], list[Linha]]:
    """Lines grouped by replay (night, race, variant), each in capture order."""
    out: dict[tuple[str, str, str], list[Linha]] = {}
    for ln in linhas:
        out.setdefault((ln.noite, ln.disputa, ln.variante), []).append(ln)
    for v in out.values():
        v.sort(key=lambda x: x.captura)
    return out
