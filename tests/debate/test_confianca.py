"""The transcript confidence gate (issue 16): a garbled machine transcript is held, not scored or
checked, until an editor confirms or corrects it.

The fixture is real faster-whisper output (base model, the audio job's decoding) on espeak-ng speech
drowned in noise, and the same sentence transcribed clean: `benchmarks/confianca_bench.py --fixture`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eleicoes import main
from jobs.debate import confianca
from jobs.debate.pipeline import executar
from tests.debate.conftest import Criar

FIXTURE = Path(__file__).parent / "dados" / "transcricao-ruidosa.json"


@pytest.fixture(scope="module")
def gravada() -> dict[str, Any]:
    dados: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return dados


def _json(pasta: Path, nome: str) -> Any:
    return json.loads((pasta / nome).read_text(encoding="utf-8"))


def _linha(
    fid: str, inicio: float, fim: float, locutor: str, trecho: dict[str, Any] | None, texto: str = ""
) -> str:
    linha: dict[str, Any] = {"id": fid, "inicio_s": inicio, "fim_s": fim, "locutor": locutor}
    if trecho is None:
        linha["texto"] = texto
    else:
        linha |= {"texto": trecho["texto"], "confianca": trecho["confianca"]}
    return json.dumps(linha, ensure_ascii=False) + "\n"


def test_thresholds_hold_the_garbled_fixture_and_pass_the_clean_one(gravada: dict[str, Any]) -> None:
    ruim = confianca.de_json(gravada["ruidosa"]["confianca"])
    boa = confianca.de_json(gravada["limpa"]["confianca"])
    assert ruim is not None and boa is not None
    assert confianca.motivos(ruim), gravada["ruidosa"]["texto"]
    assert confianca.motivos(boa) == ()
    assert confianca.nivel(ruim) == confianca.NIVEL_BAIXA and confianca.nivel(boa) == confianca.NIVEL_ALTA
    # Together, word-weighted: one clean and one garbled stretch are judged on their sum.
    juntas = confianca.combinar([ruim, boa])
    assert juntas is not None and juntas.palavras == ruim.palavras + boa.palavras


def test_measures_from_storage_are_validated() -> None:
    assert confianca.de_json(None) is None
    assert confianca.de_json({"palavras": 3, "prob": "alta"}) is None
    assert (
        confianca.de_json({"palavras": 3, "prob": 0.9, "logprob": 1e999, "sem_fala": 0, "compressao": 1})
        is None
    )
    assert (
        confianca.de_json(
            {
                "palavras": 3,
                "prob": 0.9,
                "logprob": -0.2,
                "sem_fala": 0,
                "compressao": 1,
                "verificadas": 1,
                "conhecidas": 2,
            }
        )
        is None
    )


def test_lexicon_knows_portuguese_and_the_participants() -> None:
    lexico = confianca.lexico_portugues().com_nomes(["Helena Prado", "Rui Amaral"])
    assert lexico.contar(["Vamos", "contratar", "médicos,", "Amaral", "2028", "R$"]) == (4, 4)
    assert lexico.contar(["Carmenci", "xptoquz"]) == (2, 0)


def _debate(criar_debate: Criar, gravada: dict[str, Any]) -> Path:
    pasta = criar_debate([], extra="encerrado = true")
    linhas = [
        _linha("f0001", 0, 8, "JOR", None, "Candidata, qual é o seu plano para a saúde?"),
        _linha("f0002", 8, 20, "HELENA", gravada["ruidosa"]),
        _linha("f0003", 21, 29, "JOR", None, "Candidato Rui, qual é o seu plano para a saúde?"),
        _linha("f0004", 29, 41, "RUI", gravada["limpa"]),
    ]
    (pasta / "transcricao.jsonl").write_text("".join(linhas), encoding="utf-8")
    return pasta


def test_garbled_turn_is_held_then_released_by_the_editors_correction(
    criar_debate: Criar, gravada: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    pasta = _debate(criar_debate, gravada)
    executar(pasta)
    turnos = {t["id"]: t for t in _json(pasta, "turnos.json")["turnos"]}
    assert turnos["t-f0002"]["transcricao"] == "em_revisao"
    assert turnos["t-f0002"]["motivos_transcricao"]
    assert turnos["t-f0004"]["transcricao"] == ""
    # Held: neither evaluated nor checked nor in the scoreboard, but counted as waiting.
    assert "t-f0002" not in _json(pasta, "avaliacao.json")["turnos"]
    assert "t-f0002" not in _json(pasta, "checagens.json")["turnos"]
    assert "t-f0004" in _json(pasta, "avaliacao.json")["turnos"]
    placar = _json(pasta, "placar.json")
    por_id = {c["id"]: c for c in placar["candidatos"]}
    assert por_id["helena-prado"]["turnos_avaliados"] == 0
    assert por_id["helena-prado"]["turnos_em_revisao"] == 1
    assert por_id["helena-prado"]["tempo_fala_s"] == 12.0  # speaking time still counts
    assert placar["turnos_em_revisao"] == 1
    assert _json(pasta, "estado.json")["turnos_em_revisao"] == ["t-f0002"]

    referencia = gravada["referencia"]
    assert main(["debate", "editar", str(pasta), "transcricao", "t-f0002", "--texto", referencia]) == 0
    assert "corrigida" in capsys.readouterr().out
    turnos = {t["id"]: t for t in _json(pasta, "turnos.json")["turnos"]}
    assert turnos["t-f0002"]["transcricao"] == "corrigida"
    assert turnos["t-f0002"]["texto"] == referencia
    avaliacao = _json(pasta, "avaliacao.json")["turnos"]
    assert "t-f0002" in avaliacao
    placar = _json(pasta, "placar.json")
    por_id = {c["id"]: c for c in placar["candidatos"]}
    assert por_id["helena-prado"]["turnos_avaliados"] == 1
    assert placar["turnos_em_revisao"] == 0


def test_editor_confirms_the_transcript_as_is(criar_debate: Criar, gravada: dict[str, Any]) -> None:
    pasta = _debate(criar_debate, gravada)
    executar(pasta)
    assert main(["debate", "editar", str(pasta), "transcricao", "t-f0002", "--confirmar"]) == 0
    turno = next(t for t in _json(pasta, "turnos.json")["turnos"] if t["id"] == "t-f0002")
    assert turno["transcricao"] == "confirmada"
    assert turno["texto"] == gravada["ruidosa"]["texto"]
    assert "t-f0002" in _json(pasta, "avaliacao.json")["turnos"]
    assert main(["debate", "editar", str(pasta), "transcricao", "t-f0002", "--desfazer"]) == 0
    assert "t-f0002" not in _json(pasta, "avaliacao.json")["turnos"]
    assert main(["debate", "editar", str(pasta), "transcricao", "t-f0002", "--texto", "  "]) == 1


def test_method_page_states_the_thresholds_in_force() -> None:
    pagina = (Path(__file__).resolve().parents[2] / "content" / "metodologia" / "debates.md").read_text(
        encoding="utf-8"
    )

    def n(valor: float) -> str:
        return f"{valor:.2f}".replace(".", ",").replace("-", "−")

    assert f"pelo menos {n(confianca.PROB_PALAVRA_MIN)}" in pagina
    assert f"pelo menos {n(confianca.LOGPROB_MIN)}" in pagina
    assert f"no máximo {n(confianca.SEM_FALA_MAX)}" in pagina
    assert f"no máximo {n(confianca.COMPRESSAO_MAX)}" in pagina
    assert (
        f"pelo menos {round(100 * confianca.LEXICO_MIN)}%, quando há {confianca.LEXICO_MIN_PALAVRAS}"
        in pagina
    )
