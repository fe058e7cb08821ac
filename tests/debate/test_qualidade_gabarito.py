"""The FACTCK.BR answer key groups one claim checked by several agencies; the quality commands stop
loudly when a dataset is missing; intervals and the weight fit are plain functions."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import pytest

from jobs.checagens.gabarito import JANELA_DIAS, LinhaFactck, grupos, pares_mesma_afirmacao
from jobs.checagens.qualidade import Caso
from jobs.checagens.qualidade_gabarito import ajustar_peso, intervalo_mrr, posicoes, wilson
from jobs.dados_compartilhados import DatasetMissingError, dataset

DIA = dt.date(2019, 7, 22)
BOATO = "Bolsonaro se aposentou do Exército com atestado de insanidade mental"


def _linha(afirmacao: str, titulo: str, agencia: str, dias: int = 0) -> LinhaFactck:
    return LinhaFactck(afirmacao, titulo, agencia, DIA + dt.timedelta(days=dias))


def test_same_claim_from_two_agencies_is_one_group() -> None:
    linhas = [
        _linha(BOATO, f"#Verificamos: falso que {BOATO}", "lupa"),
        _linha(
            "Papa Francisco cancela a Bíblia e propõe um novo livro", "Papa não cancelou a Bíblia", "lupa"
        ),
        _linha(f"{BOATO}.", f"Não é verdade que {BOATO}", "aosfatos", dias=6),
    ]
    assert grupos(linhas) == [0, 1, 0]
    assert [(i, j) for _n, i, j in pares_mesma_afirmacao(linhas)] == [(0, 2)]


def test_same_agency_or_far_apart_checks_stay_apart() -> None:
    mesma_agencia = [
        _linha(BOATO, f"Falso: {BOATO}", "lupa"),
        _linha(f"{BOATO}!", f"Falso: {BOATO}!", "lupa"),
    ]
    assert grupos(mesma_agencia) == [0, 1]
    distantes = [
        _linha(BOATO, f"Falso: {BOATO}", "lupa"),
        _linha(f"{BOATO}!", f"Falso: {BOATO}!", "aosfatos", dias=JANELA_DIAS + 1),
    ]
    assert grupos(distantes) == [0, 1]


def test_word_for_word_quotes_are_grouped_as_before() -> None:
    linhas = [_linha(BOATO, "Título A", "lupa"), _linha(BOATO, "Título B bem diferente", "lupa")]
    assert grupos(linhas) == [0, 0]


def test_ranks_intervals_and_weight_fit() -> None:
    notas = np.array([[0.9, 0.1, 0.5], [0.2, 0.2, 0.1]])
    casos = [Caso("a", frozenset({2})), Caso("b", frozenset({1}))]
    assert posicoes(notas, casos) == [2, 2]  # a tie goes to the lower index, as in the memory
    baixo, alto = wilson(50, 100)
    assert baixo == pytest.approx(0.4038, abs=1e-4) and alto == pytest.approx(0.5962, abs=1e-4)
    assert intervalo_mrr([1] * 10) == (1.0, 1.0)
    a, b = intervalo_mrr([1, 2, 3, 4] * 10)
    assert a < (1 + 1 / 2 + 1 / 3 + 1 / 4) / 4 < b
    tfidf = np.array([[0.2, 0.8]])  # the right document is 0: TF-IDF misses it, E5 finds it
    e5 = np.array([[0.9, 0.1]])
    caso = [Caso("x", frozenset({0}))]
    assert (
        ajustar_peso([(tfidf, e5, caso)]) == 0.45
    )  # the lowest weight (step 0.05) above 6/14, where it ranks first
    assert ajustar_peso([(e5, tfidf, caso)]) == 0.0


def test_a_missing_dataset_is_a_loud_error(tmp_path: Path) -> None:
    with pytest.raises(DatasetMissingError, match=r"nao-existe\.tsv"):
        dataset("nao-existe.tsv", tmp_path)


@pytest.mark.parametrize(
    "modulo",
    [
        "benchmarks.debate_qualidade",
        "jobs.analise.treinar",
        "jobs.checagens.qualidade",
        "jobs.debate.qualidade_reuso",
        "jobs.checagens.qualidade_gabarito",
    ],
)
def test_quality_commands_fail_when_a_dataset_is_missing(
    modulo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    main = importlib.import_module(modulo).main
    assert main(["--dados", str(tmp_path)]) == 1
    erro = capsys.readouterr().err
    assert "erro:" in erro and str(tmp_path) in erro and "não encontrado" in erro
