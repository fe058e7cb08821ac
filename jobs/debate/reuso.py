"""Debate claim matching: a claim said in a live debate takes the verdict the desk already published.

The checks are the ones the site build publishes (`jobs.checagens.publicadas`, the build's own
rules), held in the desk's claim memory (`jobs.checagens.memoria.Memoria`: TF-IDF, mixed
with local embeddings when `[checagens.memoria] embeddings` gives a backend, exactly as at the desk).
A claim takes a check's verdict only when the check is among the `CANDIDATOS` closest, its score
reaches the reuse threshold of the backend that scored it (`limiar_reuso` / `limiar_reuso_embeddings`,
never looser than a suggestion an editor confirms) and both state the same numbers: a claim with
another figure never takes another check's verdict.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from jobs.analise.config import ConfigAnalise
from jobs.checagens.configuracao import ConfigMemoria
from jobs.checagens.memoria import Memoria, Semelhante, T, backend_da_memoria
from jobs.debate.texto import numeros
from jobs.fontes.busca import PASTA_CHECAGENS, Documento, checagens_publicadas

CANDIDATOS = 5  # how many of the closest published checks are compared (numbers, threshold)


def valores(texto: str) -> frozenset[float]:
    """The numbers a text states (years included), as values: "300 leitos em 2025" -> {300, 2025}."""
    return frozenset(round(n.valor, 6) for n in numeros(texto))


def escolher(
    afirmacao: str, semelhantes: Sequence[Semelhante[T]], config: ConfigMemoria
) -> Semelhante[T] | None:
    """The published check a claim repeats: the best of the first `CANDIDATOS` matches (best first,
    as `Memoria.buscar` gives them) that reaches the reuse threshold and states the same numbers."""
    proprios = valores(afirmacao)
    for s in semelhantes[:CANDIDATOS]:
        if s.similaridade < config.limiar_de_reuso(s.embeddings is not None):
            continue
        if valores(s.checagem.afirmacao) == proprios:
            return s
    return None


@dataclass(frozen=True)
class MemoriaDebate:
    """The published checks one engine cycle matches its claims against (built once per cycle)."""

    memoria: Memoria[Documento]

    @property
    def nome(self) -> str:
        """Backend with a checksum of the settings and the indexed checks (part of the cache key of
        stored checks: a new published check or threshold checks the claims again)."""
        assinatura = hashlib.sha256(repr(self.memoria.config).encode())
        for c in self.memoria.checagens:
            assinatura.update(f"\n{c.id}|{c.url}|{c.veredito}|{c.afirmacao}".encode())
        backend = "hibrido" if self.memoria.com_embeddings else "tfidf"
        return f"{backend}:{assinatura.hexdigest()[:12]}"

    def reuso(self, afirmacao: str) -> Documento | None:
        """The published check whose verdict this claim takes, if any."""
        escolhida = escolher(afirmacao, self.memoria.buscar(afirmacao, k=CANDIDATOS), self.memoria.config)
        return None if escolhida is None else escolhida.checagem


def memoria_do_debate(
    raiz: Path,
    config: ConfigMemoria,
    config_analise: ConfigAnalise | None = None,
    publicadas: Sequence[Documento] | None = None,
) -> tuple[MemoriaDebate, list[str]]:
    """The memory over the checks the build publishes from `raiz` (`publicadas` when the caller
    already read them with `checagens_publicadas`), and warnings (Portuguese)."""
    embeddings, avisos = backend_da_memoria(raiz, config, config_analise)
    if publicadas is None:
        publicadas = checagens_publicadas(raiz / PASTA_CHECAGENS)
    memoria = Memoria(publicadas, config, embeddings)
    return MemoriaDebate(memoria), avisos + memoria.avisos
