"""`eleicoes checagens fila`: open checkable claims ranked by checkability, reach and harm.

Seed ("O que escolhemos checar"): three criteria applied to every candidate the same way.
The formula, in one place (documented in docs/QUALIDADE.md and content/metodologia/checagens.md):

    alcance_norm = min(1, log10(1 + alcance) / log10(1 + ALCANCE_REFERENCIA))   (0 when unknown)
    prioridade   = 100 x checabilidade x (BASE + PESO_ALCANCE x alcance_norm + PESO_DANO x dano)

It never looks at who the candidate is. Opinions, promises and predictions never enter the
queue; neither do claims an editor already settled (occurrence confirmed, draft written, discarded).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from jobs.analise.temas import normalizar
from jobs.checagens.acervo import AfirmacaoSalva, ler_decisoes, todas_afirmacoes
from jobs.checagens.configuracao import ConfigChecagens
from jobs.checagens.memoria import ChecagemPublicada, Memoria, Semelhante

ALCANCE_REFERENCIA = 1_000_000  # a post seen by a million people gets the full reach score
BASE = 0.2
PESO_ALCANCE = 0.4
PESO_DANO = 0.4


def alcance_normalizado(alcance: int | None) -> float:
    """Reach on a log scale, 0..1 (unknown reach counts as 0)."""
    if alcance is None or alcance <= 0:
        return 0.0
    return min(1.0, math.log10(1 + alcance) / math.log10(1 + ALCANCE_REFERENCIA))


def prioridade(checabilidade: float, alcance: int | None, dano: float) -> float:
    """The queue score, 0..100; the same formula for every claim of every candidate."""
    fatores = BASE + PESO_ALCANCE * alcance_normalizado(alcance) + PESO_DANO * dano
    return round(100.0 * checabilidade * fatores, 2)


@dataclass
class ItemFila:
    """One open claim in the queue, with its score and what the memory says about it."""

    afirmacao: AfirmacaoSalva
    prioridade: float
    alcance_norm: float
    repeticoes: list[AfirmacaoSalva] = field(default_factory=list)  # same text, same candidate
    memoria: list[Semelhante[ChecagemPublicada]] = field(default_factory=list)


def montar_fila(
    raiz: Path,
    config: ConfigChecagens,
    memoria: Memoria[ChecagemPublicada] | None = None,
    limite: int = 50,
    candidato: str = "",
) -> tuple[list[ItemFila], list[str]]:
    """The ranked queue (at most `limite` items) and warnings about unreadable captures.

    Identical claims by the same candidate (same normalised text) are grouped under the one with
    the highest score. Memory suggestions are computed for the listed items only.
    """
    dados = raiz / config.dados_dir
    afirmacoes, avisos = todas_afirmacoes(dados)
    decididas = ler_decisoes(dados)
    grupos: dict[tuple[str, str], ItemFila] = {}
    for a in afirmacoes:
        if a.tipo != "checavel" or a.id in decididas:
            continue
        if candidato and a.captura.candidato != candidato:
            continue
        item = ItemFila(
            a, prioridade(a.checabilidade, a.captura.alcance, a.dano), alcance_normalizado(a.captura.alcance)
        )
        chave = (a.captura.candidato, normalizar(a.texto))
        atual = grupos.get(chave)
        if atual is None:
            grupos[chave] = item
        elif (item.prioridade, atual.afirmacao.id) > (atual.prioridade, item.afirmacao.id):
            item.repeticoes = [*atual.repeticoes, atual.afirmacao]
            grupos[chave] = item
        else:
            atual.repeticoes.append(a)
    # highest score first; ties: the oldest capture first, then the id (stable, candidate-blind)
    fila = sorted(
        grupos.values(), key=lambda i: (-i.prioridade, i.afirmacao.captura.capturado_em, i.afirmacao.id)
    )
    fila = fila[:limite]
    if memoria is not None:
        for item in fila:
            item.memoria = memoria.buscar(item.afirmacao.texto, item.afirmacao.captura.candidato)
    return fila, avisos
