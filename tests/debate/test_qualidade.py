"""The gold set keeps the rule-based backend honest (a drop below these floors is a regression)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.debate_qualidade import OURO, avaliar_ouro, escrever_secao
from jobs.analise.afirmacoes import AnalisadorRegras
from jobs.analise.turnos import AvaliadorRegras


def test_gold_set_size_and_labels() -> None:
    ouro = json.loads(OURO.read_text(encoding="utf-8"))
    assert len(ouro["falas"]) >= 60 and len(ouro["turnos"]) >= 15
    assert {t["faixa"] for t in ouro["turnos"]} == {"0-2", "3-5", "6-8", "9-10"}
    assert all(t["respondidas"] <= t["partes"] for t in ouro["turnos"])


def test_rule_backend_floors_on_the_gold_set() -> None:
    r = avaliar_ouro(AvaliadorRegras(), AnalisadorRegras())
    assert r["checavel"].f1 >= 0.8
    assert r["ataque"].precisao >= 0.8 and r["ataque"].revocacao >= 0.6
    assert r["proposta"].f1 >= 0.85
    assert r["partes"].taxa >= 0.75
    assert r["faixas"].taxa >= 0.6 and r["vizinhas"].taxa >= 0.9


def test_section_writer_touches_only_its_section(tmp_path: Path) -> None:
    arquivo = tmp_path / "QUALIDADE.md"
    arquivo.write_text("# Qualidade\n\n## Checagens\n\nnúmeros da mesa\n", encoding="utf-8")
    escrever_secao("primeira", arquivo)
    escrever_secao("segunda", arquivo)
    texto = arquivo.read_text(encoding="utf-8")
    assert "## Checagens\n\nnúmeros da mesa" in texto
    assert "segunda" in texto and "primeira" not in texto and texto.count("## Debates") == 1
