"""Issue 24 on the audio demo as faster-whisper really hears it (transcribed once per session, see
`demo_transcrita`): nothing misheard is scored, and the moderator's questions are found in what
was heard (time warnings and calls are not questions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.confianca_bench import itens_do_debate
from eleicoes import main
from jobs.debate.demo_audio import FALAS_DEMO, ROTEIRO_DEMO
from jobs.debate.pipeline import executar
from tests.debate_audio.conftest import DemoTranscrita, requer_espeak

pytestmark = requer_espeak
# The script's lines (FALAS_DEMO) where the moderator asks a question; her other lines are calls,
# time warnings and greetings.
PERGUNTAS_DO_ROTEIRO = {1, 7}
CHAMADAS_DO_ROTEIRO = {
    i for i, (quem, _) in enumerate(FALAS_DEMO) if quem == "marta-lins"
} - PERGUNTAS_DO_ROTEIRO


@pytest.fixture
def debate(tmp_path: Path, demo_transcrita: DemoTranscrita) -> Path:
    """A debate folder with the demo's real transcript; the engine run once on it."""
    raiz = tmp_path / "projeto"
    pasta = raiz / "data" / "debates" / "demo-audio"
    pasta.mkdir(parents=True)
    (pasta / "debate.toml").write_text(ROTEIRO_DEMO, encoding="utf-8")
    (pasta / "transcricao.jsonl").write_bytes(demo_transcrita.transcricao)
    (pasta / "gravacao.json").write_text('{"encerrada": true}\n', encoding="utf-8")
    executar(pasta, raiz=raiz)
    return pasta


def _json(pasta: Path, nome: str) -> Any:
    return json.loads((pasta / nome).read_text(encoding="utf-8"))


def _linha_do_roteiro(demo: DemoTranscrita, pasta: Path) -> dict[str, int]:
    """Utterance id -> the script line it was heard from (nearest in time)."""
    saida = {}
    for linha in (pasta / "transcricao.jsonl").read_text(encoding="utf-8").splitlines():
        f = json.loads(linha)
        meio = (f["inicio_s"] + f["fim_s"]) / 2
        saida[f["id"]] = min(
            range(len(demo.trechos)),
            key=lambda i: abs((demo.trechos[i].inicio_s + demo.trechos[i].fim_s) / 2 - meio),
        )
    return saida


def test_no_misheard_item_is_scored_on_the_demo(debate: Path, demo_transcrita: DemoTranscrita) -> None:
    contagens = itens_do_debate(debate, demo_transcrita.trechos)
    todos = contagens["todos"]
    # The demo's speech is hard for Whisper base: there are misheard items, and none is scored.
    assert todos.errados > 0, todos
    assert todos.errados_pontuados == 0, todos.exemplos_errados
    # What is scored is what the gate let through: every held item is out of the scoreboard input.
    retidos = _json(debate, "itens-em-revisao.json")["itens"]
    assert retidos and all(i["motivos"] for i in retidos)
    entrada = {t["id"]: t for t in _json(debate, "placar-entrada.json")["turnos"]}
    avaliacoes = _json(debate, "avaliacao.json")["turnos"]
    for tid, t in entrada.items():
        propostas = avaliacoes[tid]["avaliacao"]["propostas"]
        retidas = {i["id"] for i in retidos if i["tipo"] == "proposta" and i["turno"] == tid}
        assert len(t["propostas"]) == len(propostas) - len(retidas)
    pagina = _json(debate, "pagina.json")
    assert "fora da nota até o editor conferir" in pagina["em_revisao"]


def test_demo_questions_are_found_in_what_was_heard(debate: Path, demo_transcrita: DemoTranscrita) -> None:
    roteiro = _linha_do_roteiro(demo_transcrita, debate)
    perguntas = _json(debate, "perguntas.json")["perguntas"]
    turnos = {t["id"]: t for t in _json(debate, "turnos.json")["turnos"]}
    origem = {p["turno"]: {roteiro[f] for f in p["falas"]} for p in perguntas if p["texto"]}
    usadas = set().union(*origem.values())
    assert usadas == PERGUNTAS_DO_ROTEIRO, perguntas  # both questions found; no call taken for one
    assert not usadas & CHAMADAS_DO_ROTEIRO
    for tid, linhas in origem.items():
        assert {p["origem"] for p in perguntas if p["turno"] == tid} == {"moderador"}
        # The question in force is the last one asked before the turn.
        primeira = min(roteiro[f] for f in turnos[tid]["falas"])
        assert linhas == {max(q for q in PERGUNTAS_DO_ROTEIRO if q < primeira)}
    # Helena's first answer and Rui's answer on security each get their question.
    respostas = {min(roteiro[f] for f in turnos[tid]["falas"]): tid for tid in turnos}
    assert respostas[2] in origem and respostas[8] in origem


def test_editor_brings_held_items_into_the_score(
    debate: Path, demo_transcrita: DemoTranscrita, capsys: pytest.CaptureFixture[str]
) -> None:
    roteiro = _linha_do_roteiro(demo_transcrita, debate)
    retidos = _json(debate, "itens-em-revisao.json")["itens"]
    perguntas = {i["turno"]: i for i in retidos if i["tipo"] == "pergunta"}
    assert perguntas, "as perguntas da demo, ouvidas com pouca certeza, ficam em revisão"
    turno = sorted(perguntas)[0]
    fala = next(f for f, linha in roteiro.items() if linha in PERGUNTAS_DO_ROTEIRO)
    assert _json(debate, "pagina.json")["turnos"][turno]["nota_resposta"] is None
    assert main(["debate", "editar", str(debate), "pergunta", turno, "--fala", fala]) == 0
    assert main(["debate", "editar", str(debate), "transcricao", turno, "--confirmar"]) == 0
    capsys.readouterr()
    assert _json(debate, "pagina.json")["turnos"][turno]["nota_resposta"] is not None
    assert not [i for i in _json(debate, "itens-em-revisao.json")["itens"] if i["turno"] == turno]
    entrada = {t["id"]: t for t in _json(debate, "placar-entrada.json")["turnos"]}
    assert entrada[turno]["pergunta"] is True
