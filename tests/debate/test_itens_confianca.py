"""The confidence gate at item level (issue 24): an item built on words heard with little certainty
is "em revisão", out of the scoreboard, until the editor confirms the transcript.

The garbled fixture is real faster-whisper output (`benchmarks/confianca_bench.py --fixture`),
each word with its own measures; the engine tests write transcripts the way the audio job does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eleicoes import main
from jobs.debate import confianca
from jobs.debate.armazenamento import Fala, Palavra
from jobs.debate.itens_confianca import NAO_LOCALIZADO, julgar, localizar, medidas_das_falas
from jobs.debate.pipeline import executar
from tests.debate.conftest import Criar

FIXTURE = Path(__file__).parent / "dados" / "transcricao-ruidosa.json"
CERTA = {"prob": 0.95, "logprob": -0.2, "sem_fala": 0.02, "compressao": 1.2}


@pytest.fixture(scope="module")
def gravada() -> dict[str, Any]:
    dados: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return dados


def _pares(palavras: list[dict[str, Any]]) -> list[tuple[str, confianca.MedidaPalavra | None]]:
    return [(str(w["p"]), confianca.palavra_de_json(w)) for w in palavras]


def test_fixture_words_carry_their_own_measures(gravada: dict[str, Any]) -> None:
    for chave in ("ruidosa", "limpa"):
        palavras = gravada[chave]["palavras"]
        assert palavras and all(confianca.palavra_de_json(w) is not None for w in palavras)
        assert " ".join(w["p"] for w in palavras) == gravada[chave]["texto"]


def _fala(trecho: dict[str, Any]) -> Fala:
    palavras = tuple(
        Palavra(w["p"], w["inicio_s"], w["fim_s"], confianca.palavra_de_json(w)) for w in trecho["palavras"]
    )
    return Fala(
        "f0001", 0.0, 10.0, "HELENA", trecho["texto"], palavras, confianca.de_json(trecho["confianca"])
    )


def test_garbled_fixture_items_are_held_at_their_own_level(gravada: dict[str, Any]) -> None:
    ruidosa = medidas_das_falas([_fala(gravada["ruidosa"])])
    assert all(m is not None for _, m in ruidosa)
    # Any stretch of three words or more of the garbled transcript is held (every item it could
    # yield), with the reason in Portuguese.
    for inicio in range(len(ruidosa) - 2):
        for fim in range(inicio + 3, len(ruidosa) + 1):
            trecho = " ".join(p for p, _ in ruidosa[inicio:fim])
            assert julgar(trecho, ruidosa), trecho
    motivos = julgar(gravada["ruidosa"]["texto"], ruidosa)
    assert any("certeza" in m or "dicionário" in m or "log-probabilidade" in m for m in motivos)


def test_clean_words_pass_and_a_single_misheard_word_holds_the_item() -> None:
    palavras = [
        (p, confianca.MedidaPalavra(**CERTA, conhecida=True))
        for p in ["Vamos", "contratar", "dez", "mil", "policiais"]
    ]
    assert julgar("contratar dez mil policiais", palavras) == ()
    duvidosa = confianca.MedidaPalavra(0.05, -0.2, 0.02, 1.2, True)
    palavras[1] = ("contratar", duvidosa)
    motivos = julgar("contratar dez mil policiais", palavras)
    assert motivos == ("a palavra “contratar” foi ouvida com certeza 0,05 (mínimo 0,20)",)
    # The same word outside the item does not hold it.
    assert julgar("dez mil policiais", palavras) == ()
    desconhecida = confianca.MedidaPalavra(**CERTA, conhecida=False)
    palavras[3] = ("Carmenci", desconhecida)
    assert julgar("Carmenci policiais", palavras) == ("fora do dicionário: “carmenci”",)


def test_excerpt_location_and_what_cannot_be_found() -> None:
    palavras = [
        (p, confianca.MedidaPalavra(**CERTA, conhecida=None))
        for p in ["O", "dinheiro", "vem,", "do", "corte", "de", "gastos."]
    ]
    achadas = localizar("vem do corte", palavras)
    assert achadas is not None and [p for p, _ in achadas] == ["vem,", "do", "corte"]
    assert localizar("vem do orçamento", palavras) is None
    # Sentences apart (a question without the call between them) are found one by one.
    separadas = localizar("O dinheiro. De gastos.", palavras)
    assert separadas is not None and [p for p, _ in separadas] == ["O", "dinheiro", "de", "gastos."]
    assert julgar("vem do orçamento", palavras) == (NAO_LOCALIZADO,)  # withhold rather than guess
    # Typed transcripts (no machine measures) have nothing misheard to weigh.
    assert julgar("vem do orçamento", [(p, None) for p, _ in palavras]) == ()


def _linha(fid: str, inicio: float, fim: float, locutor: str, texto: str, baixas: dict[str, float]) -> str:
    palavras: list[dict[str, Any]] = []
    passo = (fim - inicio) / len(texto.split())
    for i, p in enumerate(texto.split()):
        prob = baixas.get(p, CERTA["prob"])
        palavras.append(
            {
                "p": p,
                "inicio_s": round(inicio + i * passo, 3),
                "fim_s": round(inicio + (i + 1) * passo, 3),
                **CERTA,
                "prob": prob,
                "lexico": True,
            }
        )
    n = len(palavras)
    confianca_fala = {
        "palavras": n,
        "prob": sum(w["prob"] for w in palavras) / n,
        "logprob": CERTA["logprob"],
        "sem_fala": CERTA["sem_fala"],
        "compressao": CERTA["compressao"],
        "verificadas": n,
        "conhecidas": n,
    }
    linha = {"id": fid, "inicio_s": inicio, "fim_s": fim, "locutor": locutor, "texto": texto}
    return json.dumps({**linha, "palavras": palavras, "confianca": confianca_fala}, ensure_ascii=False) + "\n"


def _json(pasta: Path, nome: str) -> Any:
    return json.loads((pasta / nome).read_text(encoding="utf-8"))


def test_held_proposal_and_question_leave_the_scoreboard_until_the_editor_confirms(
    criar_debate: Criar, capsys: pytest.CaptureFixture[str]
) -> None:
    pasta = criar_debate([], extra="encerrado = true")
    proposta = "Vamos contratar vinte mil médicos até 2028 com dinheiro do orçamento federal."
    linhas = [
        _linha("f0001", 0, 6, "MED", "Candidata Helena, qual é o seu plano para a saúde?", {"saúde?": 0.1}),
        _linha("f0002", 6, 20, "HELENA", proposta, {"contratar": 0.05}),
        _linha("f0003", 21, 27, "MED", "Candidato Rui, qual é o seu plano para a saúde?", {}),
        _linha("f0004", 27, 41, "RUI", proposta, {}),
    ]
    (pasta / "transcricao.jsonl").write_text("".join(linhas), encoding="utf-8")
    executar(pasta)
    turnos = {t["id"]: t for t in _json(pasta, "turnos.json")["turnos"]}
    assert turnos["t-f0002"]["transcricao"] == ""  # the turn as a whole passes its own gate
    retidos = {i["id"]: i for i in _json(pasta, "itens-em-revisao.json")["itens"]}
    assert set(retidos) == {"t-f0002-pergunta", "t-f0002-p1"}
    assert retidos["t-f0002-p1"]["motivos"] == [
        "a palavra “contratar” foi ouvida com certeza 0,05 (mínimo 0,20)"
    ]
    entrada = {t["id"]: t for t in _json(pasta, "placar-entrada.json")["turnos"]}
    assert entrada["t-f0002"]["propostas"] == [] and entrada["t-f0002"]["pergunta"] is False
    assert len(entrada["t-f0004"]["propostas"]) == 1 and entrada["t-f0004"]["pergunta"] is True
    placar = _json(pasta, "placar.json")
    assert placar["itens_em_revisao"] == 2
    assert {c["id"]: c["itens_em_revisao"] for c in placar["candidatos"]} == {
        "helena-prado": 2,
        "rui-amaral": 0,
    }
    pagina = _json(pasta, "pagina.json")
    assert pagina["turnos"]["t-f0002"]["propostas_em_revisao"][0].startswith("Em revisão:")
    assert "contratar" in pagina["turnos"]["t-f0002"]["propostas_em_revisao"][0]
    assert pagina["turnos"]["t-f0002"]["pergunta_em_revisao"]
    assert pagina["turnos"]["t-f0002"]["nota_resposta"] is None
    assert pagina["turnos"]["t-f0004"]["propostas_em_revisao"] == [""]
    assert "2 itens avaliados" in pagina["em_revisao"]

    # The editor confirms the answer's transcript, then marks the question: both count.
    assert main(["debate", "editar", str(pasta), "transcricao", "t-f0002", "--confirmar"]) == 0
    assert main(["debate", "editar", str(pasta), "pergunta", "t-f0002", "--fala", "f0001"]) == 0
    capsys.readouterr()
    assert _json(pasta, "itens-em-revisao.json")["itens"] == []
    entrada = {t["id"]: t for t in _json(pasta, "placar-entrada.json")["turnos"]}
    assert len(entrada["t-f0002"]["propostas"]) == 1 and entrada["t-f0002"]["pergunta"] is True
    assert _json(pasta, "placar.json")["itens_em_revisao"] == 0
    assert _json(pasta, "pagina.json")["turnos"]["t-f0002"]["nota_resposta"] is not None


def test_method_page_states_the_item_thresholds_in_force() -> None:
    pagina = (Path(__file__).resolve().parents[2] / "content" / "metodologia" / "debates.md").read_text(
        encoding="utf-8"
    )
    secao = pagina.split("### Cada item avaliado também passa pela conferência")[1].split("\n### ")[0]

    def n(valor: float) -> str:
        return f"{valor:.2f}".replace(".", ",")

    assert f"| Certeza média das palavras | pelo menos {n(confianca.ITEM_PROB_MIN)} |" in secao
    assert f"| Certeza de cada palavra | pelo menos {n(confianca.ITEM_PROB_PALAVRA_MIN)} |" in secao
    assert f"| Palavras fora do dicionário | no máximo {confianca.ITEM_FORA_DO_LEXICO_MAX} |" in secao
    # The segment measures are judged with the utterance's thresholds: the table says so.
    assert len(confianca.CRITERIOS_ITEM) == 3 + len(confianca.CRITERIOS_SEGMENTO)
