"""Stage 1: who speaks. Each speaker label is a candidate, moderator, journalist or voter.

The program (`debate.toml`) names the known voices; a label it does not list (a new voice found by
the audio job) is classified by rules over what that voice says, and the editor's corrections
(`edicoes.toml`) always win. Whoever asks (moderator, journalist, voter) is never evaluated.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, replace
from typing import Any

from jobs.debate.armazenamento import PAPEIS_QUE_PERGUNTAM, Debate, Fala
from jobs.debate.edicoes import Edicoes
from jobs.debate.texto import sem_acento

ORIGEM_PROGRAMA = "programa"
ORIGEM_IA = "ia"
ORIGEM_EDITOR = "editor"

_MODERACAO = re.compile(
    r"\b(bloco|replica|treplica|regras?|consideracoes finais|direito de resposta|passo a palavra|"
    r"com a palavra|boa noite a todos|intervalo|voltamos|encerramos|sorteio|tempo esgotado|"
    r"o senhor tem|a senhora tem|voce tem|sua pergunta|faca sua pergunta|pode perguntar|pode responder)\b"
)
_ELEITOR = re.compile(
    r"\b(sou eleitor|sou eleitora|moro em|moro no|moro na|sou morador|sou moradora|"
    r"minha pergunta|eu trabalho como|sou mae|sou pai|sou professora?|sou enfermeira?)\b"
)
_CANDIDATO = re.compile(
    r"\b(meu governo|minha gestao|nosso governo|vou fazer|vou criar|vamos fazer|vamos criar|eu fiz|"
    r"nos fizemos|minha proposta|nosso plano|meu plano|meu adversario|minha adversaria|quando eu for|"
    r"quando eu governar|eleito|eleita)\b"
)


@dataclass(frozen=True)
class PapelLocutor:
    """The role of one speaker label and where it came from."""

    locutor: str
    papel: str
    nome: str
    candidato: str  # candidate id, "" when not a candidate (or a candidate not yet identified)
    origem: str  # programa | ia | editor
    motivo: str = ""

    @property
    def avaliado(self) -> bool:
        """Only an identified candidate is evaluated."""
        return self.papel == "candidato" and bool(self.candidato)

    @property
    def conduz(self) -> bool:
        """Moderator, journalist or voter: whoever asks."""
        return self.papel in PAPEIS_QUE_PERGUNTAM


def _nomes_chamados(texto: str, candidatos: dict[str, str]) -> set[str]:
    """Candidates a leader's utterance names (full name, first name or surname)."""
    base = sem_acento(texto)
    achados = set()
    for cid, nome in candidatos.items():
        partes = [p for p in sem_acento(nome).split() if len(p) > 2]
        if any(re.search(rf"\b{re.escape(p)}\b", base) for p in partes):
            achados.add(cid)
    return achados


def _classificar(
    rotulo: str,
    falas: list[Fala],
    todas: list[Fala],
    conhecidos: dict[str, PapelLocutor],
    candidatos: dict[str, str],
) -> PapelLocutor:
    """Rules for a label the program does not list (a baseline, corrected by the editor)."""
    proprias = [f for f in falas if f.locutor == rotulo]
    texto = sem_acento(" ".join(f.texto for f in proprias))
    moderacao = len(_MODERACAO.findall(texto))
    eleitor = len(_ELEITOR.findall(texto))
    candidato = len(_CANDIDATO.findall(texto))
    perguntas = texto.count("?")
    votos: Counter[str] = Counter()
    indice = {f.id: i for i, f in enumerate(todas)}
    for f in proprias:
        # A leader who calls a candidate by name just before this voice speaks points to who it is.
        for anterior in reversed(todas[max(0, indice[f.id] - 2) : indice[f.id]]):
            papel = conhecidos.get(anterior.locutor)
            if papel is not None and papel.conduz:
                votos.update(_nomes_chamados(anterior.texto, candidatos))
                break
        for cid, nome in candidatos.items():  # "Eu, Helena Prado, ..." names oneself
            if re.search(rf"\beu,? {re.escape(sem_acento(nome))}\b", sem_acento(f.texto)):
                votos[cid] += 3
    if candidato and votos:
        (cid, n), *resto = votos.most_common()
        if not resto or n > resto[0][1]:
            motivo = "fala como candidato e foi chamado pelo nome pela mediação"
            return PapelLocutor(rotulo, "candidato", candidatos[cid], cid, ORIGEM_IA, motivo)
    if eleitor and eleitor >= moderacao:
        return _sem_nome(rotulo, "eleitor", "apresenta-se como eleitor")
    if moderacao >= 2 or (moderacao and not candidato):
        return _sem_nome(rotulo, "moderador", "conduz o debate (tempo, blocos)")
    if perguntas and not candidato:
        return _sem_nome(rotulo, "jornalista", "faz perguntas")
    if candidato:
        return _sem_nome(
            rotulo, "candidato", "fala como candidato, mas não foi possível saber qual: aguarda o editor"
        )
    return _sem_nome(rotulo, "moderador", "voz não identificada: tratada como mediação")


# What readers see for a voice the program does not list: its role, never the internal label
# (VOZ_07 is the diarizer's name for a voice, not a person's).
NOMES_SEM_IDENTIFICACAO = {
    "moderador": "Mediação",
    "jornalista": "Jornalista não identificado",
    "eleitor": "Eleitor não identificado",
    "candidato": "Candidato não identificado",
}


def _sem_nome(rotulo: str, papel: str, motivo: str) -> PapelLocutor:
    return PapelLocutor(rotulo, papel, NOMES_SEM_IDENTIFICACAO[papel], "", ORIGEM_IA, motivo)


def identificar(
    debate: Debate, falas: list[Fala], edicoes: Edicoes
) -> tuple[dict[str, PapelLocutor], list[Fala]]:
    """Role of every speaker label, and the utterances with the editor's speaker corrections applied."""
    corrigidas = [replace(f, locutor=edicoes.falas[f.id]) if f.id in edicoes.falas else f for f in falas]
    candidatos = debate.candidatos()
    papeis: dict[str, PapelLocutor] = {
        p.locutor: PapelLocutor(p.locutor, p.papel, p.nome, p.candidato, ORIGEM_PROGRAMA)
        for p in debate.participantes
    }
    for rotulo, e in edicoes.locutores.items():
        papeis[rotulo] = PapelLocutor(
            rotulo, e.papel, e.nome, e.candidato, ORIGEM_EDITOR, "corrigido pelo editor"
        )
    desconhecidos = sorted({f.locutor for f in corrigidas} - set(papeis))
    conhecidos = dict(papeis)
    for rotulo in desconhecidos:
        papeis[rotulo] = _classificar(rotulo, corrigidas, corrigidas, conhecidos, candidatos)
    return papeis, corrigidas


def para_json(papeis: dict[str, PapelLocutor], falas_corrigidas: dict[str, str]) -> dict[str, Any]:
    """Stage output stored as `papeis.json`."""
    return {
        "locutores": [asdict(p) for _, p in sorted(papeis.items())],
        "falas_corrigidas": dict(sorted(falas_corrigidas.items())),
    }
