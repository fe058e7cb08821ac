"""Scores of replays by 5-point bins of % counted: errors, band coverage, width, trend statistics.

Every projection statistic is computed with `model.forecast.headline` (the model's own correction,
band and `tendencia` rules) under the calibration being scored, from the uncorrected shares the
replay recorded; so scoring another calibration needs no new replay.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from model.backtest.replay import Linha
from model.calibration import Calibration
from model.forecast import headline

LARGURA_FAIXA = 5.0  # bins of 5 points of % counted


def faixa_de(apurado: float) -> int:
    """Index of the 5-point bin (0 = [0, 5), ..., 19 = [95, 100])."""
    return min(int(apurado // LARGURA_FAIXA), 19)


@dataclass(frozen=True)
class Ponto:
    """One scored capture."""

    linha: Linha
    erro_parcial: float  # partial - final, points (candidate A)
    erro_sem_correcao: float
    erro_corrigido: float
    faixa: float  # band half-width
    coberto: bool
    tendencia: int | str
    errou_vencedor: bool


def pontuar(linha: Linha, cal: Calibration, corrigir: bool = True) -> Ponto:
    """Score one capture under `cal` (the model's `headline` rules)."""
    raw = dict(linha.sem_correcao)
    hl = headline(
        cal=cal,
        cargo=linha.cargo,
        modo_plano=linha.modo_plano,
        turno=linha.turno,
        raw_pct=raw,
        apurado=linha.apurado,
        corrigir=corrigir,
        projetado=sum(raw.values()) > 0,
    )
    a = linha.candidato
    corr = hl.pct.get(a, 0.0) - linha.final
    # The trend is shown only with the projection, i.e. when every publication criterion holds.
    trend: int | str = hl.tendencia if linha.publicavel else "nao_publicado"
    return Ponto(
        linha=linha,
        erro_parcial=linha.parcial - linha.final,
        erro_sem_correcao=raw.get(a, 0.0) - linha.final,
        erro_corrigido=corr,
        faixa=hl.faixa,
        coberto=abs(corr) <= hl.faixa + 1e-9,
        tendencia=trend,
        errou_vencedor=isinstance(trend, int) and trend != linha.vencedor,
    )


@dataclass
class Celula:
    """Aggregates of one bin."""

    n: int = 0
    abs_parcial: list[float] = field(default_factory=list)
    abs_sem: list[float] = field(default_factory=list)
    abs_corr: list[float] = field(default_factory=list)
    soma_corr: float = 0.0
    soma_sem: float = 0.0
    cobertos: int = 0
    largura: float = 0.0
    errados: int = 0
    com_tendencia: int = 0

    def add(self, p: Ponto) -> None:
        """Add one scored capture."""
        self.n += 1
        self.abs_parcial.append(abs(p.erro_parcial))
        self.abs_sem.append(abs(p.erro_sem_correcao))
        self.abs_corr.append(abs(p.erro_corrigido))
        self.soma_corr += p.erro_corrigido
        self.soma_sem += p.erro_sem_correcao
        self.cobertos += p.coberto
        self.largura += p.faixa
        self.errados += p.errou_vencedor
        self.com_tendencia += isinstance(p.tendencia, int)


@dataclass(frozen=True)
class LinhaTabela:
    """One row of a report table (one 5-point bin)."""

    inicio: int
    n: int
    parcial_media: float
    parcial_max: float
    sem_media: float
    sem_max: float
    sem_vies: float
    corr_media: float
    corr_max: float
    corr_vies: float
    cobertura: float  # %
    largura: float  # mean half-width
    tendencia_errada: float  # % of captures with a wrong `tendencia`
    com_tendencia: float  # % of captures with a `tendencia`


def tabela(pontos: Iterable[Ponto]) -> list[LinhaTabela]:
    """Per-bin aggregates (bins with no capture left out)."""
    cells: dict[int, Celula] = {}
    for p in pontos:
        cells.setdefault(faixa_de(p.linha.apurado), Celula()).add(p)
    out = []
    for b in sorted(cells):
        c = cells[b]
        out.append(
            LinhaTabela(
                inicio=int(b * LARGURA_FAIXA),
                n=c.n,
                parcial_media=sum(c.abs_parcial) / c.n,
                parcial_max=max(c.abs_parcial),
                sem_media=sum(c.abs_sem) / c.n,
                sem_max=max(c.abs_sem),
                sem_vies=c.soma_sem / c.n,
                corr_media=sum(c.abs_corr) / c.n,
                corr_max=max(c.abs_corr),
                corr_vies=c.soma_corr / c.n,
                cobertura=100.0 * c.cobertos / c.n,
                largura=c.largura / c.n,
                tendencia_errada=100.0 * c.errados / c.n,
                com_tendencia=100.0 * c.com_tendencia / c.n,
            )
        )
    return out


@dataclass(frozen=True)
class Tendencia:
    """Trend statistics of a set of replays."""

    replays: int
    replays_com_erro: int  # replays where `tendencia` named the wrong winner at least once
    capturas_com_erro: int
    capturas: int
    primeiro_certo: list[float]  # per replay: first % counted from which the trend was right for good
    nunca_certo: int


def tendencia(pontos: Sequence[Ponto]) -> Tendencia:
    """Wrong-winner counts and the first % counted at which the trend was right and stayed right."""
    by_replay: dict[tuple[str, str, str], list[Ponto]] = {}
    for p in pontos:
        by_replay.setdefault((p.linha.noite, p.linha.disputa, p.linha.variante), []).append(p)
    firsts: list[float] = []
    never = wrong_replays = 0
    for ps in by_replay.values():
        ps.sort(key=lambda p: p.linha.captura)
        wrong_replays += any(p.errou_vencedor for p in ps)
        first = None
        for p in reversed(ps):
            if p.tendencia == p.linha.vencedor:
                first = p.linha.apurado
            else:
                break
        if first is None:
            never += 1
        else:
            firsts.append(first)
    return Tendencia(
        replays=len(by_replay),
        replays_com_erro=wrong_replays,
        capturas_com_erro=sum(p.errou_vencedor for p in pontos),
        capturas=len(pontos),
        primeiro_certo=sorted(firsts),
        nunca_certo=never,
    )


def quantil(xs: Sequence[float], q: float) -> float:
    """Empirical quantile (nearest rank, conservative) of a non-empty sequence."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]
