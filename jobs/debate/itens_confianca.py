"""The confidence gate at the level of each scored item (issue 24): nothing misheard is scored.

A turn can pass the utterance-level gate (`revisao_transcricao.py`) and still hold a proposal, a
claim or an attack built on a few misheard words ("Vamos contra a Carmenci", for "Vamos contratar
vinte mil"). Every scored item therefore knows its own words: its excerpt is found in the words of
the transcript (each stored with its probability, its Whisper segment's measures and whether the
lexicon knows it), and those words are judged with the item thresholds of `jobs.debate.confianca`.

An item that fails is "em revisão": shown as such, left out of the scoreboard, until the editor
confirms the turn's transcript (`eleicoes debate editar ... transcricao TURNO --confirmar`, or
corrects it). The question a turn answers is judged on the words of the utterances it was taken
from; the editor's marked question (`editar ... pergunta`) always passes. Text without machine
measures (typed transcripts, the editor's corrections) passes: there is nothing misheard to weigh.
An excerpt that cannot be found in the heard words is held: withhold rather than guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from jobs.analise.turnos import AvaliacaoTurno
from jobs.debate import confianca
from jobs.debate.armazenamento import Fala, Palavra
from jobs.debate.checagem import Checagem
from jobs.debate.perguntas import PerguntaTurno
from jobs.debate.revisao_transcricao import CONFIRMADA, CORRIGIDA
from jobs.debate.texto import frases
from jobs.debate.texto import palavras as tokens
from jobs.debate.turnos import Turno

NAO_LOCALIZADO = "o trecho não foi encontrado nas palavras transcritas"
PROPOSTA = "proposta"
AFIRMACAO = "afirmacao"
ATAQUE = "ataque"
PERGUNTA = "pergunta"
TIPOS = {
    PROPOSTA: "proposta",
    AFIRMACAO: "afirmação checável",
    ATAQUE: "ataque pessoal",
    PERGUNTA: "pergunta",
}


@dataclass(frozen=True)
class ItemRetido:
    """One scored item held for its words' confidence."""

    id: str  # "<turn>-p1" (proposal), "<turn>-ataque", "<turn>-pergunta", or the check's id
    turno: str
    candidato: str
    tipo: str  # proposta | afirmacao | ataque | pergunta
    trecho: str
    motivos: tuple[str, ...]


def medidas_das_falas(falas: Iterable[Fala]) -> list[tuple[str, confianca.MedidaPalavra | None]]:
    """(word, measures) of the utterances in order; an utterance that stored no word measures lends
    its own mean measures to each word (older transcripts), and nothing when it has none."""
    saida: list[tuple[str, confianca.MedidaPalavra | None]] = []
    for f in falas:
        palavras: Sequence[Palavra] = f.palavras
        if not palavras or " ".join(p.p for p in palavras) != f.texto:
            # Without its words as heard (typed, or edited text): the utterance's own measures.
            media = _media_da_fala(f)
            saida += [(p, media) for p in f.texto.split()]
            continue
        saida += [(p.p, p.medida if p.medida is not None else _media_da_fala(f)) for p in palavras]
    return saida


def _media_da_fala(f: Fala) -> confianca.MedidaPalavra | None:
    m = f.confianca
    if m is None:
        return None
    # The lexicon share cannot be split per word: the stand-in word is treated as not looked up.
    return confianca.MedidaPalavra(m.prob, m.logprob, m.sem_fala, m.compressao, None)


def localizar(
    trecho: str, palavras: Sequence[tuple[str, confianca.MedidaPalavra | None]]
) -> list[tuple[str, confianca.MedidaPalavra | None]] | None:
    """The words an excerpt was made of: the first run of words whose tokens are the excerpt's
    (case, accents and punctuation aside), or, for an excerpt joined from sentences apart (a
    question without the call between its sentences), the runs of each sentence; None when the
    excerpt is not there."""
    inteiro = _localizar(trecho, palavras)
    if inteiro is not None:
        return inteiro
    partes = [_localizar(f, palavras) for f in frases(trecho)]
    if len(partes) < 2 or any(p is None for p in partes):
        return None
    return [w for p in partes if p is not None for w in p]


def _localizar(
    trecho: str, palavras: Sequence[tuple[str, confianca.MedidaPalavra | None]]
) -> list[tuple[str, confianca.MedidaPalavra | None]] | None:
    alvo = tokens(trecho)
    if not alvo:
        return None
    sequencia: list[tuple[str, int]] = []  # (token, index of its word)
    for i, (p, _) in enumerate(palavras):
        sequencia += [(t, i) for t in tokens(p)]
    so_tokens = [t for t, _ in sequencia]
    n = len(alvo)
    for k in range(len(so_tokens) - n + 1):
        if so_tokens[k : k + n] == alvo:
            primeira, ultima = sequencia[k][1], sequencia[k + n - 1][1]
            return list(palavras[primeira : ultima + 1])
    return None


def julgar(trecho: str, palavras: Sequence[tuple[str, confianca.MedidaPalavra | None]]) -> tuple[str, ...]:
    """Why an item with this excerpt must wait for the editor (empty: it may be scored)."""
    if all(m is None for _, m in palavras):
        return ()  # no machine measures anywhere: typed text
    achadas = localizar(trecho, palavras)
    if achadas is None:
        return (NAO_LOCALIZADO,)
    medidas = [(p, m) for p, m in achadas if m is not None]
    return confianca.motivos_item(confianca.medir_item(medidas))


def _liberado(turno: Turno) -> bool:
    return turno.transcricao in (CONFIRMADA, CORRIGIDA)


def itens_do_turno(
    turno: Turno, avaliacao: AvaliacaoTurno, checagens: Sequence[Checagem], falas: Mapping[str, Fala]
) -> list[ItemRetido]:
    """The held items of one evaluated turn: proposals, the personal attack, checkable claims."""
    if _liberado(turno):
        return []
    palavras = medidas_das_falas(falas[f] for f in turno.falas if f in falas)
    retidos = []
    for i, proposta in enumerate(avaliacao.propostas, start=1):
        motivos = julgar(proposta.texto, palavras)
        if motivos:
            retidos.append(
                ItemRetido(f"{turno.id}-p{i}", turno.id, turno.candidato, PROPOSTA, proposta.texto, motivos)
            )
    if avaliacao.ataque_pessoal and avaliacao.trecho_ataque:
        motivos = julgar(avaliacao.trecho_ataque, palavras)
        if motivos:
            retidos.append(
                ItemRetido(
                    f"{turno.id}-ataque", turno.id, turno.candidato, ATAQUE, avaliacao.trecho_ataque, motivos
                )
            )
    for c in checagens:
        motivos = julgar(c.afirmacao, palavras)
        if motivos:
            retidos.append(ItemRetido(c.id, turno.id, turno.candidato, AFIRMACAO, c.afirmacao, motivos))
    return retidos


def perguntas_retidas(
    perguntas: Sequence[PerguntaTurno], turnos: Sequence[Turno], falas: Mapping[str, Fala]
) -> list[ItemRetido]:
    """The questions whose words were heard with too little confidence to score a direct answer.

    The editor's marked question passes, and so does one taken from a turn the editor confirmed
    or corrected (a face-off provocation).
    """
    por_id = {t.id: t for t in turnos}
    conferidas = {f for t in turnos if _liberado(t) for f in t.falas}
    retidas = []
    for p in perguntas:
        turno = por_id.get(p.turno)
        if turno is None or not p.texto or p.origem == "editor" or not p.falas:
            continue
        if all(f in conferidas for f in p.falas):
            continue
        motivos = julgar(p.texto, medidas_das_falas(falas[f] for f in p.falas if f in falas))
        if motivos:
            retidas.append(
                ItemRetido(f"{p.turno}-pergunta", p.turno, turno.candidato, PERGUNTA, p.texto, motivos)
            )
    return retidas


def sem_retidos(avaliacao: AvaliacaoTurno, turno: str, retidos: Iterable[ItemRetido]) -> AvaliacaoTurno:
    """The evaluation as the scoreboard counts it: held proposals and a held attack left out."""
    ids = {r.id for r in retidos if r.turno == turno}
    propostas = tuple(p for i, p in enumerate(avaliacao.propostas, start=1) if f"{turno}-p{i}" not in ids)
    ataque = avaliacao.ataque_pessoal and f"{turno}-ataque" not in ids
    return replace(avaliacao, propostas=propostas, ataque_pessoal=ataque)


def para_json(retidos: Sequence[ItemRetido]) -> dict[str, Any]:
    """Stage output stored as `itens-em-revisao.json` (read by the page)."""
    return {
        "itens": [{**asdict(r), "tipo_nome": TIPOS[r.tipo], "motivos": list(r.motivos)} for r in retidos],
    }
