"""What readers are told (issue 16): which backend produced each evaluation, check and draft; the
tie headline's numbers consistent with the rule; plurals that agree."""

from __future__ import annotations

import pytest

from jobs.analise.config import ROTULO_REGRAS, rotulo_backend
from jobs.debate import pagina
from jobs.debate.placar import Classificado, manchete
from site_builder.br_format import plural, pontos_por_extenso


def test_label_wording_per_backend() -> None:
    assert rotulo_backend("regras-1") == ROTULO_REGRAS == "análise automática por regras"
    assert rotulo_backend("regras") == ROTULO_REGRAS
    assert rotulo_backend("openai:gpt-4o-mini") == "gerado por IA (modelo gpt-4o-mini)"


def _avaliacao(avaliador: str) -> dict[str, object]:
    return {"turnos": {"t-f0002": {"avaliacao": {"avaliador": avaliador}}}}


def test_page_notice_names_ai_only_when_a_language_model_produced_something() -> None:
    regras = pagina.aviso(_avaliacao("regras-1"), {"checagens": [{"extraida_por": "regras"}]})
    assert "análise automática por regras" in regras and "IA" not in regras
    llm = pagina.aviso(_avaliacao("regras-1"), {"checagens": [{"extraida_por": "openai:modelo-x"}]})
    assert "geradas por IA (modelo modelo-x)" in llm
    checagens = pagina._checagens(
        {"checagens": [{"id": "c1", "extraida_por": "openai:modelo-x"}, {"id": "c2", "metodo": "memoria"}]}
    )
    assert "gerado por IA (modelo modelo-x)" in checagens["c1"]
    assert checagens["c2"].startswith("Veredito publicado pela redação")


@pytest.mark.parametrize(
    ("diferenca", "esperado"),
    [
        (2.96, "Empate técnico entre A e B: diferença de 2,96 pontos, menor que o limite de 3,00."),
        (2.97, "Empate técnico entre A e B: diferença de 2,97 pontos, menor que o limite de 3,00."),
        (
            3.00,
            "A lidera o placar com 53,0 pontos, 3,0 pontos à frente (empate técnico seria uma "
            "diferença menor que 3,0).",
        ),
        (
            3.04,
            "A lidera o placar com 53,0 pontos, 3,0 pontos à frente (empate técnico seria uma "
            "diferença menor que 3,0).",
        ),
    ],
)
def test_tie_headline_at_the_threshold(diferenca: float, esperado: str) -> None:
    # n = 16 turns each: the threshold is max(3, 10/√16) = 3.
    m = manchete([Classificado("a", 50.0 + diferenca, 16), Classificado("b", 50.0, 16)])
    placar = {
        "manchete": m,
        "candidatos": [
            {"id": "a", "nome": "A", "nota": round(50.0 + diferenca, 2)},
            {"id": "b", "nome": "B", "nota": 50.0},
        ],
    }
    assert pagina.manchete(placar, {"a": "A", "b": "B"}) == esperado


def test_plurals() -> None:
    assert plural(1, "fala", "falas") == "1 fala"
    assert plural(2, "fala", "falas") == "2 falas"
    assert plural(0, "fala", "falas") == "0 falas"
    assert pontos_por_extenso(1.5) == "1,5 ponto" and pontos_por_extenso(2.0) == "2,0 pontos"
    assert pagina.em_revisao({"turnos_em_revisao": 0}) == ""
    assert pagina.em_revisao({"turnos_em_revisao": 1}).startswith("1 turno aguarda")
    assert pagina.em_revisao({"turnos_em_revisao": 2}).startswith("2 turnos aguardam")
