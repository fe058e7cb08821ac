"""Drafts: facts split, sources suggested, file written with status rascunho, hostile text escaped."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import markdown
import pytest

from jobs.analise.config import ConfigAnalise
from jobs.checagens.acervo import DeskError, ler_decisoes
from jobs.checagens.configuracao import ConfigBusca, ConfigChecagens
from jobs.checagens.fila import montar_fila
from jobs.checagens.memoria import memoria_do_projeto
from jobs.checagens.rascunho import busca_de, dividir_fatos, escapar_markdown, escrever_rascunho
from site_builder.conteudo import regras
from site_builder.conteudo.frontmatter import split_front_matter
from site_builder.conteudo.registros import Fonte
from tests.redes.conftest import capturar_post
from tests.support.chat_server import ChatServer, ok
from tests.support.paginas import ServidorPaginas

QUANDO = dt.datetime(2026, 10, 22, 9, 30, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("texto", "fatos"),
    [
        (
            "O estado abriu 300 leitos em 2025 e a fila do SUS caiu 40%.",
            ["O estado abriu 300 leitos em 2025", "A fila do SUS caiu 40%"],
        ),
        (
            "Arroz e feijão ficaram 20% mais caros em 2025.",
            ["Arroz e feijão ficaram 20% mais caros em 2025."],
        ),
        (
            "O desemprego caiu para 6% em 2025; a renda subiu 5% desde 2023.",
            ["O desemprego caiu para 6% em 2025", "A renda subiu 5% desde 2023"],
        ),
    ],
)
def test_facts_split(texto: str, fatos: list[str]) -> None:
    assert dividir_fatos(texto) == fatos


def test_markdown_escape_renders_inert() -> None:
    hostil = "</script><script>alert(1)</script> *negrito* [link](javascript:x) `code`"
    html = markdown.markdown(escapar_markdown(hostil))
    assert "<script" not in html and "<em>" not in html and "<a " not in html and "<code>" not in html
    assert "&lt;/script&gt;" in html


def test_draft_is_written_as_rascunho_and_leaves_the_queue(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    texto = "O hospital estadual abriu 300 leitos de UTI em 2025 e a mortalidade caiu 10% desde 2023."
    resultado = capturar_post(
        projeto, config, servidor, "http://redes.example/h/9", texto, visualizacoes=9000
    )
    id_afirmacao = resultado.afirmacoes[0]["id"]
    memoria, _ = memoria_do_projeto(projeto, config)
    caminho, rascunho = escrever_rascunho(
        projeto, config, ConfigAnalise(), id_afirmacao, memoria=memoria, editor="ed", agora=QUANDO
    )
    assert caminho == projeto / "content" / "checagens" / f"rascunho-{id_afirmacao.lower()}.md"
    texto_arquivo = caminho.read_text(encoding="utf-8")
    meta, corpo = split_front_matter(texto_arquivo, str(caminho))
    assert meta["status"] == "rascunho" and meta["veredito"] == "" and meta["autor"] == ""
    assert meta["id"] == caminho.stem == meta["slug"]
    assert meta["candidato"] == "helena-prado"
    assert meta["afirmacao"] == texto
    assert meta["ocorrencias"][0]["url"] == "http://redes.example/h/9"
    assert meta["ocorrencias"][0]["alcance"] == 9000
    lida = regras.ler_checagem(texto_arquivo, Fonte(f"content/checagens/{caminho.name}", "x"), None, None)
    assert lida.problemas == (), "6a's rules accept the draft"
    assert [f for f, _ in rascunho.fatos] == [
        "O hospital estadual abriu 300 leitos de UTI em 2025",
        "A mortalidade caiu 10% desde 2023",
    ]
    urls = {f.url for _, fontes in rascunho.fatos for f in fontes}
    assert "https://cnes.datasus.gov.br/" in urls, "leitos -> CNES in the local index"
    assert "Nunca é publicado sozinho" in corpo
    assert "cnes.datasus.gov.br" in corpo
    assert any(s.checagem.id == "leitos" for s in rascunho.relacionadas)
    assert ler_decisoes(projeto / "data" / "redes")[id_afirmacao].acao == "rascunho"
    assert id_afirmacao not in {i.afirmacao.id for i in montar_fila(projeto, config)[0]}
    with pytest.raises(DeskError, match="nada foi sobrescrito"):
        escrever_rascunho(projeto, config, ConfigAnalise(), id_afirmacao)
    assert caminho.read_text(encoding="utf-8") == texto_arquivo


def test_hostile_claim_is_escaped_in_the_draft(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    hostil = 'Em 2025 foram 3 mil </script><script>alert("x")</script> casos de dengue \\ "aspas" *fim*.'
    resultado = capturar_post(projeto, config, servidor, "http://redes.example/h/10", hostil)
    [afirmacao] = [a for a in resultado.afirmacoes if a["tipo"] == "checavel"]
    caminho, _ = escrever_rascunho(projeto, config, ConfigAnalise(), afirmacao["id"], agora=QUANDO)
    texto = caminho.read_text(encoding="utf-8")
    meta, corpo = split_front_matter(texto, "r.md")
    assert meta["afirmacao"] == " ".join(afirmacao["texto"].split()), "TOML string round-trips"
    html = markdown.markdown(corpo)
    assert "<script" not in html
    assert "&lt;/script&gt;&lt;script&gt;" in html


def test_opinion_cannot_be_drafted(projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas) -> None:
    resultado = capturar_post(
        projeto, config, servidor, "http://redes.example/h/11", "Acho que a oposição tem medo."
    )
    with pytest.raises(DeskError, match="não são checadas"):
        escrever_rascunho(projeto, config, ConfigAnalise(), resultado.afirmacoes[0]["id"])
    assert not list((projeto / "content" / "checagens").glob("rascunho-2*.md"))


def test_ai_split_and_web_search_on_loopback(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas, tmp_path: Path
) -> None:
    resultado = capturar_post(
        projeto, config, servidor, "http://redes.example/h/12", "O desemprego caiu para 6% em 2025."
    )
    web = servidor.rota(
        "/busca",
        json.dumps(
            {"results": [{"url": "https://fontes.example/pnad", "title": "PNAD <b>2025</b>", "content": "x"}]}
        ),
        tipo="application/json",
    )
    config_web = ConfigChecagens(transcrever_videos=False, busca=ConfigBusca(backend="web", url=web))
    resposta = {"fatos": ["A taxa de desocupação em 2025 foi de 6%"], "consultas": ["desocupação 2025 PNAD"]}
    with ChatServer([ok(resposta)]) as chat:
        analise = ConfigAnalise(backend="openai", base_url=chat.url, chave_env="", espera_s=0)
        saida = tmp_path / "r.md"
        caminho, rascunho = escrever_rascunho(
            projeto,
            config_web,
            analise,
            resultado.afirmacoes[0]["id"],
            saida=saida,
            busca=busca_de(config_web),
        )
    assert caminho == saida
    assert [f for f, _ in rascunho.fatos] == ["A taxa de desocupação em 2025 foi de 6%"]
    assert [f.url for f in rascunho.busca_web] == ["https://fontes.example/pnad"]
    assert "PNAD &lt;b&gt;2025&lt;/b&gt;" in caminho.read_text(encoding="utf-8")
    consultas = [parse_qs(urlsplit(caminho).query).get("q") for caminho, _ in servidor.pedidos]
    assert ["desocupação 2025 PNAD"] in consultas, "the AI's query went to the web backend"


def test_ai_failure_falls_back_to_rules(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    resultado = capturar_post(
        projeto, config, servidor, "http://redes.example/h/13", "O PIB cresceu 3% em 2025."
    )
    with ChatServer() as chat:  # no scripted answer: HTTP 500 every time
        analise = ConfigAnalise(backend="openai", base_url=chat.url, chave_env="", espera_s=0, tentativas=2)
        _, rascunho = escrever_rascunho(projeto, config, analise, resultado.afirmacoes[0]["id"])
    assert [f for f, _ in rascunho.fatos] == ["O PIB cresceu 3% em 2025."]
    assert any("divisão por IA falhou" in a for a in rascunho.avisos)
