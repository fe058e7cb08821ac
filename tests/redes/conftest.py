"""Fixtures for the desk jobs: a project folder with fictional candidates and published checks."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobs.checagens.captura import ResultadoCaptura, capturar
from jobs.checagens.configuracao import ConfigChecagens
from jobs.checagens.memoria import memoria_do_projeto
from tests.checagens.conftest import SITE_MINIMO
from tests.support.paginas import ServidorPaginas

CHECAGEM = """+++
id = "{id}"
slug = "{slug}"
afirmacao = "{afirmacao}"
veredito = "{veredito}"
candidato = "{candidato}"
status = "{status}"
autor = "editor-a"
revisor = "editor-b"
publicado_em = 2026-10-12T14:30:00-03:00
demonstracao = true

[[fontes]]
url = "https://fontes.example/dados"
titulo = "Fonte fictícia"
acessado_em = 2026-10-12

[[ocorrencias]]
url = "https://redes.example/{candidato}/{id}-1"
plataforma = "site"
data = 2026-10-10T10:00:00-03:00
arquivo = "data/redes/demonstracao/{id}-1.warc.gz"

[[historico]]
tipo = "enviada"
data = 2026-10-11T10:00:00-03:00
pessoa = "editor-a"

[[historico]]
tipo = "aprovada"
data = 2026-10-12T14:00:00-03:00
pessoa = "editor-b"
+++

**Conteúdo de demonstração.** Texto da checagem {id}.
"""


def escrever_checagem(raiz: Path, nome: str, **campos: str) -> Path:
    """Write a check file with the given fields (defaults fill the rest)."""
    valores = {
        "id": nome,
        "slug": nome,
        "afirmacao": "Afirmação de teste.",
        "veredito": "falso",
        "candidato": "helena-prado",
        "status": "publicada",
    }
    valores.update(campos)
    caminho = raiz / "content" / "checagens" / f"{nome}.md"
    caminho.parent.mkdir(parents=True, exist_ok=True)
    caminho.write_text(CHECAGEM.format(**valores), encoding="utf-8")
    return caminho


@pytest.fixture
def projeto(tmp_path: Path) -> Path:
    """A project root with two fictional candidates and three checks (two published)."""
    raiz = tmp_path / "projeto"
    candidatos = raiz / "content" / "candidatos"
    candidatos.mkdir(parents=True)
    for nome in ("helena-prado", "rui-amaral"):
        (candidatos / f"{nome}.toml").write_text(f'nome = "{nome}"\ndemonstracao = true\n', encoding="utf-8")
    shutil.copy(SITE_MINIMO / "content" / "editores.toml", raiz / "content" / "editores.toml")
    escrever_checagem(
        raiz, "leitos", afirmacao="O estado abriu 300 novos leitos de UTI em 2025.", veredito="verdadeiro"
    )
    escrever_checagem(
        raiz,
        "homicidios",
        afirmacao="Os homicídios caíram pela metade na cidade durante a gestão anterior.",
        veredito="enganoso",
        candidato="rui-amaral",
    )
    escrever_checagem(
        raiz, "rascunho-vacina", afirmacao="A vacina da gripe causa a doença.", status="rascunho"
    )
    return raiz


@pytest.fixture
def config() -> ConfigChecagens:
    """Defaults, with short timeouts and no transcription unless a test asks for it."""
    return ConfigChecagens(tempo_limite_s=30.0, transcrever_videos=False)


@pytest.fixture
def servidor() -> Iterator[ServidorPaginas]:
    """A running loopback page server."""
    with ServidorPaginas() as s:
        yield s


def pagina(texto: str, visualizacoes: int | None = None) -> str:
    """A minimal post page whose JSON-LD carries the post text (and views when given)."""
    import json

    dados: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": "SocialMediaPosting",
        "text": texto,
    }
    if visualizacoes is not None:
        dados["interactionStatistic"] = {
            "@type": "InteractionCounter",
            "interactionType": "https://schema.org/WatchAction",
            "userInteractionCount": visualizacoes,
        }
    jsonld = json.dumps(dados, ensure_ascii=False).replace("</", "<\\/")
    return f"<html><head><script type='application/ld+json'>{jsonld}</script></head><body></body></html>"


def capturar_post(
    projeto: Path,
    config: ConfigChecagens,
    servidor: ServidorPaginas,
    url: str,
    texto: str,
    candidato: str = "helena-prado",
    visualizacoes: int | None = None,
    quando: dt.datetime | None = None,
) -> ResultadoCaptura:
    """Serve `texto` as the post at the public-looking `url` (through the loopback proxy) and capture it."""
    servidor.rota(url, pagina(texto, visualizacoes))
    memoria, _ = memoria_do_projeto(projeto, config)
    return capturar(
        url,
        config,
        projeto,
        candidato=candidato,
        sessao=servidor.sessao_proxy(),
        memoria=memoria,
        agora=quando,
    )
