"""Scoreboard formulas (pinned in issue 7) on hand-computed cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eleicoes import main
from jobs.debate import placar
from jobs.debate.placar import Classificado, ErroPlacar, calcular, ler_entrada, manchete


def _turno(
    tid: str,
    cand: str,
    dur: float,
    pergunta: bool = False,
    partes: int = 0,
    resp: int = 0,
    evasao: float = 0,
    sub: float = 5,
    cla: float = 5,
    ataque: bool = False,
    propostas: list[dict[str, bool]] | None = None,
) -> dict[str, Any]:
    return {
        "id": tid,
        "candidato": cand,
        "duracao_s": dur,
        "pergunta": pergunta,
        "partes_pergunta": partes,
        "partes_respondidas": resp,
        "evasao": evasao,
        "substancia": sub,
        "clareza": cla,
        "ataque_pessoal": ataque,
        "propostas": propostas or [],
    }


def _prop(n: int, disfarcado: bool = False) -> dict[str, bool]:
    itens = [True] * n + [False] * (4 - n)
    return {
        "o_que": itens[0],
        "quanto": itens[1],
        "como": itens[2],
        "prazo": itens[3],
        "ataque_disfarcado": disfarcado,
    }


def _check(
    cid: str,
    cand: str,
    veredito: str,
    confianca: str = "alta",
    repeticao: str | None = None,
    oculta: bool = False,
) -> dict[str, Any]:
    return {
        "id": cid,
        "candidato": cand,
        "veredito": veredito,
        "confianca": confianca,
        "repeticao_de": repeticao,
        "oculta": oculta,
    }


CASO_A: dict[str, Any] = {
    "metodo": "v2",
    "candidatos": [{"id": "a", "nome": "A"}],
    "turnos": [
        _turno("t1", "a", 60, True, 2, 1, 4, 6, 8, False, [_prop(2), _prop(4)]),
        _turno("t2", "a", 2, False, sub=2, cla=10, ataque=True, propostas=[_prop(4, disfarcado=True)]),
        _turno("t3", "a", 300, True, 1, 1, 0, 10, 6, False),
    ],
    "checagens": [
        _check("c1", "a", "verdadeiro"),
        _check("c2", "a", "falso", "baixa"),
        _check("c3", "a", "impreciso"),
        _check("c4", "a", "verdadeiro", repeticao="c1"),
        _check("c5", "a", "falso", repeticao="c2"),
        _check("c6", "a", "sem_dados"),
        _check("c7", "a", "verdadeiro", oculta=True),
    ],
    "falas": [
        {"candidato": "a", "duracao_s": 60},
        {"candidato": "a", "duracao_s": 2.5},
        {"candidato": "a", "duracao_s": 300},
    ],
}


def _metricas(resultado: dict[str, Any], cid: str = "a") -> dict[str, Any]:
    return next(c for c in resultado["candidatos"] if c["id"] == cid)


def test_each_formula_on_a_hand_computed_case() -> None:
    r = _metricas(calcular(ler_entrada(CASO_A)))
    m = r["metricas"]
    # Weights: t1 60 s, t2 2 s -> 5 s (minimum), t3 300 s -> 180 s (maximum).
    # Direct answers: t1 100*(1/2)*(1-0.4) = 30; t3 100. (60*30 + 180*100 + 20*50) / (60+180+20)
    respostas = (60 * 30 + 180 * 100 + 20 * 50) / 260
    assert m["respostas_diretas"]["nota"] == pytest.approx(respostas, abs=0.0051)
    assert respostas == pytest.approx(80.0)
    substancia = (60 * 60 + 5 * 20 + 180 * 100 + 20 * 50) / 265
    clareza = (60 * 80 + 5 * 100 + 180 * 60 + 20 * 50) / 265
    respeito = (60 * 100 + 5 * 0 + 180 * 100 + 20 * 100) / 265
    assert m["substancia"]["nota"] == pytest.approx(substancia, abs=0.0051)
    assert m["clareza"]["nota"] == pytest.approx(clareza, abs=0.0051)
    assert m["respeito"]["nota"] == pytest.approx(respeito, abs=0.0051)
    # Proposals: 50 and 100 (the disguised attack is excluded), 2 fictitious at 50.
    assert m["propostas"]["nota"] == pytest.approx((50 + 100 + 2 * 50) / 4)
    # Veracity: c1 (1*1*1), c2 (0.5*2*0), c3 (1*1*0.75), c5 repeat of a lie counts (1*2*0);
    # c4 (repeat of a truth), c6 (no data) and c7 (hidden) do not count. n = 4.
    veracidade = 100 * (1 + 0 + 0.75 + 0 + 3 * 0.5) / (1 + 1 + 1 + 2 + 3)
    assert veracidade == pytest.approx(40.625)
    assert m["veracidade"]["nota"] == pytest.approx(veracidade, abs=0.0051)
    pesos = {
        "veracidade": 35 * 4 / 7,
        "respostas_diretas": 30,
        "substancia": 10,
        "propostas": 10 * 2 / 4,
        "clareza": 10,
        "respeito": 5,
    }
    notas = {
        "veracidade": veracidade,
        "respostas_diretas": respostas,
        "substancia": substancia,
        "propostas": 62.5,
        "clareza": clareza,
        "respeito": respeito,
    }
    total = sum(pesos[k] * notas[k] for k in pesos) / sum(pesos.values())
    assert r["nota"] == pytest.approx(total, abs=0.0051)
    for k, peso in pesos.items():
        assert m[k]["peso_efetivo"] == pytest.approx(100 * peso / 80, abs=0.0051)
        assert m[k]["sem_dados"] is False
    assert r["turnos_avaliados"] == 3
    assert r["tempo_fala_s"] == pytest.approx(362.5)


def test_weights_renormalise_over_metrics_with_data() -> None:
    entrada = {
        "candidatos": [{"id": "a", "nome": "A"}],
        "turnos": [_turno("t1", "a", 40, sub=8, cla=4)],
    }
    r = _metricas(calcular(ler_entrada(entrada)))
    m = r["metricas"]
    assert m["veracidade"] == {"nota": 50.0, "peso_efetivo": 0.0, "sem_dados": True}
    assert m["respostas_diretas"] == {"nota": None, "peso_efetivo": 0.0, "sem_dados": True}
    assert m["propostas"] == {"nota": None, "peso_efetivo": 0.0, "sem_dados": True}
    s, c, rs = (40 * 80 + 1000) / 60, (40 * 40 + 1000) / 60, 100.0
    assert r["nota"] == pytest.approx((10 * s + 10 * c + 5 * rs) / 25, abs=0.0051)
    assert m["substancia"]["peso_efetivo"] == pytest.approx(40.0)
    assert m["respeito"]["peso_efetivo"] == pytest.approx(20.0)
    assert sum(x["peso_efetivo"] for x in m.values()) == pytest.approx(100.0, abs=0.02)


def test_a_candidate_without_evaluated_turns_has_no_total_but_speaking_time() -> None:
    entrada = {
        "candidatos": [{"id": "a", "nome": "A"}, {"id": "b", "nome": "B"}],
        "turnos": [_turno("t1", "a", 30)],
        "checagens": [_check("c1", "b", "verdadeiro")],
        "falas": [{"candidato": "b", "duracao_s": 12.5}],
    }
    b = _metricas(calcular(ler_entrada(entrada)), "b")
    assert b["nota"] is None
    assert b["turnos_avaliados"] == 0
    assert b["tempo_fala_s"] == 12.5
    assert all(x["peso_efetivo"] == 0 for x in b["metricas"].values())


def test_veracity_weight_grows_with_checks_and_confidence_halves() -> None:
    um = placar.veracidade([placar.ChecagemPlacar("c", "a", "verdadeiro", "baixa")], 35)
    assert um.nota == pytest.approx(100 * (0.5 + 1.5) / (0.5 + 3))
    assert um.peso == pytest.approx(35 / 4)
    tres = placar.veracidade([placar.ChecagemPlacar(f"c{i}", "a", "enganoso", "alta") for i in range(3)], 35)
    assert tres.nota == pytest.approx(100 * 1.5 / (3 * 1.5 + 3))
    assert tres.peso == pytest.approx(35 * 3 / 6)


def test_a_turn_without_question_stays_out_of_direct_answers() -> None:
    entrada = {
        "candidatos": [{"id": "a", "nome": "A"}],
        "turnos": [_turno("t1", "a", 30, pergunta=False), _turno("t2", "a", 10, True, 1, 0, 10)],
    }
    m = _metricas(calcular(ler_entrada(entrada)))["metricas"]
    assert m["respostas_diretas"]["nota"] == pytest.approx((10 * 0 + 20 * 50) / 30, abs=0.0051)


@pytest.mark.parametrize(
    ("diferenca", "empate", "casas"),
    [(2.96, True, 2), (2.97, True, 2), (3.00, False, 1), (3.04, False, 1), (2.9999, True, 4)],
)
def test_tie_compares_unrounded_values_and_shows_enough_decimals(
    diferenca: float, empate: bool, casas: int
) -> None:
    # n = 16 turns: threshold max(3, 10/4) = 3.
    m = manchete([Classificado("a", 50.0 + diferenca, 16), Classificado("b", 50.0, 16)])
    assert m["limiar"] == 3 and m["empate_tecnico"] is empate and (m["lider"] is None) is empate
    assert m["casas"] == casas
    # At the stated decimals the rounded figures compare as the exact ones do.
    mostrada, limite = round(m["diferenca"], m["casas"]), round(m["limiar"], m["casas"])
    assert (mostrada < limite) is empate


def test_tie_threshold_and_the_three_turn_rule() -> None:
    assert placar.limiar_empate(1) == pytest.approx(10)
    assert placar.limiar_empate(4) == pytest.approx(5)
    assert placar.limiar_empate(16) == pytest.approx(3)  # 10/4 = 2.5 < 3
    assert placar.limiar_empate(100) == pytest.approx(3)
    # n = 3 turns (the fewer of the two): threshold 10/sqrt(3) = 5.77
    empate = manchete([Classificado("a", 60.0, 5), Classificado("b", 55.0, 3)])
    assert empate == {"lider": None, "empate_tecnico": True, "diferenca": 5.0, "limiar": 5.77, "casas": 1}
    lider = manchete([Classificado("a", 61.0, 3), Classificado("b", 55.0, 3)])
    assert lider["lider"] == "a" and lider["empate_tecnico"] is False
    # Exactly at the threshold is not a tie (the rule is "difference < threshold").
    assert manchete([Classificado("a", 58.0, 16), Classificado("b", 55.0, 20)])["lider"] == "a"
    assert manchete([Classificado("a", 57.99, 16), Classificado("b", 55.0, 20)])["empate_tecnico"] is True
    # Fewer than 3 evaluated turns for either of the top two: no leader, whatever the gap.
    poucos = manchete([Classificado("a", 90.0, 2), Classificado("b", 10.0, 10)])
    assert poucos["lider"] is None and poucos["empate_tecnico"] is False
    # The third candidate does not matter; a candidate without total is not ranked.
    tres = manchete(
        [
            Classificado("c", None, 0),
            Classificado("b", 40.0, 3),
            Classificado("a", 80.0, 3),
            Classificado("d", 10.0, 1),
        ]
    )
    assert tres["lider"] == "a"
    assert manchete([Classificado("a", 80.0, 9)])["lider"] is None


def test_v1_uses_five_metrics_and_its_weights() -> None:
    entrada = {**CASO_A, "metodo": "v1"}
    r = _metricas(calcular(ler_entrada(entrada)))
    assert list(r["metricas"]) == ["veracidade", "respostas_diretas", "substancia", "clareza", "respeito"]
    m = r["metricas"]
    pesos = {
        "veracidade": 40 * 4 / 7,
        "respostas_diretas": 25,
        "substancia": 20,
        "clareza": 10,
        "respeito": 5,
    }
    total = sum(pesos[k] * m[k]["nota"] for k in pesos) / sum(pesos.values())
    assert r["nota"] == pytest.approx(total, abs=0.01)
    assert placar.metodos_do_debate(placar.DATA_METODO_V2) == ("v2",)
    assert placar.metodos_do_debate(placar.DATA_METODO_V2.replace(day=17)) == ("v2", "v1")


@pytest.mark.parametrize(
    ("mudanca", "trecho"),
    [
        ({"metodo": "v3"}, "metodo"),
        ({"turnos": [_turno("t", "x", 10)]}, "turnos[0].candidato"),
        ({"turnos": [_turno("t", "a", 10, True, 1, 2)]}, "partes_respondidas"),
        ({"turnos": [_turno("t", "a", 10, True, 1, 1, 11)]}, "evasao"),
        ({"turnos": [_turno("t", "a", 10, True, 0, 0)]}, "partes_pergunta"),
        ({"turnos": [_turno("t", "a", -1)]}, "duracao_s"),
        ({"checagens": [_check("c", "a", "mentira")]}, "veredito"),
        ({"checagens": [_check("c", "a", "falso", "media")]}, "confianca"),
        ({"candidatos": [{"id": "a", "nome": "A"}, {"id": "a", "nome": "B"}]}, "repetidos"),
    ],
)
def test_bad_input_names_the_field(mudanca: dict[str, Any], trecho: str) -> None:
    entrada = {"candidatos": [{"id": "a", "nome": "A"}], **mudanca}
    with pytest.raises(ErroPlacar, match=trecho.replace("[", r"\[").replace("]", r"\]")):
        ler_entrada(entrada)


def test_cli_prints_placar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arquivo = tmp_path / "avaliacoes.json"
    arquivo.write_text(json.dumps(CASO_A), encoding="utf-8")
    assert main(["debate", "placar", str(arquivo)]) == 0
    saida = json.loads(capsys.readouterr().out)
    assert saida == calcular(ler_entrada(CASO_A))
    assert set(saida["candidatos"][0]) == {
        "id",
        "nome",
        "nota",
        "metricas",
        "turnos_avaliados",
        "turnos_em_revisao",
        "itens_em_revisao",
        "tempo_fala_s",
    }
    assert set(saida["manchete"]) == {"lider", "empate_tecnico", "diferenca", "limiar", "casas"}
    arquivo.write_text('{"candidatos": [{"id": "a"}]}', encoding="utf-8")
    assert main(["debate", "placar", str(arquivo)]) == 1
    assert "candidatos[0].nome" in capsys.readouterr().err
    assert main(["debate", "placar", str(tmp_path / "nada.json")]) == 1


def test_method_page_states_the_points_per_proposal_item() -> None:
    pagina = (Path(__file__).resolve().parents[2] / "content" / "metodologia" / "debates.md").read_text(
        encoding="utf-8"
    )
    assert placar.PONTOS_ITEM_PROPOSTA.is_integer()  # the page writes it without decimals
    assert f"recebe {int(placar.PONTOS_ITEM_PROPOSTA)} pontos por item presente" in pagina
