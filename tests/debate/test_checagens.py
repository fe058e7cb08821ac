"""Stages 5-6: source search, first checks and the deterministic review pass."""

from __future__ import annotations

import contextlib
import json
import shutil
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from jobs.analise.afirmacoes import Afirmacao
from jobs.checagens.configuracao import ConfigMemoria
from jobs.dados_compartilhados import dataset
from jobs.debate.checagem import Checagem, Fato, FonteChecagem, checar, dividir_fatos, veredito_por_numeros
from jobs.debate.edicoes import EdicaoChecagem, Edicoes, Fonte
from jobs.debate.reuso import MemoriaDebate, memoria_do_debate
from jobs.debate.revisao import revisar
from jobs.fontes.busca import DADOS, BuscaWeb, ErroBusca, checagens_publicadas, indice_local, ler_indice
from tests.support.servidor import em_segundo_plano

REPO = Path(__file__).resolve().parents[2]


def _afirmacao(texto: str) -> Afirmacao:
    return Afirmacao(texto, "checavel", 0.9, 0.5, (), 0, len(texto))


@pytest.fixture(scope="module")
def indice() -> Any:
    return indice_local(REPO)


@pytest.fixture(scope="module")
def memoria() -> MemoriaDebate:
    """The desk's published checks, TF-IDF only (tests/debate/test_reuso.py covers the embeddings)."""
    return memoria_do_debate(REPO, ConfigMemoria(embeddings=""))[0]


def test_index_numbers_match_the_public_files() -> None:
    br26 = json.loads(dataset("tse/2026-1t-final/presidente-uf/br-c0001-e006257-u.json").read_text())
    docs = {d.id: d for d in ler_indice(DADOS / "tse-resultados.json")}
    dados = {x.descricao: x.valor for x in docs["tse-2026-1t-comparecimento"].dados}
    assert dados["eleitorado eleitores aptos a votar no Brasil primeiro turno"] == int(br26["e"]["te"])
    assert dados["abstenção eleitores que não votaram faltaram primeiro turno"] == int(br26["e"]["a"])
    br22 = json.loads(dataset("tse/2022/ele2022_544/br-c0001-e000544-r.json").read_text())
    dados22 = {x.descricao: x.valor for x in docs["tse-2022-1t-comparecimento"].dados}
    assert dados22["eleitorado eleitores aptos a votar no Brasil primeiro turno"] == int(br22["e"])
    assert all(d.url.startswith("https://resultados.tse.jus.br/oficial/") for d in docs.values())


def test_only_published_and_approved_desk_checks_are_indexed(tmp_path: Path) -> None:
    pasta = tmp_path / "content" / "checagens"
    pasta.mkdir(parents=True)
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    shutil.copy(
        fixtures / "site_minimo" / "content" / "editores.toml", tmp_path / "content" / "editores.toml"
    )
    modelo = (
        '+++\nid = "{i}"\nslug = "s{i}"\nafirmacao = "A {i}"\nveredito = "falso"\nstatus = "{s}"\n'
        'autor = "{a}"\nrevisor = "{r}"\n+++\ncorpo\n'
    )
    (pasta / "a.md").write_text(modelo.format(i=1, s="publicada", a="x", r="y"), encoding="utf-8")
    (pasta / "b.md").write_text(modelo.format(i=2, s="rascunho", a="x", r="y"), encoding="utf-8")
    (pasta / "c.md").write_text(modelo.format(i=3, s="publicada", a="x", r="x"), encoding="utf-8")
    # Saying "publicada" is not enough: a.md has no candidate, sources, date or recorded approval,
    # so the build refuses it and so does the debate (tests/checagens/test_reuso_no_debate.py).
    assert checagens_publicadas(pasta) == []
    valida = fixtures / "checagens" / "valida.md"
    (pasta / "v.md").write_text(valida.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "content" / "candidatos").mkdir()
    (tmp_path / "content" / "candidatos" / "ana-teste.toml").write_text(
        'nome = "Ana Teste"\n', encoding="utf-8"
    )
    assert [d.id for d in checagens_publicadas(pasta)] == ["v-1"]


def test_numeric_verdicts() -> None:
    assert veredito_por_numeros(159e6, 158_745_502, "") == "verdadeiro"
    assert veredito_por_numeros(2e6, 1.6e6, "") == "impreciso"
    assert veredito_por_numeros(3e6, 1.6e6, "") == "falso"
    assert veredito_por_numeros(21, 21.08, "%") == "verdadeiro"
    assert veredito_por_numeros(23, 21.08, "%") == "impreciso"
    assert veredito_por_numeros(30, 21.08, "%") == "falso"


def test_compound_claims_split_into_facts() -> None:
    fatos = dividir_fatos("A frota encolheu 40% desde 2022 e o eleitorado chegou a 156 milhões de eleitores.")
    assert fatos == ["A frota encolheu 40% desde 2022", "o eleitorado chegou a 156 milhões de eleitores"]
    assert dividir_fatos("Saúde e educação são prioridades do estado.") == [
        "Saúde e educação são prioridades do estado"
    ]


def test_checks_against_official_statistics(indice: Any, memoria: MemoriaDebate) -> None:
    certo = checar(
        _afirmacao("O país tem hoje quase 159 milhões de eleitores."), "c1", "t", "a", indice, memoria
    )
    assert (certo.veredito, certo.confianca, certo.metodo) == ("verdadeiro", "alta", "fontes")
    assert certo.fontes[0].url.startswith("https://resultados.tse.jus.br/")
    assert "158,7 milhões" in certo.explicacao
    errado = checar(
        _afirmacao("A abstenção no primeiro turno passou de 30%."), "c2", "t", "a", indice, memoria
    )
    assert errado.veredito == "falso" and "21,08%" in errado.explicacao
    sem = checar(
        _afirmacao("A fila de cirurgias do estado tem 40 mil pessoas."), "c3", "t", "a", indice, memoria
    )
    assert (sem.veredito, sem.fontes) == ("sem_dados", ())


def test_desk_memory_gives_the_published_verdict(indice: Any, memoria: MemoriaDebate) -> None:
    c = checar(
        _afirmacao("Em 2025, o estado abriu 300 novos leitos de UTI."), "c1", "t", "a", indice, memoria
    )
    assert (c.veredito, c.metodo) == ("verdadeiro", "memoria")
    assert c.checagem_publicada == "/checagens/demo-helena-leitos-uti/"
    assert c.fontes[0].orgao == "Redação (checagem publicada)"
    outro = checar(
        _afirmacao("Em 2025, o estado abriu 900 novos leitos de UTI."), "c2", "t", "a", indice, memoria
    )
    assert outro.metodo != "memoria"  # other numbers: not the same claim


class _Busca(BaseHTTPRequestHandler):
    respostas: ClassVar[list[tuple[int, bytes, float]]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        status, corpo, atraso = self.respostas.pop(0) if self.respostas else (200, b'{"results": []}', 0.0)
        time.sleep(atraso)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(corpo)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.wfile.write(corpo)


@pytest.fixture
def busca_web() -> Iterator[tuple[str, list[tuple[int, bytes, float]]]]:
    respostas: list[tuple[int, bytes, float]] = []
    handler = type("H", (_Busca,), {"respostas": respostas})
    servidor = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    em_segundo_plano(servidor)
    yield f"http://127.0.0.1:{servidor.server_address[1]}/search", respostas
    servidor.shutdown()
    servidor.server_close()


def test_web_search_backend(
    busca_web: tuple[str, list[tuple[int, bytes, float]]], memoria: MemoriaDebate
) -> None:
    url, respostas = busca_web
    resultado = {
        "results": [
            {
                "title": "Abstenção",
                "url": "https://exemplo.org/a",
                "content": "A abstenção no primeiro turno de 2026 foi de 21,08% do eleitorado.",
            },
            {"title": "sem url", "url": "javascript:x", "content": "x"},
        ]
    }
    respostas.append((200, json.dumps(resultado).encode(), 0.0))
    web = BuscaWeb(url, 2.0)
    c = checar(_afirmacao("A abstenção no primeiro turno passou de 30%."), "c1", "t", "a", web, memoria)
    assert c.veredito == "falso" and c.confianca == "baixa"  # a web snippet is never strong evidence
    assert [f.url for f in c.fontes] == ["https://exemplo.org/a"]
    respostas.append((500, b"erro", 0.0))
    with pytest.raises(ErroBusca):
        web.buscar("x")
    respostas.append((200, b"<html>", 0.0))
    with pytest.raises(ErroBusca, match="JSON"):
        web.buscar("x")
    respostas.append((200, b"{}", 1.5))
    with pytest.raises(ErroBusca, match="não respondeu"):
        BuscaWeb(url, 0.3).buscar("x")
    respostas.append((503, b"", 0.0))
    fora = checar(_afirmacao("A abstenção passou de 30%."), "c2", "t", "a", web, memoria)
    assert (fora.veredito, fora.metodo) == ("sem_dados", "busca_indisponivel")


# ---------------------------------------------------------------- review pass

FONTE = FonteChecagem("TSE", "https://resultados.tse.jus.br/x", "TSE")


def _fato(
    texto: str,
    veredito: str,
    central: bool = True,
    fonte: bool = True,
    numeros: tuple[float, float] | None = None,
) -> Fato:
    afirmado, referencia = numeros or (None, None)
    return Fato(texto, central, veredito, (FONTE,) if fonte else (), afirmado, referencia, "")


def _check(
    cid: str,
    texto: str,
    veredito: str,
    fatos: tuple[Fato, ...],
    turno: str = "t1",
    candidato: str = "a",
    confianca: str = "alta",
    explicacao: str = "",
    publicada: str | None = None,
) -> Checagem:
    return Checagem(
        cid,
        turno,
        candidato,
        texto,
        0,
        len(texto),
        0.9,
        0.5,
        (),
        fatos,
        veredito,
        confianca,
        explicacao,
        tuple(f for fato in fatos for f in fato.fontes),
        "fontes",
        publicada,
    )


def _um(c: Checagem, edicoes: Edicoes | None = None) -> Any:
    return revisar([c], edicoes or Edicoes())[0]


def test_false_central_fact_makes_the_claim_false() -> None:
    c = _check(
        "c",
        "X caiu 50% e Y subiu",
        "verdadeiro",
        (_fato("X caiu 50%", "falso"), _fato("Y subiu", "verdadeiro", central=False)),
    )
    r = _um(c)
    assert (r.veredito, r.revisado) == ("falso", True)
    assert "fato central é falso" in r.motivo


def test_true_central_fact_with_a_wrong_detail_is_imprecise() -> None:
    c = _check(
        "c",
        "X caiu 50% e Y subiu",
        "verdadeiro",
        (_fato("X caiu 50%", "verdadeiro"), _fato("Y subiu", "falso", central=False)),
    )
    r = _um(c)
    assert (r.veredito, r.revisado) == ("impreciso", True) and "detalhe" in r.motivo


def test_no_source_for_the_central_fact_is_no_data() -> None:
    c = _check(
        "c",
        "X caiu 40% e o país tem 156 milhões de eleitores",
        "verdadeiro",
        (_fato("X caiu 40%", "sem_dados", fonte=False), _fato("156 milhões", "verdadeiro", central=False)),
    )
    r = _um(c)
    assert (r.veredito, r.revisado) == ("sem_dados", True) and "fato central" in r.motivo


def test_numbers_must_support_the_verdict() -> None:
    c = _check(
        "c", "A abstenção foi de 30%", "verdadeiro", (_fato("30%", "verdadeiro", numeros=(30e6, 20e6)),)
    )
    r = _um(c)
    assert (r.veredito, r.revisado) == ("falso", True) and "números" in r.motivo
    explicacao = _check(
        "e",
        "X é 5",
        "verdadeiro",
        (_fato("X é 5", "verdadeiro"),),
        explicacao="O número não confere com a fonte.",
    )
    assert _um(explicacao).veredito == "sem_dados"


def test_false_without_a_supporting_source_becomes_no_data() -> None:
    c = _check("c", "X é 5", "falso", (_fato("X é 5", "falso", fonte=False),))
    assert _um(c).veredito == "sem_dados"
    enganoso = _check("d", "X é 5", "enganoso", (_fato("X é 5", "enganoso", fonte=False),))
    assert _um(enganoso).veredito == "sem_dados"
    memoria = _check("m", "X é 5", "enganoso", (_fato("X é 5", "enganoso"),), publicada="/checagens/x/")
    assert _um(memoria).veredito == "enganoso" and not _um(memoria).revisado


def test_similar_claims_in_a_turn_cannot_contradict() -> None:
    forte = _check(
        "c1", "A abstenção no primeiro turno foi de 21%", "verdadeiro", (_fato("21%", "verdadeiro"),)
    )
    fraca = _check(
        "c2",
        "A abstenção do primeiro turno foi de 21% mesmo",
        "falso",
        (_fato("21%", "falso"),),
        confianca="baixa",
    )
    a, b = revisar([forte, fraca], Edicoes())
    assert (a.veredito, b.veredito) == ("verdadeiro", "verdadeiro")
    assert b.revisado and "contraditórios" in str(b.motivo)
    outro_turno = _check(
        "c3",
        "A abstenção do primeiro turno foi de 21% mesmo",
        "falso",
        (_fato("21%", "falso"),),
        turno="t2",
        confianca="baixa",
    )
    depois = revisar([forte, outro_turno], Edicoes())[1]  # in a later turn it is a repeat instead
    assert (depois.repeticao_de, depois.veredito) == ("c1", "verdadeiro")


def test_repeats_point_to_the_original() -> None:
    original = _check(
        "c1", "A abstenção no primeiro turno passou de 30%", "falso", (_fato("30%", "falso"),), turno="t1"
    )
    repete = _check(
        "c2",
        "Repito: a abstenção no primeiro turno passou de 30%",
        "sem_dados",
        (_fato("30%", "sem_dados", fonte=False),),
        turno="t5",
    )
    outro = _check(
        "c3",
        "A abstenção no primeiro turno passou de 30%",
        "falso",
        (_fato("30%", "falso"),),
        turno="t6",
        candidato="b",
    )
    _a, b, c = revisar([original, repete, outro], Edicoes())
    assert (b.repeticao_de, b.veredito, b.revisado) == ("c1", "falso", True)
    assert c.repeticao_de is None  # another candidate's claim is checked on its own


def test_editor_correction_stays_as_the_editor_left_it() -> None:
    c = _check("c", "X é 5", "falso", (_fato("X é 5", "falso", fonte=False),))
    edicoes = Edicoes(
        checagens={
            "c": EdicaoChecagem(
                veredito="falso",
                explicacao="Confirmado pelo editor.",
                fontes=(Fonte("Portal", "https://exemplo.org"),),
                motivo="fonte enviada pela redação",
            )
        }
    )
    r = _um(c, edicoes)
    assert (r.veredito, r.editada, r.revisado) == ("falso", True, False)
    assert r.explicacao == "Confirmado pelo editor." and r.fontes[0].url == "https://exemplo.org"
    oculta = _um(c, Edicoes(checagens={"c": EdicaoChecagem(oculta=True)}))
    assert oculta.oculta and oculta.veredito == "sem_dados"  # hiding does not stop the review
