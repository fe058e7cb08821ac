"""Stage 3: the question of each turn.

- The question asked by whoever leads (moderator, journalist, voter) stays in force through the
  rebuttal and the counter-rebuttal, until the next question.
- Time warnings and calls ("candidato, o senhor tem 2 minutos") are not questions.
- In a face-off, the question is the other candidate's provocation.
- In a right of reply, it is the accusation that caused it.
- Closing statements have no question (the turn does not enter direct answers).
- The editor's marked question always wins.

Transcripts are machine-made: a question is found in what was heard. An interrogative word heard
with less certainty than the item gate's word minimum (`confianca.ITEM_PROB_PALAVRA_MIN`) is no cue
("Quem dita tu foi a Macau, ... tem um minuto para comentar?" is a call whose "Candidato" came out
as "Quem"), and a request for a plan or proposal is a question even when the recogniser lost its
interrogative word and its "?" ("Guau, seu plano para a Saugi."). Whether the question's words may
then score a direct answer is the item gate's decision (`itens_confianca.py`).

The block of a turn comes from `[[blocos]]` in `debate.toml` when the program lists them, else from
the moderator's calls ("confronto direto", "direito de resposta", "considerações finais").
"""

from __future__ import annotations

import itertools
import re
from dataclasses import asdict, dataclass
from typing import Any

from jobs.debate.armazenamento import Bloco, Debate, Fala
from jobs.debate.confianca import ITEM_PROB_PALAVRA_MIN
from jobs.debate.edicoes import Edicoes
from jobs.debate.papeis import PapelLocutor
from jobs.debate.texto import frases, sem_acento
from jobs.debate.turnos import Turno

PERGUNTA = "pergunta"  # ordinary mode: the leader's question in force
CONFRONTO = "confronto"
DIREITO_DE_RESPOSTA = "direito_de_resposta"
CONSIDERACOES_FINAIS = "consideracoes_finais"
MODO_DO_BLOCO = {
    "pergunta_jornalista": PERGUNTA,
    "eleitor": PERGUNTA,
    "confronto": CONFRONTO,
    "direito_de_resposta": DIREITO_DE_RESPOSTA,
    "consideracoes_finais": CONSIDERACOES_FINAIS,
}

_NUM_TEMPO = r"(?:\d+|um|uma|dois|duas|tres|quatro|cinco|trinta|quinze|vinte|quarenta|cinquenta|noventa|mais)"
# Sentences that only manage time or pass the floor (seed: "avisos de tempo e chamadas").
_CHAMADA = re.compile(
    "|".join(
        (
            rf"\b(?:tem|tera|tens|dispoe de|dispoem de|com)\s+(?:mais\s+)?(?:{_NUM_TEMPO}\s+)?(?:e meio\s+)?"
            r"(?:minutos?|segundos?)\b",
            rf"\b{_NUM_TEMPO}\s+(?:minutos?|segundos?)\b",
            r"\b(?:seu|o seu|teu) tempo\b",
            r"\btempo (?:esgotado|encerrado|acabou|terminou|esta acabando)\b",
            r"\b(?:para|pra) (?:a |sua |uma )?(?:replica|treplica|resposta|pergunta|consideracoes)\b",
            r"\b(?:para|pra) (?:comentar|responder|perguntar|rebater|concluir)\b",
            r"\b(?:a |com a )?palavra (?:e|esta) (?:sua|com)\b",
            r"\bpasso a palavra\b",
            r"\bcom a palavra\b",
            r"\bfaca (?:a |sua )?pergunta\b",
            r"\bpode (?:comecar|responder|perguntar|concluir|falar)\b",
            r"\b(?:por favor,? )?(?:conclua|encerre|finalize|conclui)\b",
            r"\bobrigad[oa]\b",
            r"\bboa noite\b",
            r"\bvamos (?:ao|a|para o|para a|agora)\b",
            r"\bconcedid[oa]\b",
            r"\bescolhe\b.*\bperguntar\b",
            r"\bquem (?:vai )?pergunta\b",
        )
    )
)
_INTERROGATIVA = re.compile(
    r"^(?:e\s+|mas\s+)?(?:qual|quais|como|quando|quanto|quantos|quantas|onde|quem|por que|o que)\b"
)
# A request for the candidate's plan or proposal on a subject: a question without its "?" (the
# recogniser often drops the interrogative word: "qual é o seu plano" heard as "Guau, seu plano").
_PEDE_PLANO = re.compile(r"\b(?:plano|planos|proposta|propostas|projeto|projetos)\s+(?:para|sobre)\b")
_INTERROGATIVAS = r"\b(qual|quais|como|quando|quanto|quantos|quantas|onde|quem|por que|o que)\b"
# Addressing a candidate, then asking: "Candidata Helena Prado, como a senhora vai ...", with the
# "?" lost and the call run into the same sentence (as Whisper writes the demo's questions).
_VOCATIVO = re.compile(r"^(?:\w+\s+){0,4}(?:candidat[oa]|senhora?)(?:\s+\w+){0,3}$")
# What stands for a word heard with too little certainty to be a cue (no letters: matches nothing).
INCERTA = "_"
# Moderator calls that open a block (used when the program does not list blocks).
_ABRE_CONFRONTO = re.compile(
    r"\b(confronto|pergunta (?:para|ao|a) (?:o |a )?candidat|faca (?:a |sua )?pergunta (?:para|ao|a)|"
    r"pode perguntar|escolhe (?:quem|para quem))"
)
_ABRE_DIREITO = re.compile(r"\bdireito de resposta\b")
_ABRE_FINAIS = re.compile(r"\bconsideracoes finais\b")
_ACUSA = re.compile(
    r"\b(mentir\w*|menti\w*|mentiros\w*|corrup\w*|fracass\w*|cortou|roub\w*|desvi\w*|escandal\w*|"
    r"incompet\w*|bandid\w*|ladr\w*|mente|culpa\w*|destruiu|abandonou)\b"
)
_ENDERECA = re.compile(
    r"\b(o senhor|a senhora|voce|candidat[oa]|meu adversario|minha adversaria|seu partido|seu governo|"
    r"sua gestao|sua administracao)\b"
)
# Leader calls that hand the floor on (however short): the next question, rebuttal or block.
_PASSA_A_VEZ = re.compile(
    r"\b(replica|treplica|bloco|intervalo|sua pergunta|faca (?:a |sua )?pergunta|pergunta (?:para|ao|a)|"
    r"consideracoes finais|direito de resposta|confronto|encerr\w+ (?:o|este) debate)\b"
)


@dataclass(frozen=True)
class PerguntaTurno:
    """The question a turn answers, or why it has none."""

    turno: str
    texto: str | None
    origem: str  # moderador | jornalista | eleitor | confronto | direito_de_resposta | editor | nenhuma
    autor: str  # who asked (name), "" when none
    falas: tuple[str, ...]  # utterances the question comes from
    bloco: str  # pergunta | confronto | direito_de_resposta | consideracoes_finais
    motivo: str = ""

    @property
    def tem_pergunta(self) -> bool:
        """True when the turn enters direct answers."""
        return bool(self.texto)


def e_chamada(frase: str) -> bool:
    """True for a time warning or a call to speak (never a question)."""
    return bool(_CHAMADA.search(sem_acento(frase)))


def e_interrogativa(frase: str) -> bool:
    """True for a question sentence ("?", a strong interrogative opening, as transcripts may drop
    "?", or a request for a plan or proposal)."""
    base = sem_acento(frase.strip())
    if frase.rstrip().endswith("?") or _INTERROGATIVA.match(base) or _PEDE_PLANO.search(base):
        return True
    partes = [p.strip() for p in base.split(",")]
    return any(_VOCATIVO.match(a) and _INTERROGATIVA.match(b) for a, b in itertools.pairwise(partes))


def ouvido(fala: Fala) -> str:
    """The utterance's text with each word heard below the word minimum replaced by `INCERTA`
    (its punctuation kept, so sentences split the same); the text itself when it has no word
    measures or was not made of its words (typed, edited)."""
    if not fala.palavras or " ".join(p.p for p in fala.palavras) != fala.texto:
        return fala.texto
    return " ".join(
        p.p
        if p.medida is None or p.medida.prob >= ITEM_PROB_PALAVRA_MIN
        else INCERTA + p.p[len(p.p.rstrip(".,;:!?…")) :]
        for p in fala.palavras
    )


def pergunta_de(texto: str, ouvida: str | None = None) -> str | None:
    """The question in a leader's utterance without its calls and time warnings; None if none.

    The context sentences before the question stay (a journalist's preface frames the parts).
    `ouvida` is the same text as heard (`ouvido`): the cues are read there, the sentences kept
    are the text's.
    """
    originais = frases(texto)
    pistas = frases(ouvida) if ouvida is not None else originais
    if len(pistas) != len(originais):
        pistas = originais
    restantes = [
        (f, h) for f, h in zip(originais, pistas, strict=True) if not e_chamada(h) or not _so_chamada(h)
    ]
    if not any(e_interrogativa(h) for _, h in restantes):
        return None
    return " ".join(f for f, _ in restantes)


def pergunta_da_fala(fala: Fala) -> str | None:
    """The question in a leader's utterance, its cues read in what was heard."""
    return pergunta_de(fala.texto, ouvido(fala))


def _so_chamada(frase: str) -> bool:
    # "O senhor tem dois minutos." is a call; "Em dois minutos, qual é o seu plano?" is a question.
    sem = _CHAMADA.sub(" ", sem_acento(frase))
    return not re.search(_INTERROGATIVAS, sem) and not _PEDE_PLANO.search(sem)


def passa_a_vez(fala: Fala, papel: PapelLocutor | None) -> bool:
    """True when a leader's utterance hands the floor on: a question, or a call to the next turn."""
    if papel is None or not papel.conduz:
        return False
    return pergunta_da_fala(fala) is not None or bool(_PASSA_A_VEZ.search(sem_acento(fala.texto)))


def _bloco_explicito(blocos: tuple[Bloco, ...], instante: float) -> Bloco | None:
    for b in blocos:
        if b.inicio_s <= instante < b.fim_s:
            return b
    return None


def _frases_dirigidas(texto: str, nome_alvo: str, so_perguntas: bool) -> list[str]:
    """Sentences of a turn aimed at the target candidate (questions, or addressing them)."""
    alvo = [p for p in sem_acento(nome_alvo).split() if len(p) > 2]
    saida = []
    for f in frases(texto):
        base = sem_acento(f)
        nomeia = any(re.search(rf"\b{re.escape(p)}\b", base) for p in alvo)
        if f.rstrip().endswith("?") or (not so_perguntas and (nomeia or _ENDERECA.search(base))):
            saida.append(f)
    return saida


@dataclass
class _Estado:
    modo: str = PERGUNTA
    pergunta: str | None = None
    autor: str = ""
    origem: str = ""
    fala: str = ""
    pergunta_s: float = 0.0  # when the question in force was asked
    inicio_modo_s: float = 0.0
    direito_para: int = 0  # turns still answering a right of reply (inferred mode)
    anterior: str = PERGUNTA  # mode to return to after a right of reply


def atribuir(
    debate: Debate,
    falas: list[Fala],
    papeis: dict[str, PapelLocutor],
    turnos: list[Turno],
    edicoes: Edicoes,
) -> list[PerguntaTurno]:
    """The question of every turn, in turn order."""
    candidatos = debate.candidatos()
    por_fala = {t.falas[0]: t for t in turnos}
    estado = _Estado()
    anteriores: list[Turno] = []
    saida: list[PerguntaTurno] = []
    for f in falas:
        papel = papeis.get(f.locutor)
        turno = por_fala.get(f.id)
        if turno is None:
            if papel is not None and papel.conduz:
                _ler_conducao(estado, f, papel, debate.blocos)
            continue
        bloco = _bloco_explicito(debate.blocos, turno.inicio_s)
        if bloco is not None:
            modo = MODO_DO_BLOCO[bloco.tipo]
            inicio_modo = bloco.inicio_s
        else:
            modo = estado.modo
            inicio_modo = estado.inicio_modo_s
            if modo == DIREITO_DE_RESPOSTA:
                estado.direito_para -= 1
                if estado.direito_para <= 0:
                    estado.modo = estado.anterior
        pergunta = _pergunta_automatica(turno, modo, inicio_modo, estado, anteriores, candidatos, bloco)
        if turno.id in edicoes.perguntas:
            pergunta = _pergunta_do_editor(turno, edicoes, falas, papeis, pergunta.bloco)
        saida.append(pergunta)
        anteriores.append(turno)
    return saida


def _ler_conducao(estado: _Estado, f: Fala, papel: PapelLocutor, blocos: tuple[Bloco, ...]) -> None:
    """Update the question in force (and, without a listed program, the block) from a leader's utterance."""
    pergunta = pergunta_da_fala(f)
    if pergunta is not None:
        estado.pergunta, estado.autor, estado.origem, estado.fala = pergunta, papel.nome, papel.papel, f.id
        estado.pergunta_s = f.inicio_s
    if blocos:
        return  # the program lists the blocks: calls do not change them
    base = sem_acento(f.texto)
    if pergunta is not None:
        estado.modo, estado.inicio_modo_s = PERGUNTA, f.inicio_s
    elif _ABRE_FINAIS.search(base):
        estado.modo, estado.inicio_modo_s = CONSIDERACOES_FINAIS, f.inicio_s
    elif _ABRE_DIREITO.search(base):
        estado.anterior = estado.modo
        estado.modo, estado.direito_para = DIREITO_DE_RESPOSTA, 1
    elif _ABRE_CONFRONTO.search(base):
        estado.modo, estado.inicio_modo_s = CONFRONTO, f.inicio_s
        estado.pergunta = None


def _pergunta_automatica(
    turno: Turno,
    modo: str,
    inicio_modo: float,
    estado: _Estado,
    anteriores: list[Turno],
    candidatos: dict[str, str],
    bloco: Bloco | None,
) -> PerguntaTurno:
    nome_bloco = bloco.tipo if bloco is not None else modo
    if modo == CONSIDERACOES_FINAIS:
        return PerguntaTurno(
            turno.id, None, "nenhuma", "", (), nome_bloco, "considerações finais não têm pergunta"
        )
    nome = candidatos.get(turno.candidato, turno.candidato)
    if modo == CONFRONTO:
        rival = next(
            (t for t in reversed(anteriores) if t.candidato != turno.candidato and t.inicio_s >= inicio_modo),
            None,
        )
        if rival is None:
            return PerguntaTurno(
                turno.id, None, "nenhuma", "", (), nome_bloco, "abre o confronto: não há provocação"
            )
        provocacao = _frases_dirigidas(rival.texto, nome, so_perguntas=False)
        if not provocacao:
            motivo = "o adversário não dirigiu provocação a este candidato"
            return PerguntaTurno(turno.id, None, "nenhuma", "", (), nome_bloco, motivo)
        return PerguntaTurno(
            turno.id,
            " ".join(provocacao),
            "confronto",
            candidatos.get(rival.candidato, rival.candidato),
            rival.falas,
            nome_bloco,
            "provocação do adversário",
        )
    if modo == DIREITO_DE_RESPOSTA:
        # The accusation: the latest sentences of another candidate aimed at this one that accuse.
        acusador, acusacao = None, []
        for t in reversed(anteriores):
            if t.candidato == turno.candidato:
                continue
            frases_acusacao = [
                f
                for f in _frases_dirigidas(t.texto, nome, so_perguntas=False)
                if _ACUSA.search(sem_acento(f))
            ]
            if frases_acusacao:
                acusador, acusacao = t, frases_acusacao
                break
        if acusador is None:
            return PerguntaTurno(turno.id, None, "nenhuma", "", (), nome_bloco, "acusação não encontrada")
        return PerguntaTurno(
            turno.id,
            " ".join(acusacao),
            "direito_de_resposta",
            candidatos.get(acusador.candidato, acusador.candidato),
            acusador.falas,
            nome_bloco,
            "acusação que gerou o direito de resposta",
        )
    if estado.pergunta is None or (bloco is not None and estado.pergunta_s < bloco.inicio_s):
        return PerguntaTurno(turno.id, None, "nenhuma", "", (), nome_bloco, "nenhuma pergunta em vigor")
    return PerguntaTurno(
        turno.id,
        estado.pergunta,
        estado.origem,
        estado.autor,
        (estado.fala,),
        nome_bloco,
        "pergunta de quem conduz o debate, em vigor até a próxima",
    )


def _pergunta_do_editor(
    turno: Turno, edicoes: Edicoes, falas: list[Fala], papeis: dict[str, PapelLocutor], bloco: str
) -> PerguntaTurno:
    e = edicoes.perguntas[turno.id]
    if e.nenhuma:
        return PerguntaTurno(turno.id, None, "editor", "", (), bloco, "o editor marcou que não há pergunta")
    if e.fala:
        fala = next((f for f in falas if f.id == e.fala), None)
        if fala is not None:
            papel = papeis.get(fala.locutor)
            texto = pergunta_da_fala(fala) or fala.texto
            autor = papel.nome if papel is not None else fala.locutor
            return PerguntaTurno(
                turno.id, texto, "editor", autor, (fala.id,), bloco, "pergunta marcada pelo editor"
            )
        return PerguntaTurno(
            turno.id, None, "editor", "", (), bloco, f"fala {e.fala} não encontrada na transcrição"
        )
    return PerguntaTurno(turno.id, e.texto, "editor", "", (), bloco, "pergunta marcada pelo editor")


def para_json(perguntas: list[PerguntaTurno]) -> dict[str, Any]:
    """Stage output stored as `perguntas.json`."""
    return {"perguntas": [asdict(p) for p in perguntas]}
