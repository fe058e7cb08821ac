"""Stage 2: turns. Everything a candidate says answering one question, until the floor passes.

Short interjections by someone else (a run of utterances by one other voice lasting less than
`aparte_max_s`, default 10 s) do not break a turn. A turn is closed, and can be evaluated, once
the floor has passed to another voice (or the debate is over). Another candidate speaking right
after whoever leads the debate (moderator, journalist, voter) took the floor from them, however
short their answer: the floor passed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from jobs.debate.armazenamento import Bloco, Fala
from jobs.debate.papeis import PapelLocutor


@dataclass(frozen=True)
class Turno:
    """One turn of one candidate."""

    id: str  # "t-" + id of its first utterance: stable while the transcript grows
    candidato: str
    locutor: str
    falas: tuple[str, ...]  # the candidate's utterances
    apartes: tuple[str, ...]  # interjections by others inside the turn
    inicio_s: float
    fim_s: float
    duracao_s: float  # the candidate's own speaking time in the turn
    texto: str
    encerrado: bool
    # Transcript gate (revisao_transcricao.py): "" (trusted), "em_revisao" (held: not scored or
    # checked), "confirmada" or "corrigida" (by the editor); and why it was held.
    transcricao: str = ""
    motivos_transcricao: tuple[str, ...] = ()


@dataclass
class _Aberto:
    candidato: str
    locutor: str
    falas: list[Fala] = field(default_factory=list)
    apartes: list[Fala] = field(default_factory=list)

    def turno(self, encerrado: bool) -> Turno:
        return Turno(
            id=f"t-{self.falas[0].id}",
            candidato=self.candidato,
            locutor=self.locutor,
            falas=tuple(f.id for f in self.falas),
            apartes=tuple(f.id for f in self.apartes),
            inicio_s=self.falas[0].inicio_s,
            fim_s=self.falas[-1].fim_s,
            duracao_s=round(sum(f.duracao_s for f in self.falas), 3),
            texto=" ".join(f.texto for f in self.falas if f.texto),
            encerrado=encerrado,
        )


def _corrida_final(pendentes: list[Fala]) -> list[Fala]:
    """The trailing run of consecutive utterances by the same voice."""
    ultimo = pendentes[-1].locutor
    corrida: list[Fala] = []
    for f in reversed(pendentes):
        if f.locutor != ultimo:
            break
        corrida.append(f)
    return corrida[::-1]


def _resposta_pendente(pendentes: list[Fala], papeis: dict[str, PapelLocutor], candidato: str) -> list[Turno]:
    """When the floor passes, another candidate's pending run (shorter than an interjection) is a
    turn of its own, closed, rather than lost."""
    corrida = _corrida_final(pendentes) if pendentes else []
    outro = papeis.get(corrida[0].locutor) if corrida else None
    if outro is None or not outro.avaliado or outro.candidato == candidato:
        return []
    return [_Aberto(outro.candidato, corrida[0].locutor, corrida).turno(encerrado=True)]


def _bloco_de(blocos: tuple[Bloco, ...], instante: float) -> int:
    return next((i for i, b in enumerate(blocos) if b.inicio_s <= instante < b.fim_s), -1)


def segmentar(
    falas: list[Fala],
    papeis: dict[str, PapelLocutor],
    aparte_max_s: float,
    debate_encerrado: bool,
    passa_a_vez: Callable[[Fala], bool] = lambda f: False,
    blocos: tuple[Bloco, ...] = (),
) -> list[Turno]:
    """Group utterances (in time order) into candidate turns.

    Besides a long utterance by someone else, the floor passes when a leader asks a question or
    calls the next speaker (`passa_a_vez`, however short), and when the program's block changes.
    """
    turnos: list[Turno] = []
    aberto: _Aberto | None = None
    pendentes: list[Fala] = []
    for f in falas:
        papel = papeis.get(f.locutor)
        candidato = papel.candidato if papel is not None and papel.avaliado else None
        if aberto is not None and (
            passa_a_vez(f)
            or (blocos and _bloco_de(blocos, f.inicio_s) != _bloco_de(blocos, aberto.falas[0].inicio_s))
        ):
            turnos.append(aberto.turno(encerrado=True))
            turnos += _resposta_pendente(pendentes, papeis, aberto.candidato)
            aberto, pendentes = None, []
            if passa_a_vez(f):
                continue
        if aberto is not None and candidato == aberto.candidato:
            aberto.apartes += pendentes  # everyone else was only interjecting
            pendentes = []
            aberto.falas.append(f)
            continue
        if aberto is None:
            if candidato:
                aberto = _Aberto(candidato, f.locutor, [f])
            continue
        anterior = papeis.get(pendentes[-1].locutor) if pendentes else None
        pendentes.append(f)
        corrida = _corrida_final(pendentes)
        entregue = candidato is not None and anterior is not None and anterior.conduz
        if entregue or sum(x.duracao_s for x in corrida) >= aparte_max_s:
            turnos.append(aberto.turno(encerrado=True))  # the floor has passed
            aberto = _Aberto(candidato, f.locutor, corrida) if candidato else None
            pendentes = []
    if aberto is not None:
        turnos.append(aberto.turno(encerrado=debate_encerrado))
        if debate_encerrado:
            turnos += _resposta_pendente(pendentes, papeis, aberto.candidato)
    return turnos


def para_json(turnos: list[Turno]) -> dict[str, Any]:
    """Stage output stored as `turnos.json`."""
    return {"turnos": [asdict(t) for t in turnos]}


def de_json(dados: dict[str, Any]) -> list[Turno]:
    """Turns read back from `turnos.json`."""
    return [
        Turno(
            **{
                **t,
                "falas": tuple(t["falas"]),
                "apartes": tuple(t["apartes"]),
                "motivos_transcricao": tuple(t.get("motivos_transcricao", ())),
            }
        )
        for t in dados["turnos"]
    ]
