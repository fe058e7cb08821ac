"""The session's real faster-whisper model, with its answers remembered for inputs it has already heard.

faster-whisper on the CPU (int8, temperature 0, a fixed number of threads) gives the same segments,
words and info for the same samples and the same options. Several tests of the audio job transcribe
the same windows again (a restart, a crash, a stop replayed against the reference run), each costing
seconds of Whisper. `WhisperMemorizado` wraps the real model: a call whose samples and every argument
were seen before gets a copy of what the model answered then; any other call (different samples,
different options, a path instead of samples) goes to the real model. Nothing is ever invented: every
answer handed out came from Whisper for exactly that input.
"""

from __future__ import annotations

import copy
import hashlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

_SIMPLES = (str, int, float, bool, type(None))


def _valor_simples(valor: object) -> bool:
    if isinstance(valor, (list, tuple)):
        return all(_valor_simples(v) for v in valor)
    return isinstance(valor, _SIMPLES)


class WhisperMemorizado:
    """A faster-whisper `WhisperModel` whose `transcribe` answers a repeated input from memory."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.acertos = 0
        self.faltas = 0
        self._memoria: dict[tuple[object, ...], tuple[list[Any], Any]] = {}
        self._trava = threading.Lock()

    def __getattr__(self, nome: str) -> Any:
        return getattr(self.real, nome)

    def _chave(
        self, audio: object, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[object, ...] | None:
        if not isinstance(audio, np.ndarray) or not all(map(_valor_simples, (*args, *kwargs.values()))):
            return None  # a path, a file object or an option we cannot compare exactly: the real model
        amostras = np.ascontiguousarray(audio)
        digesto = hashlib.sha256(amostras.tobytes()).hexdigest()
        return (amostras.dtype.str, amostras.shape, digesto, repr(args), repr(sorted(kwargs.items())))

    def transcribe(self, audio: Any, *args: Any, **kwargs: Any) -> tuple[Iterator[Any], Any]:
        """(segments, info) as `WhisperModel.transcribe` gives them; segments is an iterator."""
        chave = self._chave(audio, args, kwargs)
        if chave is None:
            segmentos_reais, info_real = self.real.transcribe(audio, *args, **kwargs)
            return iter(segmentos_reais), info_real
        with self._trava:
            lembrado = self._memoria.get(chave)
        if lembrado is None:
            segmentos_reais, info_real = self.real.transcribe(audio, *args, **kwargs)
            lista = list(segmentos_reais)
            with self._trava:
                self.faltas += 1
                self._memoria[chave] = (copy.deepcopy(lista), copy.deepcopy(info_real))
            return iter(lista), info_real
        with self._trava:
            self.acertos += 1
        segmentos, info = lembrado
        # Copies: a caller that changed what it got cannot change what the next one gets.
        return iter(copy.deepcopy(segmentos)), copy.deepcopy(info)
