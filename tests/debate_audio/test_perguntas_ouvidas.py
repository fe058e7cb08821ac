"""Questions as Whisper writes them: the "?" lost and the call run into the sentence (pure, fast)."""

from __future__ import annotations

from jobs.debate.perguntas import INCERTA, e_interrogativa, pergunta_de


def test_a_question_after_addressing_the_candidate_is_a_question() -> None:
    heard = "Candidata Helena Prado, como a Senhora vai melhorar a saúde, a Senhora tem dois minutos."
    assert e_interrogativa(heard)
    assert pergunta_de(heard) == heard
    seguinte = "Vamos para o próximo bloco, candidato Rui Amaral, quantos policiais o senhor vai contratar."
    assert pergunta_de(seguinte) == seguinte


def test_calls_and_unsure_interrogatives_stay_out() -> None:
    for chamada in (
        "Candidato Rui Amaral, o senhor tem um minuto.",
        "Obrigada, candidato Rui Amaral, o senhor tem um minuto para comentar.",
        "Considerações finais, candidata Helena Prado, a senhora tem um minuto.",
        # The interrogative heard below the word minimum is no cue.
        f"Candidata Helena Prado, {INCERTA} a senhora vai melhorar a saúde, a senhora tem dois minutos.",
        # A long clause before the comma is not an address.
        "Depois do que a candidata disse no primeiro bloco, como era de esperar, o tempo acabou.",
    ):
        assert pergunta_de(chamada) is None, chamada
