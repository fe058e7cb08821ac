"""Which Whisper model transcribes: the configured one, or base when the live queue falls behind.

Rule (one place): a model other than base is replaced by base, for the rest of the debate, as soon
as the audio waiting to be transcribed exceeds `whisper_atraso_max_s`. It never switches back
during a debate: flapping between models would change the transcript's quality mid-answer, and a
model that fell behind once will fall behind again at the next long exchange.
"""

from __future__ import annotations

from collections.abc import Iterable

BASE = "base"


def atraso_s(duracoes_pendentes: Iterable[float]) -> float:
    """Seconds of audio available but not yet transcribed."""
    return sum(max(0.0, d) for d in duracoes_pendentes)


def modelo_para_atraso(em_uso: str, atraso: float, limite_s: float) -> str:
    """The model to use next: base when `em_uso` is another model and `atraso` > `limite_s` (> 0)."""
    if em_uso != BASE and limite_s > 0 and atraso > limite_s:
        return BASE
    return em_uso
