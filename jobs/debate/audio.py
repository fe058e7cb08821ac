"""Audio decoding: any container/codec PyAV reads (WAV, MP3, AAC in MPEG-TS, Opus...) to 16 kHz mono.

Whisper wants 16 kHz mono float32; everything downstream (tail kept between segments, silence
check, diarization) works on that one representation.
"""

from __future__ import annotations

import io
import math
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

TAXA = 16_000

Amostras = npt.NDArray[np.float32]


class ErroAudio(ValueError):  # noqa: N818 - Portuguese names, like the other jobs
    """A segment that cannot be decoded; the message is in Portuguese."""


@dataclass(frozen=True)
class Decodificado:
    """Decoded audio and whether decoding stopped early on damaged data."""

    amostras: Amostras
    avisos: tuple[str, ...] = ()

    @property
    def duracao_s(self) -> float:
        """Length in seconds."""
        return len(self.amostras) / TAXA


def decodificar(dados: bytes) -> Decodificado:
    """Decode a whole segment to 16 kHz mono float32; ErroAudio when nothing usable comes out."""
    import av  # PyAV: imported here so the rest of the package loads without it

    if not dados:
        raise ErroAudio("segmento vazio (0 bytes)")
    pedacos: list[Amostras] = []
    avisos: list[str] = []
    try:
        with av.open(io.BytesIO(dados), mode="r") as conteiner:
            fluxos = conteiner.streams.audio
            if not fluxos:
                raise ErroAudio("o arquivo não tem faixa de áudio")
            reamostrador = av.AudioResampler(format="flt", layout="mono", rate=TAXA)
            try:
                for quadro in conteiner.decode(fluxos[0]):
                    for saida in reamostrador.resample(quadro):
                        pedacos.append(saida.to_ndarray().reshape(-1).astype(np.float32, copy=False))
            except (av.error.FFmpegError, ValueError) as exc:
                if not pedacos:
                    raise
                avisos.append(f"dados danificados no meio do segmento, usado o que foi lido: {exc}")
            for saida in reamostrador.resample(None):
                pedacos.append(saida.to_ndarray().reshape(-1).astype(np.float32, copy=False))
    except ErroAudio:
        raise
    except (av.error.FFmpegError, ValueError, OSError, EOFError) as exc:
        raise ErroAudio(f"não foi possível decodificar o segmento: {exc}") from exc
    if not pedacos:
        raise ErroAudio("segmento sem nenhuma amostra de áudio")
    amostras = np.concatenate(pedacos).astype(np.float32, copy=False)
    if len(amostras) == 0:
        raise ErroAudio("segmento sem nenhuma amostra de áudio")
    if not np.isfinite(amostras).all():
        amostras = np.nan_to_num(amostras, nan=0.0, posinf=0.0, neginf=0.0).astype(np.float32)
    return Decodificado(amostras, tuple(avisos))


def nivel_dbfs(amostras: Amostras) -> float:
    """RMS level in dBFS (full scale = 1.0); -inf for digital silence."""
    if len(amostras) == 0:
        return -math.inf
    rms = float(np.sqrt(np.mean(np.square(amostras, dtype=np.float64))))
    return 20 * math.log10(rms) if rms > 0 else -math.inf


def para_wav(amostras: Amostras, taxa: int = TAXA) -> bytes:
    """16-bit PCM mono WAV bytes."""
    pcm = (np.clip(amostras, -1.0, 1.0) * 32767).astype("<i2")
    saida = io.BytesIO()
    with wave.open(saida, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(taxa)
        w.writeframes(pcm.tobytes())
    return saida.getvalue()


def ler_wav(caminho: Path) -> Amostras:
    """Read a 16-bit mono 16 kHz WAV written by `gravar_wav`."""
    with wave.open(str(caminho), "rb") as w:
        if w.getnchannels() != 1 or w.getsampwidth() != 2 or w.getframerate() != TAXA:
            raise ErroAudio(f"{caminho}: WAV inesperado (precisa ser mono, 16 bits, {TAXA} Hz)")
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return (pcm.astype(np.float32) / 32767).astype(np.float32)
