"""Fixtures for the audio job: speech generated with espeak-ng, one Whisper model per test session."""

from __future__ import annotations

import fcntl
import functools
import os
import threading
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jobs.debate import modelo_whisper
from jobs.debate.audio import TAXA, Amostras, para_wav
from jobs.debate.config_audio import ConfigAudio
from jobs.debate.demo_audio import ROTEIRO_DEMO, TrechoFalado, espeak_disponivel, montar, sintetizar
from jobs.debate.modelo_whisper import carregar_modelo, resolver_modelo
from tests.support.whisper_memo import WhisperMemorizado

REPO = Path(__file__).resolve().parents[2]

# Three speakers, three espeak voices; phrases Whisper base recognises reliably from espeak.
FALAS_TESTE = (
    ("marta-lins", "Boa noite. A senhora tem dois minutos."),
    ("helena-prado", "A saúde pública precisa de mais médicos nos hospitais."),
    ("rui-amaral", "A proposta não diz onde vem o dinheiro."),
)
# Word stems expected in the transcript, in order, with the utterance each belongs to.
ANCORAS = (
    ("noite", 0),
    ("senhora", 0),
    ("minuto", 0),
    ("saude", 1),
    ("public", 1),
    ("medico", 1),
    ("hospita", 1),
    ("proposta", 2),
    ("dinheiro", 2),
)
DURACAO_SEGMENTO_S = 3.0


def normalizar(palavra: str) -> str:
    """Lower case without accents or punctuation."""
    sem = unicodedata.normalize("NFKD", palavra.lower())
    return "".join(c for c in sem if c.isalnum() and not unicodedata.combining(c))


requer_espeak = pytest.mark.skipif(
    not espeak_disponivel(), reason="espeak-ng não está instalado (o .ci/run o instala): sem fala sintética"
)


@dataclass(frozen=True)
class Gravacao:
    """A generated recording and where each utterance lies in it (ground truth)."""

    amostras: Amostras
    trechos: tuple[TrechoFalado, ...]


@pytest.fixture(scope="session")
def gravacao() -> Gravacao:
    """About 15 s of three voices, made once per session."""
    if not espeak_disponivel():
        pytest.skip("espeak-ng não está instalado (o .ci/run o instala): sem fala sintética")
    amostras, trechos = montar(FALAS_TESTE, pausa_s=1.2, inicio_s=0.4)
    return Gravacao(amostras, tuple(trechos))


@pytest.fixture(scope="session")
def fala_curta() -> Callable[[str, str], Amostras]:
    """Synthesise one phrase (cached per session)."""
    if not espeak_disponivel():
        pytest.skip("espeak-ng não está instalado (o .ci/run o instala): sem fala sintética")
    return functools.cache(sintetizar)


@pytest.fixture(scope="session")
def config_audio() -> ConfigAudio:
    """Default audio settings, with the joined model in the project's cache folder."""
    return ConfigAudio(
        whisper_cache=str(REPO / ".cache" / "whisper-base"), whisper_threads=min(2, os.cpu_count() or 1)
    )


@pytest.fixture(scope="session")
def modelo(config_audio: ConfigAudio) -> Iterator[Callable[[], Any]]:
    """A factory returning the one faster-whisper model of the session (loaded on first use).

    The model is the real one wrapped in `WhisperMemorizado` (tests/support/whisper_memo.py): an
    input it has already transcribed in this process is answered with what Whisper said then, any
    other goes to Whisper. The wrapper takes the real model's place in the process's model cache,
    so the command line run in-process (`eleicoes debate processar`) gets it too.
    """
    caminho = resolver_modelo(config_audio.whisper_modelo, Path(config_audio.whisper_cache))
    chave = (caminho, config_audio.whisper_threads)
    trava = threading.Lock()

    def carregar() -> Any:
        with trava:
            atual = carregar_modelo(*chave)
            if not isinstance(atual, WhisperMemorizado):
                atual = modelo_whisper._MODELOS[chave] = WhisperMemorizado(atual)
            return atual

    yield carregar
    with trava:
        atual = modelo_whisper._MODELOS.get(chave)
        if isinstance(atual, WhisperMemorizado):
            modelo_whisper._MODELOS[chave] = atual.real


def gravar_segmentos(amostras: Amostras, pasta: Path, duracao_s: float = DURACAO_SEGMENTO_S) -> list[Path]:
    """Numbered WAV segments of `duracao_s` seconds."""
    pasta.mkdir(parents=True, exist_ok=True)
    passo = round(duracao_s * TAXA)
    caminhos = []
    for i, inicio in enumerate(range(0, len(amostras), passo)):
        caminho = pasta / f"seg_{i:05d}.wav"
        caminho.write_bytes(para_wav(amostras[inicio : inicio + passo]))
        caminhos.append(caminho)
    return caminhos


def silencio(segundos: float) -> Amostras:
    """Digital silence."""
    return np.zeros(round(segundos * TAXA), np.float32)


@pytest.fixture
def debate_dir(tmp_path: Path) -> Path:
    """A debate folder with the demo rundown (moderator Marta Lins, Helena Prado, Rui Amaral)."""
    pasta = tmp_path / "debates" / "debate-teste"
    pasta.mkdir(parents=True)
    (pasta / "debate.toml").write_text(ROTEIRO_DEMO, encoding="utf-8")
    return pasta


@dataclass(frozen=True)
class DemoTranscrita:
    """The audio demo as faster-whisper heard it: the transcript the audio job wrote, and the
    script's timeline (what was really said, and when)."""

    transcricao: bytes
    trechos: tuple[TrechoFalado, ...]


# What makes the cached transcript stale besides the audio and the model: the code that writes it
# (demo_audio.py holds the rundown, whose names and words are the decoding prompt).
_CODIGO_TRANSCRICAO = (
    "jobs/debate/processar.py",
    "jobs/debate/transcricao.py",
    "jobs/debate/confianca.py",
    "jobs/debate/demo_audio.py",
)


@pytest.fixture(scope="session")
def demo_transcrita(modelo: Callable[[], Any], config_audio: ConfigAudio) -> DemoTranscrita:
    """The audio demo (espeak-ng, as `eleicoes demo` makes it) through the real audio job, once.

    Transcribing takes a minute or more on this machine, so the transcript is cached in the system's
    temporary folder under a key of the audio's bytes, the model's manifest and the code that writes
    the transcript: any change to one of them transcribes again. Its users are one xdist group
    (test_demo_itens.py), and a file lock keeps any other worker from transcribing it again.
    """
    if not espeak_disponivel():
        pytest.skip("espeak-ng não está instalado (o .ci/run o instala): sem fala sintética")
    import hashlib
    import tempfile

    from benchmarks.confianca_bench import transcrever_demo
    from jobs.debate.demo_audio import montar_demo

    amostras, trechos = montar_demo()
    modelo_dir = resolver_modelo(config_audio.whisper_modelo, Path(config_audio.whisper_cache))
    chave = hashlib.sha256(para_wav(amostras))
    manifesto = Path(modelo_dir) / "montagem.json"
    chave.update(manifesto.read_bytes() if manifesto.is_file() else str(modelo_dir).encode())
    for rel in _CODIGO_TRANSCRICAO:
        chave.update((REPO / rel).read_bytes())
    cache = (
        Path(tempfile.gettempdir()) / "eleicoes-testes-transcricao" / f"demo-{chave.hexdigest()[:20]}.jsonl"
    )
    cache.parent.mkdir(parents=True, exist_ok=True)
    with cache.with_suffix(".trava").open("w") as trava:
        # A session fixture is per xdist worker: the second to ask waits for the first's transcript.
        fcntl.flock(trava.fileno(), fcntl.LOCK_EX)
        if not cache.is_file():
            with tempfile.TemporaryDirectory() as tmp:
                pasta, _ = transcrever_demo(Path(tmp), modelo, config_audio.whisper_threads)
                provisorio = cache.with_suffix(".tmp")
                provisorio.write_bytes((pasta / "transcricao.jsonl").read_bytes())
                provisorio.replace(cache)
    return DemoTranscrita(cache.read_bytes(), tuple(trechos))
