"""The learned classifiers: reproducible training on the fitting half only, checked model files, and
the backend name recorded on every claim."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from jobs.analise.afirmacoes import AnalisadorRegras, analisador_de
from jobs.analise.classificador import (
    TAREFA_CHECABILIDADE,
    TAREFA_EVASAO,
    VERSAO,
    AnalisadorClassificador,
    ClassifierError,
    arquivo_do_modelo,
    carregar,
    checabilidade_reescalada,
    modelo_padrao,
)
from jobs.analise.config import ConfigAnalise, config_analise, rotulo_backend
from jobs.analise.treinar import ARQUIVO_CT24, Exemplo, ler_ct24, metade, sha256_arquivo, treinar_modelo
from jobs.dados_compartilhados import dataset

AMOSTRA = 240  # rows of CT24 for the fast retrain (the full one is `python -m jobs.analise.treinar`)
PEQUENO = 1 << 12


@pytest.fixture(scope="module")
def ct24() -> list[Exemplo]:
    return ler_ct24(dataset(ARQUIVO_CT24, dataset("factcheck")))


def _treinar_amostra(exemplos: list[Exemplo], pasta: Path) -> Path:
    from jobs.analise.classificador import gravar

    modelo = treinar_modelo(
        TAREFA_CHECABILIDADE, exemplos, ("nao", "sim"), "0" * 64, [(1e-4, 3.0)], 15, PEQUENO
    )
    return gravar(modelo, pasta, "amostra0")


def test_training_is_reproducible_byte_for_byte(ct24: list[Exemplo], tmp_path: Path) -> None:
    amostra = ct24[:AMOSTRA]
    a = _treinar_amostra(amostra, tmp_path / "a")
    b = _treinar_amostra(amostra, tmp_path / "b")
    assert a.name == f"checabilidade-v{VERSAO}-amostra0.json"
    assert a.read_bytes() == b.read_bytes()
    assert carregar(a).classes == ("nao", "sim")  # and the .sha256 beside it matches


def test_training_never_reads_the_reporting_half(ct24: list[Exemplo], tmp_path: Path) -> None:
    """Flipping every label of the reporting half changes nothing in the trained file."""
    amostra = ct24[:AMOSTRA]
    trocada = [
        e if e.parte == "ajuste" else dataclasses.replace(e, rotulo="nao" if e.rotulo == "sim" else "sim")
        for e in amostra
    ]
    assert any(e.parte == "relato" for e in amostra)
    original = _treinar_amostra(amostra, tmp_path / "a").read_bytes()
    assert _treinar_amostra(trocada, tmp_path / "b").read_bytes() == original


def test_halves_are_the_documented_hash_split() -> None:
    # sha256("0")[0] = 0x5f (odd), sha256("2")[0] = 0xd4 (even)
    assert metade("0") == "relato" and metade("2") == "ajuste"


def test_shipped_models_are_versioned_checked_and_trained_on_the_fitting_half(ct24: list[Exemplo]) -> None:
    soma = sha256_arquivo(dataset(ARQUIVO_CT24, dataset("factcheck")))
    arquivo = arquivo_do_modelo(TAREFA_CHECABILIDADE)
    assert arquivo.name == f"checabilidade-v{VERSAO}-{soma[:8]}.json"
    assert arquivo.stat().st_size < 3_000_000
    modelo = carregar(arquivo)
    assert modelo.metadados["dados_sha256"] == soma
    assert modelo.metadados["exemplos_ajuste"] == sum(e.parte == "ajuste" for e in ct24)
    assert modelo_padrao(TAREFA_EVASAO).classes == ("resposta clara", "ambivalente", "sem resposta")


def test_an_altered_model_file_is_refused(tmp_path: Path) -> None:
    arquivo = arquivo_do_modelo(TAREFA_CHECABILIDADE)
    copia = tmp_path / arquivo.name
    bruto = bytearray(arquivo.read_bytes())
    bruto[-10] ^= 1
    copia.write_bytes(bytes(bruto))
    soma = arquivo.with_name(arquivo.name + ".sha256")
    (tmp_path / soma.name).write_bytes(soma.read_bytes())
    with pytest.raises(ClassifierError, match="não confere"):
        carregar(copia)
    (tmp_path / (arquivo.name + ".sha256")).unlink()
    with pytest.raises(ClassifierError, match="ausente"):
        carregar(copia)


def test_backend_is_chosen_by_config_and_named_on_every_claim() -> None:
    assert config_analise({"backend": "classificador"}).backend == "classificador"
    analisador = analisador_de(ConfigAnalise(backend="classificador"))
    assert isinstance(analisador, AnalisadorClassificador)
    assert analisador.nome == f"classificador:{arquivo_do_modelo(TAREFA_CHECABILIDADE).stem}"
    rotulo = rotulo_backend(analisador.nome)
    assert "classificador treinado" in rotulo and "IA" not in rotulo
    texto = "O desemprego caiu para 7,8% em 2025, segundo o IBGE. Vou construir 300 creches até 2028."
    afirmacoes = analisador.analisar(texto)
    regras = AnalisadorRegras().analisar(texto)
    assert [(a.inicio, a.fim) for a in afirmacoes] == [(a.inicio, a.fim) for a in regras]
    assert afirmacoes[1].tipo == regras[1].tipo == "promessa"  # promises are never checked
    limiar = analisador.modelo.limiar
    esperado = "checavel" if analisador.modelo.positivo(afirmacoes[0].texto) >= limiar else "opiniao"
    assert afirmacoes[0].tipo == esperado


def test_rescaled_checkability_puts_the_threshold_at_one_half() -> None:
    assert checabilidade_reescalada(0.3, 0.3) == 0.5
    assert checabilidade_reescalada(0.0, 0.3) == 0.0 and checabilidade_reescalada(1.0, 0.3) == 1.0
    assert checabilidade_reescalada(0.29, 0.3) < 0.5 < checabilidade_reescalada(0.31, 0.3)


def test_the_debate_page_says_when_the_classifier_picked_the_claims() -> None:
    from jobs.debate.pagina import produzido_por

    com = produzido_por({"turnos": {}}, {"checagens": [{"extraida_por": "classificador:checabilidade-v1-x"}]})
    sem = produzido_por({"turnos": {}}, {"checagens": [{"extraida_por": "regras"}]})
    assert "classificador treinado" in com and "classificador" not in sem


def test_turns_keep_the_rules_under_the_classifier_backend() -> None:
    from jobs.analise.turnos import AvaliadorRegras, avaliador_de

    assert isinstance(avaliador_de("classificador", ConfigAnalise(backend="classificador")), AvaliadorRegras)
