"""A recorded debate's scoreboard is dated on the debate's own timeline (issue 21): the broadcast's
start (`inicio` in debate.toml) plus the transcript's last second, not the day it was processed."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from jobs.debate.armazenamento import ErroDebate, ler_debate
from jobs.debate.pipeline import executar
from tests.debate.conftest import Criar

FALAS = [
    (0.0, 4.0, "MED", "Candidata Helena Prado, qual é o seu plano para a saúde?"),
    (4.5, 30.0, "HELENA", "Vamos contratar vinte mil médicos até dois mil e vinte e oito."),
    (31.0, 35.0, "MED", "Candidato Rui Amaral, qual é a sua proposta para as creches?"),
    (35.5, 61.25, "RUI", "Nós vamos abrir cinquenta mil vagas em creches até o fim do mandato."),
]


def test_the_scoreboard_of_a_recording_is_dated_on_the_debates_timeline(criar_debate: Criar) -> None:
    pasta = criar_debate(FALAS, data="2026-10-25", extra="inicio = 2026-10-25T21:00:00-03:00")
    executar(pasta)
    placar = json.loads((pasta / "placar.json").read_text(encoding="utf-8"))
    quando = dt.datetime.fromisoformat(placar["atualizado_em"])
    assert quando == dt.datetime(2026, 10, 26, 0, 1, 1, tzinfo=dt.UTC)  # 21:00 Brasília + 61 s


def test_a_start_without_its_utc_offset_is_refused(criar_debate: Criar) -> None:
    pasta = criar_debate(FALAS, data="2026-10-25", extra="inicio = 2026-10-25T21:00:00")
    with pytest.raises(ErroDebate, match="inicio: use data e hora com fuso"):
        ler_debate(pasta)
