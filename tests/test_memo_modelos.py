"""The memories of the real models (tests/support/whisper_memo.py, e5_memo.py) answer only what the
model answered, for exactly the same input."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tests.support.whisper_memo import WhisperMemorizado


@dataclass
class Palavra:
    word: str


@dataclass
class Segmento:
    text: str
    words: list[Palavra] = field(default_factory=list)


class ModeloFalso:
    """Counts its calls; its answer depends on the samples and the options, like Whisper's."""

    def __init__(self) -> None:
        self.chamadas = 0
        self.nome = "falso"

    def transcribe(self, audio: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        self.chamadas += 1
        texto = f"{np.asarray(audio).sum() if not isinstance(audio, str) else audio} {sorted(kwargs.items())}"
        return (s for s in [Segmento(texto, [Palavra(texto)])]), {"chamada": self.chamadas}


def test_a_repeated_input_is_answered_with_a_copy_of_the_first_answer() -> None:
    real = ModeloFalso()
    memo = WhisperMemorizado(real)
    audio = np.arange(10, dtype=np.float32)
    segmentos, info = memo.transcribe(audio, language="pt", beam_size=5)
    primeiro = list(segmentos)
    de_novo, info_de_novo = memo.transcribe(audio.copy(), language="pt", beam_size=5)
    segundo = list(de_novo)
    assert real.chamadas == 1 and (memo.acertos, memo.faltas) == (1, 1)
    assert segundo == primeiro and info_de_novo == info == {"chamada": 1}
    segundo[0].words.clear()  # what a caller does to its answer does not reach the next one
    assert list(memo.transcribe(audio, language="pt", beam_size=5)[0]) == primeiro
    assert memo.nome == "falso"  # anything else is the real model's


def test_other_samples_other_options_or_a_path_go_to_the_real_model() -> None:
    real = ModeloFalso()
    memo = WhisperMemorizado(real)
    audio = np.arange(10, dtype=np.float32)
    memo.transcribe(audio, language="pt")
    outro = audio.copy()
    outro[3] += 1e-6
    memo.transcribe(outro, language="pt")
    memo.transcribe(audio, language="pt", max_new_tokens=40)
    memo.transcribe(audio.astype(np.float64), language="pt")
    memo.transcribe("gravacao.wav", language="pt")
    memo.transcribe("gravacao.wav", language="pt")
    assert real.chamadas == 6 and memo.acertos == 0


class E5Falso:
    """Counts its calls; its vectors depend on the texts and on how it was made."""

    chamadas = 0

    def __init__(self, variant: str = "original", num_threads: int | None = None) -> None:
        self.variant = variant

    def query(self, texts: list[str]) -> np.ndarray:
        type(self).chamadas += 1
        return np.array([[len(t), len(self.variant)] for t in texts], dtype=np.float32)


def test_e5_answers_only_the_same_texts_to_a_model_made_the_same_way_from_memory() -> None:
    from tests.support import e5_memo

    class Memorizado(e5_memo.E5Memorizado):
        real_cls = E5Falso

    E5Falso.chamadas = 0
    a = Memorizado(variant="enpt", num_threads=1).query(["um", "dois"])
    b = Memorizado(variant="enpt", num_threads=1).query(["um", "dois"])  # another instance, same texts
    assert E5Falso.chamadas == 1 and np.array_equal(a, b) and b.dtype == np.float32
    b[0, 0] = -1  # a caller's changes do not reach the next answer
    assert np.array_equal(Memorizado(variant="enpt", num_threads=1).query(["um", "dois"]), a)
    Memorizado(variant="enpt", num_threads=1).query(["dois", "um"])
    Memorizado(variant="original", num_threads=1).query(["um", "dois"])
    assert E5Falso.chamadas == 3
    assert Memorizado(variant="enpt").variant == "enpt"  # anything else is the real model's
