"""A decoding loop costs at most the window's token cap (real faster-whisper, espeak speech)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from jobs.debate.audio import Amostras, decodificar
from jobs.debate.transcricao import OpcoesWhisper, Transcritor, limite_de_tokens, prompt_da_pasta
from tests.debate_audio.conftest import normalizar, requer_espeak
from tests.debate_audio.test_falhas import segmento_com

pytestmark = requer_espeak


class ContaTokens:
    """The session's model, counting the tokens of every segment it writes."""

    def __init__(self, modelo: Any) -> None:
        self.modelo, self.tokens = modelo, 0
        self.limites: list[int | None] = []

    def transcribe(self, *args: Any, **kwargs: Any) -> Any:
        self.limites.append(kwargs["max_new_tokens"])
        segmentos, info = self.modelo.transcribe(*args, **kwargs)
        lista = list(segmentos)
        self.tokens += sum(len(s.tokens) for s in lista)
        return lista, info


def test_loop_on_a_silent_tail_stops_at_the_cap_and_the_speech_is_kept(
    modelo: Callable[[], Any], fala_curta: Callable[[str, str], Amostras], debate_dir: Path
) -> None:
    # With the demo's prompt Whisper base hears this window's 0.4 s silent tail as "o que é o que é"
    # over and over (121 tokens uncapped, 33 with the cap, when this test was written).
    janela = decodificar(segmento_com(fala_curta("A saúde precisa de médicos.", "pt-br"))).amostras
    janela = janela[: round(2.6 * 16000)]
    contador = ContaTokens(modelo())
    opcoes = OpcoesWhisper(prompt=prompt_da_pasta(debate_dir))
    palavras = Transcritor(contador, opcoes).transcrever(janela, 0.0)
    assert contador.tokens <= limite_de_tokens(2.6) + 2  # a segment may end on its timestamp tokens
    assert contador.limites == [limite_de_tokens(2.6)] and limite_de_tokens(2.6) < 121
    assert {"saude", "precisa", "medicos"} <= {normalizar(w.p) for w in palavras}
