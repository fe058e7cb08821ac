"""Generated Portuguese speech for the demo and the tests: a short fictional debate as audio segments.

Speech is made on this machine with `espeak-ng` (one voice per speaker). Without espeak-ng, the
demo uses the small recording bundled in `tests/fixtures/debate_demo.ogg`, made the same way by
`python -m jobs.debate.demo_audio` (run it again after changing the script or the voices).
Everything here is fictional and marked as a demonstration: the candidates Helena Prado and Rui
Amaral and the moderator Marta Lins do not exist, and the text was written for this project.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from jobs.debate.armazenamento import gravar_atomico
from jobs.debate.audio import TAXA, Amostras, decodificar, para_wav

GRAVACAO_EMBUTIDA = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "debate_demo.ogg"
# espeak-ng voice and pitch (0-99) per speaker: three clearly different voices (about 140, 205 and
# 80 Hz), as three real people would have, so the built-in voice-change detector can tell them apart.
VOZES: dict[str, tuple[str, int]] = {
    "marta-lins": ("pt-br", 85),
    "helena-prado": ("pt-br+f3", 50),
    "rui-amaral": ("pt-br+m3", 20),
}
VOZ_PADRAO = ("pt-br", 50)
# The demo's own voices and pace, chosen so that Whisper base hears the script well (WER measured
# by benchmarks/confianca_bench.py --so-demo, docs/QUALIDADE.md): the plain pt-br voice for Marta
# and Rui and its f3 variant for Helena, pitches about 120, 95 and 215 Hz (each pair over 0.3
# octave apart, past the voice-change detector's tolerance); slower than espeak's default, with a
# short gap between words (run-on words were heard as other words). Extreme pitches (the voices of
# the other tests, VOZES) made Whisper base mishear more than half the demo's words.
VOZES_DEMO: dict[str, tuple[str, int]] = {
    "marta-lins": ("pt-br", 65),
    "helena-prado": ("pt-br+f3", 50),
    "rui-amaral": ("pt-br", 40),
}
VELOCIDADE_DEMO = 130  # words per minute (espeak-ng -s; its default is 175)
INTERVALO_DEMO = 2  # pause between words, in 10 ms units (espeak-ng -g)

ROTEIRO_DEMO = """\
# Debate de demonstração: pessoas e falas fictícias, geradas por síntese de voz.
titulo = "Debate de demonstração (áudio sintético)"
data = 2026-10-25  # depois de 18/10/2026: o debate ao vivo mostra só o método atual
# Na demo o placar é datado no relógio da noite (o mesmo do servidor do site); reprocessado fora
# dela, na linha do tempo do debate (início + segundos do áudio), nunca no relógio da máquina.
inicio = 2026-10-25T17:30:00-03:00
emissora = "TV Demonstração"
demonstracao = true
# Palavras do programa que o reconhecedor de fala recebe com os nomes (transcricao.prompt_da_pasta).
vocabulario = [
  "saúde", "médicos", "escolas", "segurança pública", "policiais", "réplica", "considerações finais",
]

[[participantes]]
locutor = "marta-lins"
nome = "Marta Lins"
papel = "moderador"
candidato = ""

[[participantes]]
locutor = "helena-prado"
nome = "Helena Prado"
papel = "candidato"
candidato = "helena-prado"

[[participantes]]
locutor = "rui-amaral"
nome = "Rui Amaral"
papel = "candidato"
candidato = "rui-amaral"
"""

# Written for a speech recogniser to hear well: common words, one idea per sentence, numbers as
# Whisper writes them ("30 segundos"), no figures espeak-ng reads badly ("vinte mil" was heard
# "vinte meu"). The moderator's two questions are lines 1 and 7; her other lines are calls.
FALAS_DEMO: tuple[tuple[str, str], ...] = (
    ("marta-lins", "Boa noite a todos. Este é o primeiro bloco do debate."),
    (
        "marta-lins",
        "Candidata Helena Prado, a senhora tem dois minutos. Como a senhora vai melhorar os hospitais?",
    ),
    (
        "helena-prado",
        "Eu sou Helena Prado. A saúde pública precisa de mais médicos nos hospitais. "
        "Vamos construir novos hospitais em quatro anos.",
    ),
    ("marta-lins", "Obrigada. Candidato Rui Amaral, o senhor tem um minuto para comentar."),
    (
        "rui-amaral",
        "Eu sou Rui Amaral. A proposta não explica de onde vem o dinheiro. "
        "Nós vamos construir novas escolas até o fim do mandato.",
    ),
    ("marta-lins", "O tempo acabou. Candidata Helena Prado, a senhora tem 30 segundos para a réplica."),
    ("helena-prado", "Os recursos vêm da economia com publicidade."),
    (
        "marta-lins",
        "Candidato Rui Amaral, o senhor tem dois minutos. Como o senhor vai contratar mais policiais?",
    ),
    (
        "rui-amaral",
        "A segurança pública precisa de mais policiais nas ruas. "
        "Vamos dobrar o número de policiais em quatro anos.",
    ),
    ("marta-lins", "Considerações finais. Candidata Helena Prado, a senhora tem um minuto."),
    ("helena-prado", "Vamos cuidar dos hospitais. Obrigada e boa noite."),
    ("marta-lins", "Candidato Rui Amaral, o senhor tem um minuto."),
    ("rui-amaral", "Vamos cuidar da educação e da segurança. Obrigado e boa noite."),
    ("marta-lins", "Obrigada aos candidatos. Boa noite a todos."),
)


# The lines of FALAS_DEMO where the moderator asks a question (ground truth for the benchmark and
# the tests); her other lines are greetings, calls and time warnings.
PERGUNTAS_DEMO = (1, 7)


@dataclass(frozen=True)
class TrechoFalado:
    """One generated utterance placed on the timeline (ground truth for the tests)."""

    locutor: str
    texto: str
    inicio_s: float
    fim_s: float


def espeak_disponivel() -> bool:
    """Whether `espeak-ng` is on the PATH."""
    return shutil.which("espeak-ng") is not None


def sintetizar(texto: str, voz: str, velocidade: int = 150, altura: int = 50, intervalo: int = 0) -> Amostras:
    """Speech for `texto` with an espeak-ng voice, pitch, speed and word gap (`-g`, 10 ms units),
    16 kHz mono, leading/trailing silence trimmed."""
    comando = ["espeak-ng", "-v", voz, "-p", str(altura), "-s", str(velocidade)]
    saida = subprocess.run(
        [*comando, *(["-g", str(intervalo)] if intervalo else []), "--stdout", texto],
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout
    amostras = decodificar(saida).amostras
    voz_ativa = np.flatnonzero(np.abs(amostras) > 0.01)
    if len(voz_ativa) == 0:
        return amostras
    return amostras[voz_ativa[0] : voz_ativa[-1] + 1]


def montar(
    falas: Sequence[tuple[str, str]],
    pausa_s: float = 1.2,
    inicio_s: float = 0.5,
    voz: dict[str, tuple[str, int]] | None = None,
    velocidade: int = 150,
    intervalo: int = 0,
) -> tuple[Amostras, list[TrechoFalado]]:
    """Synthesise each utterance and lay them on one timeline, with pauses between them."""
    vozes = voz or VOZES
    pedacos: list[Amostras] = [np.zeros(round(inicio_s * TAXA), np.float32)]
    trechos: list[TrechoFalado] = []
    t = inicio_s
    for locutor, texto in falas:
        nome, altura = vozes.get(locutor, VOZ_PADRAO)
        audio = sintetizar(texto, nome, velocidade, altura, intervalo)
        trechos.append(TrechoFalado(locutor, texto, round(t, 3), round(t + len(audio) / TAXA, 3)))
        pedacos += [audio, np.zeros(round(pausa_s * TAXA), np.float32)]
        t += len(audio) / TAXA + round(pausa_s * TAXA) / TAXA
    return np.concatenate(pedacos).astype(np.float32), trechos


def montar_demo() -> tuple[Amostras, list[TrechoFalado]]:
    """The demo debate (FALAS_DEMO) spoken with the demo's voices and pace."""
    return montar(FALAS_DEMO, voz=VOZES_DEMO, velocidade=VELOCIDADE_DEMO, intervalo=INTERVALO_DEMO)


def gravar_segmentos(
    amostras: Amostras, pasta: Path, duracao_s: float = 4.0, prefixo: str = "seg"
) -> list[Path]:
    """Cut the audio into numbered WAV segments (`seg_00000.wav`, ...) the way a recorder would."""
    pasta.mkdir(parents=True, exist_ok=True)
    passo = round(duracao_s * TAXA)
    caminhos = []
    for i, inicio in enumerate(range(0, len(amostras), passo)):
        caminho = pasta / f"{prefixo}_{i:05d}.wav"
        gravar_atomico(caminho, para_wav(amostras[inicio : inicio + passo]))
        caminhos.append(caminho)
    return caminhos


def audio_demo() -> Amostras:
    """The demo debate's audio: generated now with espeak-ng, else the bundled recording."""
    if espeak_disponivel():
        return montar_demo()[0]
    return decodificar(GRAVACAO_EMBUTIDA.read_bytes()).amostras


def preparar_demo(debate_dir: Path, pasta_segmentos: Path, duracao_s: float = 4.0) -> list[Path]:
    """Write the demo debate's `debate.toml` (when absent) and its audio as segments; returns them."""
    debate_dir.mkdir(parents=True, exist_ok=True)
    roteiro = debate_dir / "debate.toml"
    if not roteiro.exists():
        gravar_atomico(roteiro, ROTEIRO_DEMO.encode("utf-8"))
    return gravar_segmentos(audio_demo(), pasta_segmentos, duracao_s)


def gravar_ogg(amostras: Amostras, caminho: Path, kbps: int = 24) -> None:
    """Encode 16 kHz mono Opus in Ogg (used once to make the bundled recording)."""
    import av

    caminho.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(caminho), mode="w", format="ogg") as saida:
        fluxo = saida.add_stream("libopus", rate=48_000)
        fluxo.bit_rate = kbps * 1000
        fluxo.layout = "mono"
        pcm = (np.clip(amostras, -1, 1) * 32767).astype("<i2").reshape(1, -1)
        quadro = av.AudioFrame.from_ndarray(pcm, format="s16", layout="mono")
        quadro.sample_rate = TAXA
        reamostrador = av.AudioResampler(format="s16", layout="mono", rate=48_000)
        for q in reamostrador.resample(quadro):
            for pacote in fluxo.encode(q):
                saida.mux(pacote)
        for pacote in fluxo.encode(None):
            saida.mux(pacote)


def gravar_embutida(caminho: Path = GRAVACAO_EMBUTIDA, kbps: int = 20) -> None:
    """Make the bundled recording again from the current script and voices (after changing them):
    `python -m jobs.debate.demo_audio`."""
    gravar_ogg(montar_demo()[0], caminho, kbps)


def simular_gravador(
    segmentos: Sequence[Path], destino: Path, intervalo_s: float, parar: threading.Event | None = None
) -> None:
    """Release segments into `destino` one at a time, like a live recorder, then write the FIM mark."""
    destino.mkdir(parents=True, exist_ok=True)
    parar = parar or threading.Event()
    for origem in segmentos:
        if parar.is_set():
            return
        gravar_atomico(destino / origem.name, origem.read_bytes())
        parar.wait(intervalo_s)
    gravar_atomico(destino / "FIM", b"")


if __name__ == "__main__":
    gravar_embutida()
