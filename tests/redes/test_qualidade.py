"""The matching measurement: its logic on a tiny set, the real datasets when present, the doc section."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobs.checagens.configuracao import ConfigMemoria
from jobs.checagens.qualidade import (
    DADOS_PADRAO,
    Caso,
    casos_checkthat,
    casos_factckbr,
    escrever_secao,
    medir,
)


def test_top1_and_threshold_shares() -> None:
    documentos = [
        "O estado abriu 300 leitos de UTI",
        "A merenda atende 2 milhões de alunos",
        "Gosto de futebol",
    ]
    casos = [
        Caso("abriu 300 leitos de UTI no estado", frozenset({0})),
        Caso("merenda para 2 milhões de alunos", frozenset({1})),
        Caso("abriu 300 leitos de UTI", frozenset({2})),  # deliberately wrong label
    ]
    m = medir("mini", documentos, casos, ConfigMemoria())
    assert (m.consultas, m.documentos, m.acertos) == (3, 3, 2)
    assert m.top1 == pytest.approx(2 / 3)
    assert m.oferecidas(0.0) == pytest.approx(2 / 3) and m.oferecidas(1.01) == 0.0
    assert m.falsas(0.5) == pytest.approx(1 / 3), "the mislabelled query's best wrong match is high"


@pytest.mark.skipif(not (DADOS_PADRAO / "task2_por.csv").exists(), reason="conjuntos de checagem ausentes")
def test_real_datasets_stay_above_the_recorded_floor() -> None:
    docs, casos = casos_checkthat(DADOS_PADRAO / "task2_por.csv")
    assert (len(docs), len(casos)) == (201, 225)
    assert medir("ct", docs, casos, ConfigMemoria()).top1 > 0.65
    docs_fb, casos_fb = casos_factckbr(DADOS_PADRAO / "FACTCKBR.tsv")
    assert len(casos_fb) > 1200
    assert medir("fb", docs_fb, casos_fb, ConfigMemoria()).top1 > 0.40


def test_section_is_replaced_and_other_sections_kept(tmp_path: Path) -> None:
    doc = tmp_path / "QUALIDADE.md"
    doc.write_text(
        "# Qualidade\n\n<!-- BEGIN Debates -->\n## Debates\nx\n<!-- END Debates -->\n", encoding="utf-8"
    )
    escrever_secao("## Checagens: memória de afirmações\n\nprimeira\n", doc)
    escrever_secao("## Checagens: memória de afirmações\n\nsegunda\n", doc)
    texto = doc.read_text(encoding="utf-8")
    assert "<!-- BEGIN Debates -->\n## Debates\nx\n<!-- END Debates -->" in texto
    assert "segunda" in texto and "primeira" not in texto
    assert texto.count("## Checagens: memória de afirmações") == 1
