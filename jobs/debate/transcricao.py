"""Speech to text with faster-whisper, and the rules that stitch consecutive windows together.

Each window is the audio not yet transcribed from the previous segments (the tail) followed by the
new segment. Voice activity detection finds the pauses; the window is transcribed only up to the
last pause, and what follows it (a word or phrase the segment boundary may have cut) is carried,
overlapping, into the next window. Whisper therefore always sees whole phrases that begin after a
pause. When someone speaks for longer than CAUDA_MAX_S without pausing, the cut falls between
words instead (words near the window's end are held back). Words already committed are never
emitted again (de-duplication by time), so nothing is lost or doubled.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jobs.debate.audio import TAXA, Amostras

# A word is a duplicate when at least half of it lies before the last committed word's end, or when
# it ends there (Whisper gives some words no length: "que é o" all at 8.506 s, heard again by the
# next window, were committed twice).
_SOBREPOSICAO_DUPLICADA = 0.5
# Greedy decoding only: re-decoding loops at higher temperatures costs too much time for too little.
TEMPERATURA = 0.0
# "-tá -tá -tá ...": more repetitions than this in a row are a decoding loop, not speech.
REPETICAO_MAX = 3
# A phrase of this many words or more, said twice in a row, is a loop too (up to FRASE_MAX words).
FRASE_REPETIDA = 4
FRASE_MAX = 12
# Tokens Whisper may write for a window: real speech needs under 10 a second (fast Portuguese, with
# timestamps); the cap ends a decoding loop ("o que é o que é ...", 224 tokens written for a 0.4 s
# silent tail, ten times the CPU of the window's speech) without touching real speech. Never above
# Whisper's own sample length, so the prompt always fits in its 448-token context.
TOKENS_POR_SEGUNDO = 12
TOKENS_FOLGA = 16
TOKENS_MAX = 224
# Without a pause for this long, the window is cut between words instead of at a pause.
CAUDA_MAX_S = 20.0
# Voice activity detection: pauses shorter than this do not split speech; speech is padded by this.
PAUSA_MIN_MS = 300
MARGEM_FALA_MS = 100
# Silence at a window's end counts as a pause only when at least this long (speech may resume).
PAUSA_FINAL_S = 0.4
# The prompt before every window: the debate's own words, as a live captioner has them at hand (the
# participants' names and the topics the program announces, `vocabulario` in debate.toml). Names
# are what Whisper base gets wrong most ("Rui Amaral" heard as "Fui Macau"). Kept short: a long
# prompt is echoed back on windows with little speech.
PROMPT_MAX_CARACTERES = 240


@dataclass(frozen=True)
class Palavra:
    """A recognised word in video time (seconds)."""

    p: str
    inicio_s: float
    fim_s: float
    prob: float = 1.0
    # Measures of the Whisper segment the word came from (for the confidence gate, confianca.py).
    logprob: float = 0.0  # the segment's average log-probability
    sem_fala: float = 0.0  # the segment's no-speech probability
    compressao: float = 1.0  # the segment's compression ratio (high when the decoder loops)


@dataclass(frozen=True)
class OpcoesWhisper:
    """Decoding options; `prompt` is put before the context of every window (empty by default)."""

    idioma: str = "pt"
    feixe: int = 5
    prompt: str = ""


def prompt_do_debate(nomes: Sequence[str], vocabulario: Sequence[str] = ()) -> str:
    """The decoding prompt: "Debate com <names>: <topic words>." (empty without names or words).

    Parenthesised notes in a name ("Clara Mendes (mediadora fictícia)") are left out; words past
    PROMPT_MAX_CARACTERES are dropped.
    """
    limpos = [n for n in (re.sub(r"\s*\([^)]*\)", "", x).strip() for x in nomes) if n]
    termos = [t.strip() for t in vocabulario if t.strip()]
    if not limpos and not termos:
        return ""
    juntos = ", ".join(limpos[:-1]) + (" e " if len(limpos) > 1 else "") + (limpos[-1] if limpos else "")
    prompt = f"Debate com {juntos}" if juntos else "Debate"
    for i, termo in enumerate(termos):
        seguinte = f"{prompt}{': ' if i == 0 else ', '}{termo}"
        if len(seguinte) + 1 > PROMPT_MAX_CARACTERES:
            break
        prompt = seguinte
    return prompt + "."


def prompt_da_pasta(debate_dir: Path) -> str:
    """The prompt of a debate folder, from its `debate.toml` (names and `vocabulario`); empty when
    the file is missing or invalid (the job then transcribes without one, as before)."""
    import tomllib

    try:
        dados = tomllib.loads((debate_dir / "debate.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return ""
    participantes = dados.get("participantes")
    nomes = [
        str(p["nome"])
        for p in (participantes if isinstance(participantes, list) else [])
        if isinstance(p, dict) and isinstance(p.get("nome"), str)
    ]
    vocabulario = dados.get("vocabulario")
    termos = [t for t in (vocabulario if isinstance(vocabulario, list) else []) if isinstance(t, str)]
    return prompt_do_debate(nomes, termos)


class Transcritor:
    """Transcribes windows of 16 kHz audio with one loaded faster-whisper model."""

    def __init__(self, modelo: Any, opcoes: OpcoesWhisper) -> None:
        self.modelo = modelo
        self.opcoes = opcoes

    def transcrever(self, amostras: Amostras, inicio_s: float, contexto: str = "") -> list[Palavra]:
        """Words of the window, with times shifted by `inicio_s` (the window's start in the video).

        `contexto` (text said just before the window) goes in Whisper's prompt; the job passes none:
        with the base model it made short windows hallucinate more than it helped.
        """
        if len(amostras) < TAXA // 10:
            return []
        segmentos, _info = self.modelo.transcribe(
            amostras,
            language=self.opcoes.idioma,
            beam_size=self.opcoes.feixe,
            word_timestamps=True,
            vad_filter=True,
            temperature=TEMPERATURA,
            condition_on_previous_text=False,
            initial_prompt=" ".join(x for x in (self.opcoes.prompt, contexto) if x) or None,
            max_new_tokens=limite_de_tokens(len(amostras) / TAXA),
        )
        palavras: list[Palavra] = []
        for segmento in segmentos:
            medidas = {
                "logprob": round(float(segmento.avg_logprob), 4),
                "sem_fala": round(float(segmento.no_speech_prob), 4),
                "compressao": round(float(segmento.compression_ratio), 4),
            }
            for w in segmento.words or ():
                texto = str(w.word).strip()
                if not texto:
                    continue
                ini = inicio_s + float(w.start)
                fim = max(ini, inicio_s + float(w.end))
                prob = round(float(w.probability), 3)
                palavras.append(Palavra(texto, round(ini, 3), round(fim, 3), prob, **medidas))
        return sem_repeticoes(palavras)


def limite_de_tokens(duracao_s: float) -> int:
    """The most tokens Whisper may write for a window of `duracao_s` seconds (TOKENS_POR_SEGUNDO)."""
    return min(TOKENS_MAX, TOKENS_FOLGA + math.ceil(TOKENS_POR_SEGUNDO * duracao_s))


def _chave(w: Palavra) -> str:
    return w.p.strip(" -.,!?;:").lower()


def sem_repeticoes(palavras: list[Palavra]) -> list[Palavra]:
    """Drop Whisper's decoding loops: a word repeated over REPETICAO_MAX times, a long phrase said twice."""
    saida = list(palavras)
    for n in range(1, FRASE_MAX + 1):
        i = 0
        while i + n <= len(saida):
            bloco = [_chave(w) for w in saida[i : i + n]]
            j = i + n
            repeticoes = 1
            while j + n <= len(saida) and [_chave(w) for w in saida[j : j + n]] == bloco:
                repeticoes += 1
                j += n
            if repeticoes > (REPETICAO_MAX if n < FRASE_REPETIDA else 1):
                del saida[i + n : j]  # keep the first occurrence
            i += 1
    return saida


def pausas_da_janela(
    regioes: Iterable[tuple[float, float]], inicio_s: float, fim_s: float
) -> list[tuple[float, float]]:
    """The silences of a window (video time): before, between and after its speech regions."""
    falas = sorted(regioes)
    if not falas:
        return [(inicio_s, fim_s)] if fim_s > inicio_s else []
    bordas = [(inicio_s, falas[0][0])]
    bordas += [(a[1], b[0]) for a, b in itertools.pairwise(falas)]
    bordas.append((falas[-1][1], fim_s))
    return [(round(a, 3), round(b, 3)) for a, b in bordas if b > a]


def unir_pausas(pausas: Iterable[tuple[float, float]], folga_s: float = 0.05) -> list[tuple[float, float]]:
    """Merge overlapping or touching silences (the same pause seen from two windows)."""
    unidas: list[tuple[float, float]] = []
    for a, b in sorted(pausas):
        if unidas and a <= unidas[-1][1] + folga_s:
            unidas[-1] = (unidas[-1][0], max(unidas[-1][1], b))
        else:
            unidas.append((a, b))
    return unidas


@dataclass(frozen=True)
class Corte:
    """The outcome of one window: words to commit and where the next window starts."""

    confirmadas: tuple[Palavra, ...]
    proximo_inicio_s: float  # start (video time) of the audio carried to the next window


def cortar_janela(
    palavras: Iterable[Palavra],
    fim_janela_s: float,
    ultimo_fim_s: float,
    margem_s: float,
    final: bool,
) -> Corte:
    """Split a window's words into committed ones and the held-back tail.

    `ultimo_fim_s` is the end of the last word already committed (de-duplication); `final` commits
    everything (the recording is over, or the next audio is not contiguous).
    """
    novas: list[Palavra] = []
    for w in sorted(palavras, key=lambda x: (x.inicio_s, x.fim_s)):
        duracao = max(w.fim_s - w.inicio_s, 1e-3)
        antes = max(0.0, min(w.fim_s, ultimo_fim_s) - w.inicio_s)
        if w.fim_s <= ultimo_fim_s or antes / duracao >= _SOBREPOSICAO_DUPLICADA:
            continue
        novas.append(w)
    if final:
        return Corte(tuple(novas), fim_janela_s)
    limite = fim_janela_s - margem_s
    confirmadas = [w for w in novas if w.fim_s <= limite]
    retidas = [w for w in novas if w.fim_s > limite]
    inicio = min(retidas[0].inicio_s, limite) if retidas else limite
    if confirmadas:
        inicio = max(inicio, confirmadas[-1].fim_s)
    inicio = max(inicio, fim_janela_s - CAUDA_MAX_S / 2)
    # Anything after the cut point is transcribed again next time, so it must not be committed now.
    confirmadas = [w for w in confirmadas if w.inicio_s < inicio]
    return Corte(tuple(confirmadas), round(inicio, 3))


def detectar_fala(amostras: Amostras, inicio_s: float) -> list[tuple[float, float]]:
    """Speech regions of the audio (video time), by the Silero VAD that ships with faster-whisper."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    if len(amostras) < TAXA // 10:
        return []
    opcoes = VadOptions(min_silence_duration_ms=PAUSA_MIN_MS, speech_pad_ms=MARGEM_FALA_MS)
    return [
        (inicio_s + r["start"] / TAXA, inicio_s + r["end"] / TAXA)
        for r in get_speech_timestamps(amostras, opcoes, sampling_rate=TAXA)
    ]


@dataclass(frozen=True)
class PlanoCorte:
    """Where to cut a window: transcribe [start, corte_s]."""

    corte_s: float
    tem_fala: bool  # whether there is speech before the cut
    pausa_s: float = 0.0  # length of the silence the cut falls in (so far, when it ends the window)


def planejar_corte(
    regioes: Iterable[tuple[float, float]], inicio_s: float, fim_s: float
) -> PlanoCorte | None:
    """Cut at the last pause of the window; None when there is none (speech runs into the next segment).

    The pause is the middle of the last gap between speech regions, or the silence after the last
    region when it lasts at least PAUSA_FINAL_S. A window with no speech is cut near its end.
    """
    falas = sorted(regioes)
    if not falas:
        corte = max(inicio_s, fim_s - PAUSA_FINAL_S / 2)
        return PlanoCorte(round(corte, 3), False, fim_s - inicio_s)
    if fim_s - falas[-1][1] >= PAUSA_FINAL_S:
        corte = falas[-1][1] + PAUSA_FINAL_S / 2
        return PlanoCorte(round(corte, 3), True, fim_s - falas[-1][1])
    for anterior, seguinte in zip(reversed(falas[:-1]), reversed(falas[1:]), strict=True):
        if seguinte[0] > anterior[1]:
            meio = (anterior[1] + seguinte[0]) / 2
            return PlanoCorte(round(meio, 3), True, seguinte[0] - anterior[1])
    if falas[0][0] - inicio_s >= PAUSA_FINAL_S / 2:
        return PlanoCorte(round((inicio_s + falas[0][0]) / 2, 3), False, falas[0][0] - inicio_s)
    return None
