"""Collectors: candidates' public feeds (RSS/Atom, e.g. YouTube channel feeds) read on a schedule.

Seed ("Captura"): official posts are collected on the platforms that allow it; the desk sends
the links of the others (`eleicoes redes capturar`). Each new feed entry is captured like a link
(same evidence, same triage); entries already captured are remembered in `data/redes/coletas.json`.
A failed entry is not marked as seen, so the next run tries it again.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import lxml.etree  # type: ignore[import-untyped]
import requests

from jobs.analise.afirmacoes import Analisador
from jobs.checagens.acervo import DeskError, agora_iso, json_bytes
from jobs.checagens.captura import ResultadoCaptura, baixar, capturar
from jobs.checagens.configuracao import Coletor, ConfigChecagens
from jobs.checagens.memoria import ChecagemPublicada, Memoria, memoria_do_projeto
from site_builder.writer import write_atomic

log = logging.getLogger("eleicoes.checagens.coletores")

ESTADO = "coletas.json"
ATOM = "{http://www.w3.org/2005/Atom}"
MEDIA = "{http://search.yahoo.com/mrss/}"
YT = "{http://www.youtube.com/xml/schemas/2015}"
MAX_VISTOS_POR_FEED = 2000  # the state file keeps the newest ids only


@dataclass(frozen=True)
class Entrada:
    """One item of a feed."""

    id: str
    url: str
    titulo: str
    publicado_em: str
    visualizacoes: int | None


@dataclass
class ResultadoColeta:
    """What one collection run did: new capture ids, entries skipped as seen, errors."""

    capturas: list[str] = field(default_factory=list)
    ja_vistas: int = 0
    erros: list[str] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)

    def resumo(self) -> str:
        """One line in Portuguese for logs and the CLI."""
        return (
            f"{len(self.capturas)} captura(s) nova(s), {self.ja_vistas} entrada(s) já vista(s), "
            f"{len(self.erros)} erro(s)"
        )


def _texto(no: Any, caminho: str) -> str:
    achado = no.find(caminho)
    return (achado.text or "").strip() if achado is not None and achado.text else ""


def ler_feed(corpo: bytes) -> list[Entrada]:
    """Entries of an RSS 2.0 or Atom feed, in feed order; ValueError when it is neither.

    The XML parser resolves no entities and fetches nothing (feeds are untrusted input).
    """
    parser = lxml.etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, recover=False)
    try:
        raiz = lxml.etree.fromstring(corpo, parser=parser)
    except lxml.etree.XMLSyntaxError as exc:
        raise ValueError(f"XML inválido: {exc}") from exc
    entradas: list[Entrada] = []
    if raiz.tag == f"{ATOM}feed":
        for e in raiz.findall(f"{ATOM}entry"):
            links = e.findall(f"{ATOM}link")
            alternativo = next((x for x in links if x.get("rel", "alternate") == "alternate"), None)
            url = alternativo if alternativo is not None else (links[0] if links else None)
            href = url.get("href", "").strip() if url is not None else ""
            estatistica = e.find(f"{MEDIA}group/{MEDIA}community/{MEDIA}statistics")
            views = estatistica.get("views") if estatistica is not None else None
            entradas.append(
                Entrada(
                    id=_texto(e, f"{YT}videoId") or _texto(e, f"{ATOM}id") or href,
                    url=href,
                    titulo=_texto(e, f"{ATOM}title"),
                    publicado_em=_texto(e, f"{ATOM}published") or _texto(e, f"{ATOM}updated"),
                    visualizacoes=int(views) if views and views.isdigit() else None,
                )
            )
    elif raiz.tag == "rss":
        for item in raiz.findall("channel/item"):
            link = _texto(item, "link")
            entradas.append(
                Entrada(
                    id=_texto(item, "guid") or link,
                    url=link,
                    titulo=_texto(item, "title"),
                    publicado_em=_texto(item, "pubDate"),
                    visualizacoes=None,
                )
            )
    else:
        raise ValueError(f"não é RSS nem Atom (raiz <{raiz.tag}>)")
    return [e for e in entradas if e.url.startswith(("http://", "https://"))]


def _ler_estado(caminho: Path) -> dict[str, Any]:
    if not caminho.exists():
        return {}
    try:
        dados = json.loads(caminho.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        log.warning("%s ilegível; recomeçando o registro de entradas vistas", caminho)
        return {}
    return dados if isinstance(dados, dict) else {}


Capturador = Callable[..., ResultadoCaptura]


def coletar(
    config: ConfigChecagens,
    raiz: Path | None = None,
    analisador: Analisador | None = None,
    sessao: requests.Session | None = None,
    agora: dt.datetime | None = None,
    capturador: Capturador = capturar,
) -> ResultadoColeta:
    """Read every configured feed and capture its new entries (entry point for the scheduler).

    Never raises for a bad feed or post: problems are returned in `erros` (Portuguese).
    """
    raiz = raiz or Path.cwd()
    resultado = ResultadoColeta()
    if not config.coletores:
        return resultado
    dados = raiz / config.dados_dir
    caminho_estado = dados / ESTADO
    estado = _ler_estado(caminho_estado)
    sessao = sessao or requests.Session()
    memoria: Memoria[ChecagemPublicada] | None
    memoria, avisos = memoria_do_projeto(raiz, config)
    resultado.avisos.extend(avisos)
    restantes = config.max_novos_por_coleta
    for coletor in config.coletores:
        restantes -= _coletar_feed(
            coletor,
            config,
            raiz,
            estado,
            resultado,
            restantes,
            sessao,
            agora,
            analisador,
            memoria,
            capturador,
        )
        write_atomic(caminho_estado, json_bytes(estado))
    log.info("coleta: %s", resultado.resumo())
    return resultado


def _coletar_feed(
    coletor: Coletor,
    config: ConfigChecagens,
    raiz: Path,
    estado: dict[str, Any],
    resultado: ResultadoColeta,
    restantes: int,
    sessao: requests.Session,
    agora: dt.datetime | None,
    analisador: Analisador | None,
    memoria: Memoria[ChecagemPublicada] | None,
    capturador: Capturador,
) -> int:
    """Capture the new entries of one feed; returns how many captures it made."""
    try:
        feed = baixar(coletor.url, config, sessao, int(config.tamanho_maximo_mb * 1_000_000))
        entradas = ler_feed(feed.corpo)
    except (DeskError, ValueError) as exc:
        resultado.erros.append(f"feed {coletor.url} ({coletor.candidato}): {exc}")
        return 0
    registro = estado.setdefault(coletor.url, {"vistos": []})
    vistos: list[str] = [str(v) for v in registro.get("vistos", [])]
    feitas = 0
    for entrada in entradas:
        if entrada.id in vistos:
            resultado.ja_vistas += 1
            continue
        if feitas >= restantes:
            resultado.avisos.append(f"limite de {config.max_novos_por_coleta} captura(s) por coleta atingido")
            break
        try:
            captura = capturador(
                entrada.url,
                config,
                raiz,
                candidato=coletor.candidato,
                alcance=entrada.visualizacoes,
                sessao=sessao,
                agora=agora,
                analisador=analisador,
                memoria=memoria,
                origem="coletor",
            )
        except DeskError as exc:
            resultado.erros.append(f"{entrada.url}: {exc}")
            continue
        feitas += 1
        vistos.append(entrada.id)
        resultado.capturas.append(captura.captura.id)
    registro["vistos"] = vistos[-MAX_VISTOS_POR_FEED:]
    registro["ultima_coleta"] = agora_iso(agora)
    return feitas


def coletar_do_projeto(raiz: Path, arquivo_config: Path | None = None) -> ResultadoColeta:
    """`coletar` with the project's `[checagens]` and `[analise]` (what a scheduler job calls).

    A broken configuration is reported in `erros` (Portuguese), never raised.
    """
    from jobs.analise.afirmacoes import analisador_de
    from jobs.analise.config import config_analise
    from jobs.checagens.configuracao import config_checagens
    from jobs.configuracao import ConfigSectionError, ler_secao

    arquivo = arquivo_config or raiz / "eleicoes.toml"
    try:
        config = config_checagens(ler_secao("checagens", arquivo))
        analise = config_analise(ler_secao("analise", arquivo))
    except ConfigSectionError as exc:
        return ResultadoColeta(erros=[f"configuração inválida: {exc}"])
    return coletar(config, raiz, analisador_de(analise))
