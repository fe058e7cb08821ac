"""The model run at every capture of a night, and the numbers kept for scoring.

Simulated nights are replayed in memory: each part's counts at a capture become the
`ResultRecord` the model would parse from the TSE file (`arquivos.registro`), fed to
`model.forecast.project_readings` (the same function `project` ends in; a test checks that the
files written by the simulator give byte-identical outputs through `project`). Real nights (the
2026 captures, a night folder, a bweb night) go through `project` on snapshot folders.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.backtest.arquivos import Contagem, nome_u, registro
from model.backtest.simulador import Alocacao, Noite, Serie, series, soma_series
from model.baselines import Baseline
from model.calibration import Calibration
from model.forecast import Reading, prepare_race, project, project_readings
from model.snapshot import read_snapshot
from model.tse_files import BRASILIA, ResultRecord

CARGO_NOME = {1: "presidente", 3: "governador"}
# The poller reads a capture some seconds after the TSE generated it.
ATRASO_LEITURA = dt.timedelta(seconds=20)


@dataclass(frozen=True)
class Linha:
    """One capture of one replay: what scoring needs, for the reference candidate A."""

    noite: str  # "sim-0007", "real-2026-1t", "bweb"
    disputa: str  # "presidente", "governador-sp", "presidente-em-sp", "presidente-df-zonas"
    variante: str  # "uf", "municipio", "governador_municipio", "governador_zona"
    captura: int
    cargo: str
    turno: int
    modo_plano: str
    apurado: float  # % of the electorate counted (model's apurado_pct)
    candidato: int  # A: the drift curve's reference candidate, else the lower ballot number
    final: float  # A's final share, %
    vencedor: int  # final winner
    parcial: float  # A's share in the official partial, %
    sem_correcao: tuple[tuple[int, float], ...]  # every candidate's uncorrected projection, %
    publicavel: bool
    deriva_fora: bool = False  # the live drift check had dropped the correction at this capture
    deriva_razao: float | None = None  # the check's observed/predicted drift ratio, when it had one
    deriva_suficiente: bool = False  # the check had enough finished UFs and readings to decide


def _contagem(
    serie: Serie,
    k: int,
    noite: Noite,
    *,
    eleicao: str,
    turno: int,
    cargo: int,
    tpabr: str,
    cdabr: str,
    uf: str,
    nomes: dict[int, str],
    partidos: dict[int, str],
    candidatos: Sequence[int],
) -> Contagem:
    counts, secoes, minuto = serie.em(k)
    n = len(candidatos)
    return Contagem(
        eleicao=eleicao,
        turno=turno,
        cargo=cargo,
        tpabr=tpabr,
        cdabr=cdabr,
        uf=uf,
        candidatos=tuple(
            (c, nomes.get(c, str(c)), partidos.get(c, ""), counts[i]) for i, c in enumerate(candidatos)
        ),
        vb=counts[n],
        vn=counts[n + 1],
        abstencoes=counts[n + 2],
        eleitorado=sum(serie.total),
        secoes=serie.secoes_total,
        secoes_totalizadas=secoes,
        gerado_em=noite.instante(k),
        totalizado_em=None if minuto is None else noite.fechamento + dt.timedelta(seconds=round(minuto * 60)),
    )


def tpabr_cdabr(parte: str) -> tuple[str, str]:
    """(`tpabr`, `cdabr`) of a part id: `sp` -> uf, `sp71072` -> mu 71072, `df97012-z0001` -> zona 0001."""
    if "-z" in parte:
        return "zona", parte.split("-z")[1]
    if len(parte) > 2:
        return "mu", parte[2:]
    return ("br", "br") if parte == "br" else ("uf", parte)


@dataclass
class CorridaSimulada:
    """A race of a simulated night ready to replay: series per part, aggregate, the model's race."""

    chave: str
    variante: str
    cargo: str
    eleicao: str
    turno: int
    candidatos: tuple[int, ...]
    nomes: dict[int, str]
    partidos: dict[int, str]
    partes: dict[str, Serie]
    agregado: Serie
    agregado_id: str
    baselines: dict[str, Baseline]
    uf: str | None


def preparar(
    noite: Noite,
    aloc: Alocacao,
    *,
    chave: str,
    variante: str,
    nivel: str,
    cargo: str,
    eleicao: str,
    turno: int,
    uf: str | None,
    baselines: dict[str, Baseline],
    unidades: Sequence[str] | None = None,
    partes: dict[str, Serie] | None = None,
    agregado: Serie | None = None,
) -> CorridaSimulada:
    """Cut a race's allocation into part series at `nivel` plus the aggregate file's series
    (or take them ready in `partes` / `agregado`, cut once for several races)."""
    if partes is None:
        partes = series(noite, aloc, nivel, unidades)
    if agregado is None:
        agregado = soma_series(noite, aloc, "br" if cargo == "presidente" else "uf", unidades)
    d = aloc.disputa
    return CorridaSimulada(
        chave=chave,
        variante=variante,
        cargo=cargo,
        eleicao=eleicao,
        turno=turno,
        candidatos=d.candidatos,
        nomes=d.nomes,
        partidos=d.partidos,
        partes=partes,
        agregado=agregado,
        agregado_id="br" if cargo == "presidente" else (uf or ""),
        baselines=baselines,
        uf=uf,
    )


def contagens(c: CorridaSimulada, noite: Noite, k: int) -> dict[str, Contagem]:
    """Every file's numbers of race `c` at capture k, by part id (the aggregate included)."""
    code = 1 if c.cargo == "presidente" else 3
    return {
        parte: _contagem_parte(c, noite, parte, serie, k, code)
        for parte, serie in [*c.partes.items(), (c.agregado_id, c.agregado)]
    }


class ReplaySimulado:
    """Runs the model on race `c` of a night, capture by capture, reusing unchanged records."""

    def __init__(self, noite: Noite, c: CorridaSimulada) -> None:
        self.noite, self.c = noite, c
        self.code = 1 if c.cargo == "presidente" else 3
        names = [nome_u(p, self.code, c.eleicao) for p in (*c.partes, c.agregado_id)]
        self.race = prepare_race(names, baselines=c.baselines, cargo=c.cargo, uf=c.uf, eleicao=c.eleicao)
        self._cache: dict[str, tuple[int, ResultRecord]] = {}

    def saida(self, k: int, cal: Calibration, anterior: dict[str, Any] | None = None) -> dict[str, Any]:
        """The model's whole output at capture k (what `project` gives on the capture's files, with
        the previous output `anterior` for the live drift check)."""
        c, noite = self.c, self.noite
        hora = noite.instante(k).astimezone(BRASILIA)
        readings = []
        for spec in self.race.plan.partes:
            serie = c.partes.get(spec.id)
            if serie is None:
                readings.append(Reading(arquivo=spec.arquivo, motivo="arquivo ausente"))
                continue
            idx = bisect.bisect_right(serie.capturas, k)
            hit = self._cache.get(spec.id)
            if hit is None or hit[0] != idx:
                hit = (idx, _record(c, noite, spec.id, serie, k, self.code))
                self._cache[spec.id] = hit
            readings.append(
                Reading(arquivo=spec.arquivo, record=hit[1], valido=True, categoria="ok", hora=hora)
            )
        agg_rec = _record(c, noite, c.agregado_id, c.agregado, k, self.code)
        aggregate = Reading(
            arquivo=self.race.plan.agregado or "", record=agg_rec, valido=True, categoria="ok", hora=hora
        )
        return project_readings(
            self.race,
            readings,
            aggregate,
            calibracao=cal,
            agora=noite.instante(k) + ATRASO_LEITURA,
            saida_anterior=anterior,
        )


def replay_simulado(
    noite_id: str, noite: Noite, c: CorridaSimulada, capturas: Sequence[int], cal: Calibration
) -> list[Linha]:
    """Run the model (in memory) at each capture in `capturas`; one `Linha` per capture."""
    runner = ReplaySimulado(noite, c)
    total = c.agregado.total
    a_ref = cal.deriva_candidato if cal.deriva_candidato in c.candidatos else min(c.candidatos)
    ia = c.candidatos.index(a_ref)
    n = len(c.candidatos)
    final = 100.0 * total[ia] / sum(total[:n])
    winner = c.candidatos[max(range(n), key=lambda i: (total[i], -c.candidatos[i]))]
    out = []
    res: dict[str, Any] | None = None
    for k in capturas:
        res = runner.saida(k, cal, res)
        out.append(_linha(noite_id, c.chave, c.variante, k, res, a_ref, final, winner))
    return out


def _contagem_parte(
    c: CorridaSimulada, noite: Noite, parte: str, serie: Serie, k: int, code: int
) -> Contagem:
    """The numbers of one part's file of race `c` at capture k."""
    tp, cd = tpabr_cdabr(parte)
    return _contagem(
        serie,
        k,
        noite,
        eleicao=c.eleicao,
        turno=c.turno,
        cargo=code,
        tpabr=tp,
        cdabr=cd,
        uf=parte[:2],
        nomes=c.nomes,
        partidos=c.partidos,
        candidatos=c.candidatos,
    )


def _record(c: CorridaSimulada, noite: Noite, parte: str, serie: Serie, k: int, code: int) -> ResultRecord:
    return registro(_contagem_parte(c, noite, parte, serie, k, code))


def _linha(
    noite_id: str, chave: str, variante: str, k: int, res: dict[str, Any], a: int, final: float, winner: int
) -> Linha:
    parcial = next((p["pct"] for p in res["parcial"]["candidatos"] if p["numero"] == a), 0.0)
    sem = tuple((int(f["numero"]), float(f["sem_correcao"])) for f in res["forecast"]["candidatos"])
    verif = res.get("verificacao_deriva") or {}
    return Linha(
        noite=noite_id,
        disputa=chave,
        variante=variante,
        captura=k,
        cargo=str(res["cargo"]),
        turno=int(res["turno"]),
        modo_plano=str(res["modo"]).removesuffix("_sem_correcao"),
        apurado=float(res["apurado_pct"]),
        candidato=a,
        final=final,
        vencedor=winner,
        parcial=float(parcial),
        sem_correcao=sem,
        publicavel=bool(res["publicavel"]),
        deriva_fora=verif.get("estado") == "fora",
        deriva_razao=verif.get("razao_observada"),
        deriva_suficiente=verif.get("estado") in ("dentro", "fora"),
    )


def replay_pastas(
    noite_id: str,
    pastas: Sequence[Path],
    *,
    finais: dict[int, float],
    vencedor: int,
    cal: Calibration,
    baselines: dict[str, Baseline],
    chave: str = "presidente",
    cargo: str = "presidente",
    uf: str | None = None,
    candidato: int = 13,
) -> list[Linha]:
    """Run `project` on snapshot folders (in order) and score against the final shares `finais`."""
    out = []
    anterior = None
    res: dict[str, Any] | None = None
    for k, pasta in enumerate(pastas):
        snap = read_snapshot(pasta)
        res = project(
            snap,
            calibracao=cal,
            baselines=baselines,
            cargo=cargo,
            uf=uf,
            anterior=anterior,
            saida_anterior=res,
        )
        anterior = snap
        variante = "municipio" if "municipio" in str(res["modo"]) and cargo == "presidente" else "uf"
        if cargo != "presidente":
            variante = str(res["modo"])
        out.append(_linha(noite_id, chave, variante, k, res, candidato, finais[candidato], vencedor))
    return out
