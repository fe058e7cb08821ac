"""The gold set keeps the rule-based backend honest (a drop below these floors is a regression)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

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


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def test_evasion_uses_the_authors_mapping() -> None:
    from benchmarks.debate_qualidade import _classe_qevasion

    assert _classe_qevasion("1.1 Explicit") == "resposta clara"
    assert _classe_qevasion("1.2 Implicit") == "ambivalente", "the authors: Implicit is ambivalent"
    assert _classe_qevasion("2.4 General") == "ambivalente"
    assert _classe_qevasion("2.6 Declining to answer") == "sem resposta"


def test_macro_f1_and_the_majority_baseline() -> None:
    from collections import Counter

    from benchmarks.debate_qualidade import f1_macro
    from jobs.analise.treinar import CLASSES_QEVASION

    classes = CLASSES_QEVASION
    perfeito = Counter({(c, c): 5 for c in classes})
    assert f1_macro(perfeito, classes) == 1.0
    # always the majority class (60 of 100): F1 of that class 2*60/(100+60) = 0.75, others 0
    sempre = Counter({("ambivalente", "ambivalente"): 60, ("resposta clara", "ambivalente"): 40})
    assert f1_macro(sempre, classes) == pytest.approx(0.75 / 3)


def _pagina() -> str:
    raiz = Path(__file__).resolve().parents[2]
    return (raiz / "content" / "metodologia" / "debates.md").read_text(encoding="utf-8")


def _figuras() -> dict[str, Any]:
    from benchmarks.debate_qualidade import FIGURAS_JSON

    dados: dict[str, Any] = json.loads(FIGURAS_JSON.read_text(encoding="utf-8"))
    return dados


def _decimal(x: float) -> str:
    return f"{x:.2f}".replace(".", ",")


def test_method_page_quotes_the_measured_evasion_figures() -> None:
    """The debates method page states exactly what the benchmark wrote (docs/qualidade-debates.json)."""
    qev = _figuras()["qevasion"]
    regras, modelo, maioria = (qev["metodos"][m] for m in ("regras", "classificador", "maioria"))
    secao = _pagina().split("### O que a medida de evasão consegue", 1)[1].split("\n## ", 1)[0]
    assert f"{qev['respostas']} respostas" in secao
    linha_acerto = next(linha for linha in secao.splitlines() if linha.startswith("| Acerto"))
    assert linha_acerto == (
        f"| Acerto | {_pct(regras['acordo'])} | {_pct(modelo['acordo'])} | {_pct(maioria['acordo'])} |"
    )
    linha_f1 = next(linha for linha in secao.splitlines() if linha.startswith("| F1 macro"))
    f1 = [_decimal(f["f1_macro"]) for f in (regras, modelo, maioria)]
    assert linha_f1.endswith("| " + " | ".join(f1) + " |")
    assert f'("{qev["classe_maioria"]}")' in secao
    # the words must match the figures' direction
    assert _figuras()["evasao_acima_da_maioria"] == any(
        f["certos"] > maioria["certos"] for m, f in qev["metodos"].items() if m != "maioria"
    )
    if not _figuras()["evasao_acima_da_maioria"]:
        assert "Nenhum dos dois acerta mais do que quem chutasse" in secao
        assert "regra de baixo acordo" in secao


def test_method_page_quotes_the_measured_checkworthiness_figures() -> None:
    ct = _figuras()["ct24"]
    secao = (
        _pagina()
        .split("### Afirmações checáveis: regras ou classificador treinado", 1)[1]
        .split("\n## ", 1)[0]
    )
    assert f"{ct['n']} textos" in secao
    for medida, rotulo in (("precisao", "Precisão"), ("revocacao", "Revocação"), ("f1", "F1")):
        linha = next(linha for linha in secao.splitlines() if linha.startswith(f"| {rotulo} |"))
        valores = [_decimal(ct["metodos"][m][medida]) for m in ("regras", "classificador", "sempre_checavel")]
        assert linha == f"| {rotulo} | " + " | ".join(valores) + " |"
    padrao = _figuras()["padrao_checabilidade"]
    assert f"padrão é o avaliador por {'regras' if padrao == 'regras' else 'classificador'}" in secao
    from jobs.analise.config import ConfigAnalise

    assert (ConfigAnalise().backend == "classificador") == (padrao == "classificador")


def test_quality_doc_tables_are_generated_from_the_figures() -> None:
    """docs/QUALIDADE.md's comparison rows are the JSON's figures, formatted by the benchmark."""
    from benchmarks.debate_qualidade import QUALIDADE_MD, _linha_pr

    texto = QUALIDADE_MD.read_text(encoding="utf-8")
    fig = _figuras()
    for m, f in fig["ct24"]["metodos"].items():
        assert _linha_pr(m, f) in texto
    for m, f in fig["ouro_checavel"]["metodos"].items():
        assert _linha_pr(m, f) in texto


def test_checkworthiness_figures_are_those_of_the_shipped_model() -> None:
    """The figures file was written with the shipped check-worthiness model (not a stale one), its
    cross-validation figures are the model file's own, and issue 24's goal (F1 >= 0.50 on CT24's
    reporting half, through the debate's claim filter) holds for it."""
    from benchmarks.debate_qualidade import QUALIDADE_MD, figuras_validacao
    from jobs.analise.classificador import modelo_checabilidade

    modelo = modelo_checabilidade()
    fig = _figuras()
    classificador = fig["ct24"]["metodos"]["classificador"]
    assert classificador["nome"] == f"classificador:{modelo.id}"
    assert fig["ouro_checavel"]["metodos"]["classificador"]["nome"] == classificador["nome"]
    assert fig["validacao_checabilidade"] == json.loads(json.dumps(figuras_validacao(modelo)))
    assert f"com F1 {fig['validacao_checabilidade']['f1']:.2f}" in QUALIDADE_MD.read_text(encoding="utf-8")
    assert classificador["f1"] >= 0.50


def test_method_page_words_follow_the_gold_set_comparison() -> None:
    ouro = _figuras()["ouro_checavel"]["metodos"]
    secao = _pagina().split("### Afirmações checáveis: regras ou classificador treinado", 1)[1]
    regras_melhor = ouro["regras"]["f1"] > ouro["classificador"]["f1"]
    assert ("as regras se saem melhor" in secao) == regras_melhor
    assert ("erra menos que as regras" in secao) == (
        _figuras()["ct24"]["metodos"]["classificador"]["f1"] > _figuras()["ct24"]["metodos"]["regras"]["f1"]
    )
