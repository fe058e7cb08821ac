"""The speech-to-text benchmark's parts: word error counting and the sox mixing at a given SNR."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from benchmarks.asr_bench import CONDICOES, FRASES, distancia, misturar, palavras
from jobs.debate.audio import Amostras
from jobs.debate.demo_audio import espeak_disponivel, sintetizar


def test_word_error_counting() -> None:
    assert palavras("A saúde, pública!") == ["a", "saúde", "pública"]
    assert distancia(["a", "b", "c"], ["a", "x", "c", "d"]) == 2  # one substitution, one insertion
    assert distancia(["a", "b"], []) == 2
    assert distancia([], ["a"]) == 1


def _snr_db(fala: Amostras, mistura: Amostras) -> float:
    """SNR of a mix whose overall gain is unknown: project the mix on the speech, the rest is noise."""
    f = fala.astype(np.float64)
    m = mistura[: len(f)].astype(np.float64)
    a = float(np.dot(m, f) / np.dot(f, f))
    resto = m - a * f
    return float(20 * np.log10(np.sqrt(np.mean((a * f) ** 2)) / np.sqrt(np.mean(resto**2))))


FALTA_FERRAMENTA = shutil.which("sox") is None or not espeak_disponivel()


@pytest.mark.skipif(FALTA_FERRAMENTA, reason="sox ou espeak-ng ausente (o .ci/run os instala)")
@pytest.mark.parametrize("condicao", [c for c in CONDICOES if c[1] is not None])
def test_mix_has_the_requested_snr(tmp_path: Path, condicao: tuple[str, tuple[str, ...], float]) -> None:
    _nome, sintese, snr = condicao
    fala = sintetizar(FRASES[0], "pt-br")
    mistura = misturar(fala, sintese, snr, tmp_path)
    assert len(mistura) == len(fala)
    assert float(np.abs(mistura).max()) <= 1.0
    assert _snr_db(fala, mistura) == pytest.approx(snr, abs=1.0)
