"""The transcript gate on turns: a turn whose answer the machine transcribed with low confidence is
held ("transcrição em revisão") and neither scored nor checked until an editor confirms the text
or corrects it (`eleicoes debate editar transcricao`). Thresholds: `jobs.debate.confianca`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from jobs.debate import confianca
from jobs.debate.armazenamento import Fala
from jobs.debate.edicoes import EdicaoTranscricao
from jobs.debate.turnos import Turno

EM_REVISAO = "em_revisao"
CONFIRMADA = "confirmada"
CORRIGIDA = "corrigida"


def medidas_do_turno(turno: Turno, falas: Mapping[str, Fala]) -> confianca.Medidas | None:
    """The confidence of the turn's answer: its own utterances' measures, word-weighted."""
    return confianca.combinar(
        f.confianca for fid in turno.falas if (f := falas.get(fid)) is not None and f.confianca is not None
    )


def aplicar(
    turnos: Sequence[Turno], falas: Sequence[Fala], edicoes: Mapping[str, EdicaoTranscricao]
) -> list[Turno]:
    """Mark each turn: held when below the threshold, unless the editor confirmed or corrected it
    (a correction replaces the text that is evaluated and checked)."""
    por_id = {f.id: f for f in falas}
    saida = []
    for t in turnos:
        motivos = confianca.motivos(medidas_do_turno(t, por_id))
        edicao = edicoes.get(t.id)
        if edicao is not None and edicao.texto:
            saida.append(replace(t, texto=edicao.texto, transcricao=CORRIGIDA, motivos_transcricao=motivos))
        elif edicao is not None:
            saida.append(replace(t, transcricao=CONFIRMADA, motivos_transcricao=motivos))
        elif motivos:
            saida.append(replace(t, transcricao=EM_REVISAO, motivos_transcricao=motivos))
        else:
            saida.append(t)
    return saida


def retido(turno: Turno) -> bool:
    """Whether the turn waits for the editor (not scored, not checked)."""
    return turno.transcricao == EM_REVISAO
