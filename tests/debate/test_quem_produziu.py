"""Who produced a debate's scores and checks is said from the data the debate job wrote, on every
page and on the share card: rules are never called AI (issue 23, point 9)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from jobs.debate.pagina import produzido_por
from jobs.debate.pipeline import executar
from site_builder.debates import rodape_cartao
from tests.debate.conftest import REPO

IA = re.compile(r"\bIA\b|inteligência artificial", re.IGNORECASE)


def test_rule_based_debate_records_and_shows_rules(demo: Path) -> None:
    executar(demo)
    pagina = json.loads((demo / "pagina.json").read_bytes())
    assert pagina["produzido_por"] == "notas e checagens por análise automática por regras"
    rodape = rodape_cartao("15 de outubro de 2026", True, pagina)
    assert "por regras" in rodape and not IA.search(rodape)


def test_language_model_is_named_on_the_card() -> None:
    avaliacao = {"turnos": {"t1": {"avaliacao": {"avaliador": "openai:modelo-x"}}}}
    revisadas = {"checagens": [{"extraida_por": "regras-1"}]}
    produzido = produzido_por(avaliacao, revisadas)
    assert produzido == "notas e checagens geradas por IA (modelo modelo-x)"
    assert "modelo modelo-x" in rodape_cartao("15 de outubro de 2026", False, {"produzido_por": produzido})


def test_older_page_data_claims_neither_rules_nor_ai() -> None:
    rodape = rodape_cartao("15 de outubro de 2026", False, {})
    assert not IA.search(rodape) and "regras" not in rodape


def test_debate_texts_do_not_call_the_default_rules_ai() -> None:
    """The section intro and the method page may name AI only as the optional language model."""
    secao = (REPO / "content" / "secoes" / "debates.md").read_text(encoding="utf-8")
    assert "geradas por IA" not in secao and "por regras" in secao
    metodo = (REPO / "content" / "metodologia" / "debates.md").read_text(encoding="utf-8")
    assert "produzidas por inteligência artificial" not in metodo
    assert "A IA reconhece" not in metodo and "a IA busca" not in metodo


def test_desk_method_page_does_not_call_the_default_rules_ai() -> None:
    metodo = (REPO / "content" / "metodologia" / "checagens.md").read_text(encoding="utf-8")
    assert "a IA identifica" not in metodo and "A IA procura" not in metodo
    assert "sem inteligência artificial" in metodo
