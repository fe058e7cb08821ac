"""`eleicoes redes capturar URL`: keep the evidence of a post before it is edited or deleted.

Seed ("Captura"): we keep the text, the video transcript and an archived copy, so the proof
survives an edited or deleted post. One capture = one folder under `data/redes/<candidato>/`,
built in a temporary folder and renamed into place (all or nothing). Layout in `acervo.py`.

Post text is untrusted: it is stored as data (JSON, plain text), never as markup; the raw HTML
is kept byte for byte as evidence and is never rendered by the site.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import logging
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import extruct
import lxml.etree  # type: ignore[import-untyped]
import lxml.html  # type: ignore[import-untyped]
import requests
from requests.structures import CaseInsensitiveDict
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from jobs.analise.afirmacoes import Afirmacao, Analisador, AnalisadorRegras, extrair_afirmacoes
from jobs.analise.llm import ErroAnalise
from jobs.checagens.acervo import (
    AFIRMACOES,
    MANIFESTO,
    SEM_CANDIDATO,
    CapturaSalva,
    DeskError,
    agora_iso,
    json_bytes,
    json_lista_bytes,
    ler_captura,
    sha256,
)
from jobs.checagens.configuracao import ID_CANDIDATO, ConfigChecagens
from jobs.checagens.memoria import ChecagemPublicada, Memoria

log = logging.getLogger("eleicoes.checagens.captura")

SOFTWARE = "eleicoes-checagens/0.1 (warcio)"
MAX_CONSULTAS_MEMORIA = 200  # per capture; a pathological 5 MB post must not stall the job
BLOCO = 1 << 16
TIPOS_MIDIA = {
    "video/mp4": ".mp4",
    "video/webm": ".webm",
    "video/quicktime": ".mov",
    "video/ogg": ".ogv",
    "audio/mpeg": ".mp3",
    "audio/mp4": ".m4a",
    "audio/ogg": ".ogg",
    "audio/wav": ".wav",
    "audio/x-wav": ".wav",
    "audio/wave": ".wav",
    "audio/webm": ".weba",
}
TIPOS_JSONLD_POST = (
    "SocialMediaPosting",
    "DiscussionForumPosting",
    "BlogPosting",
    "NewsArticle",
    "Article",
    "VideoObject",
    "CreativeWork",
)
PLATAFORMAS_POR_DOMINIO = (
    (("youtube.com", "youtu.be"), "youtube"),
    (("instagram.com",), "instagram"),
    (("facebook.com", "fb.watch"), "facebook"),
    (("x.com", "twitter.com"), "x"),
    (("tiktok.com",), "tiktok"),
    (("kwai.com",), "kwai"),
    (("threads.net", "threads.com"), "threads"),
    (("t.me", "telegram.me"), "telegram"),
    (("whatsapp.com", "wa.me"), "whatsapp"),
)
_BLOCOS_HTML = frozenset(
    re.findall(
        r"\w+", "p div br li ul ol h1 h2 h3 h4 h5 h6 article section blockquote tr td th pre header main"
    )
)
_CHARSET_META = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.IGNORECASE)


@dataclass(frozen=True)
class Baixado:
    """One HTTP exchange as it will be archived (body already decoded from gzip/br)."""

    url: str
    status: int
    motivo: str
    cabecalhos: list[tuple[str, str]]
    corpo: bytes
    pedido: list[tuple[str, str]]
    historico: tuple[Baixado, ...] = ()

    @property
    def tipo(self) -> str:
        """The media type of the body, lower case, without parameters."""
        return (
            CaseInsensitiveDict(dict(self.cabecalhos)).get("content-type", "").split(";")[0].strip().lower()
        )


@dataclass
class ResultadoCaptura:
    """What a capture produced: its manifest, the claims found and warnings for the editor."""

    captura: CapturaSalva
    afirmacoes: list[dict[str, Any]] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)


# --- fetching -------------------------------------------------------------------------------------


def _validar_url(url: str) -> None:
    partes = urlsplit(url)
    if partes.scheme not in ("http", "https") or not partes.netloc:
        raise DeskError(f"endereço inválido: {url!r} (use um link http:// ou https:// do post)")


def baixar(url: str, config: ConfigChecagens, sessao: requests.Session, limite_bytes: int) -> Baixado:
    """GET `url` (following redirects) and read at most `limite_bytes`; DeskError otherwise."""
    _validar_url(url)
    try:
        resposta = sessao.get(
            url, timeout=config.tempo_limite_s, stream=True, headers={"User-Agent": config.user_agent}
        )
    except requests.Timeout as exc:
        raise DeskError(
            f"{url}: o site não respondeu em {config.tempo_limite_s:g} s; nada foi gravado"
        ) from exc
    except requests.RequestException as exc:
        raise DeskError(f"{url}: não foi possível baixar a página ({exc}); nada foi gravado") from exc
    with resposta:
        partes: list[bytes] = []
        total = 0
        try:
            for parte in resposta.iter_content(BLOCO):
                total += len(parte)
                if total > limite_bytes:
                    raise DeskError(
                        f"{url}: o conteúdo passa de {limite_bytes / 1e6:g} MB (limite em [checagens]); "
                        "nada foi gravado"
                    )
                partes.append(parte)
        except requests.RequestException as exc:
            raise DeskError(f"{url}: a conexão caiu durante o download ({exc}); nada foi gravado") from exc
        if resposta.status_code >= 400:
            raise DeskError(f"{url}: o site respondeu HTTP {resposta.status_code}; nada foi gravado")
        historico = tuple(
            Baixado(
                h.url,
                h.status_code,
                h.reason or "",
                _cabecalhos_arquivados(h, h.content),
                h.content,
                _pedido(h.request),
            )
            for h in resposta.history
        )
        corpo = b"".join(partes)
        return Baixado(
            url=resposta.url,
            status=resposta.status_code,
            motivo=resposta.reason or "",
            cabecalhos=_cabecalhos_arquivados(resposta, corpo),
            corpo=corpo,
            pedido=_pedido(resposta.request),
            historico=historico,
        )


def _pedido(pedido: requests.PreparedRequest) -> list[tuple[str, str]]:
    return [(str(k), str(v)) for k, v in pedido.headers.items()]


def _cabecalhos_arquivados(resposta: requests.Response, corpo: bytes) -> list[tuple[str, str]]:
    """Response headers matching the stored body: requests already undid gzip/br and chunking."""
    fora = {"content-encoding", "transfer-encoding", "content-length"}
    cabecalhos = [(str(k), str(v)) for k, v in resposta.headers.items() if k.lower() not in fora]
    return [*cabecalhos, ("Content-Length", str(len(corpo)))]


# --- decoding and extraction ------------------------------------------------------------------------


def decodificar(corpo: bytes, tipo_conteudo: str) -> tuple[str, str, list[str]]:
    """(text, encoding used, warnings): declared charset, then <meta charset>, then UTF-8.

    Bytes invalid in every candidate are replaced by U+FFFD with a warning; the original bytes
    stay untouched in pagina.html and in the WARC.
    """
    candidatas: list[str] = []
    m = re.search(r"charset\s*=\s*[\"']?([A-Za-z0-9_:.-]+)", tipo_conteudo, re.IGNORECASE)
    if m:
        candidatas.append(m.group(1))
    m2 = _CHARSET_META.search(corpo[:4096])
    if m2:
        candidatas.append(m2.group(1).decode("ascii", "replace"))
    candidatas.append("utf-8")
    if corpo.startswith(b"\xef\xbb\xbf"):
        candidatas.insert(0, "utf-8-sig")
    for nome in candidatas:
        try:
            return corpo.decode(nome), nome.lower(), []
        except (UnicodeDecodeError, LookupError):
            continue
    texto = corpo.decode("utf-8", errors="replace")
    trocas = texto.count("\ufffd")
    aviso = (
        f"codificação inválida: {trocas} trecho(s) de bytes não são {candidatas[0]} e foram trocados por "
        "'\ufffd' no texto extraído; os bytes originais estão intactos em pagina.html e no WARC"
    )
    return texto, "utf-8 (com substituições)", [aviso]


def _arvore(html: str) -> lxml.html.HtmlElement | None:
    if not html.strip():
        return None
    try:
        return lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return None


def metadados_de(arvore: lxml.html.HtmlElement | None, url: str) -> tuple[dict[str, Any], list[str]]:
    """OpenGraph, JSON-LD and microdata of the page (extruct), and warnings for broken blocks."""
    if arvore is None:
        return {"opengraph": [], "json-ld": [], "microdata": []}, []
    avisos: list[str] = []
    saida: dict[str, Any] = {}
    for sintaxe in ("opengraph", "json-ld", "microdata"):
        try:
            saida[sintaxe] = extruct.extract(arvore, base_url=url, syntaxes=[sintaxe], uniform=True).get(
                sintaxe, []
            )
        except Exception as exc:  # extruct raises whatever its parsers raise on hostile markup
            saida[sintaxe] = []
            avisos.append(f"metadados {sintaxe} ilegíveis e ignorados ({type(exc).__name__})")
    return saida, avisos


def _objetos_jsonld(metadados: dict[str, Any]) -> Iterator[dict[str, Any]]:
    pilha = list(metadados.get("json-ld", []))
    while pilha:
        item = pilha.pop(0)
        if isinstance(item, dict):
            yield item
            grafo = item.get("@graph")
            if isinstance(grafo, list):
                pilha.extend(grafo)
        elif isinstance(item, list):
            pilha.extend(item)


def _tipo_jsonld(obj: dict[str, Any]) -> set[str]:
    tipo = obj.get("@type", [])
    return {str(t) for t in (tipo if isinstance(tipo, list) else [tipo])}


def _og(metadados: dict[str, Any]) -> dict[str, str]:
    saida: dict[str, str] = {}
    for bloco in metadados.get("opengraph", []):
        if isinstance(bloco, dict):
            for chave, valor in bloco.items():
                if isinstance(valor, str) and chave not in saida:
                    saida[chave] = valor
    return saida


def _texto_de_no(no: lxml.html.HtmlElement) -> str:
    for lixo in no.xpath(".//script|.//style|.//noscript|.//template|.//svg|.//head"):
        lixo.drop_tree()
    for bloco in no.iter():
        if isinstance(bloco.tag, str) and bloco.tag.lower() in _BLOCOS_HTML:
            bloco.tail = "\n" + (bloco.tail or "")
    linhas = (" ".join(linha.split()) for linha in no.text_content().splitlines())
    return "\n".join(linha for linha in linhas if linha)


def texto_da_postagem(arvore: lxml.html.HtmlElement | None, metadados: dict[str, Any]) -> tuple[str, str]:
    """(post text, where it came from): JSON-LD body, OpenGraph description, <article>, or <body>."""
    for obj in _objetos_jsonld(metadados):
        if _tipo_jsonld(obj) & set(TIPOS_JSONLD_POST):
            for chave in ("articleBody", "text", "description"):
                valor = obj.get(chave)
                if isinstance(valor, str) and valor.strip():
                    return valor.strip(), f"json-ld:{chave}"
    og = _og(metadados)
    for chave in ("og:description", "twitter:description"):
        if og.get(chave, "").strip():
            return og[chave].strip(), chave
    if arvore is None:
        return "", "vazio"
    descricao = arvore.xpath("//meta[@name='description']/@content")
    artigos = arvore.xpath("//article")
    if artigos:
        return _texto_de_no(artigos[0]), "article"
    if descricao and str(descricao[0]).strip():
        return str(descricao[0]).strip(), "meta:description"
    corpo = arvore.find("body")
    return (_texto_de_no(corpo), "body") if corpo is not None else ("", "vazio")


def titulo_de(arvore: lxml.html.HtmlElement | None, metadados: dict[str, Any]) -> str:
    """og:title, else the JSON-LD headline/name, else <title>."""
    og = _og(metadados)
    if og.get("og:title", "").strip():
        return og["og:title"].strip()
    for obj in _objetos_jsonld(metadados):
        for chave in ("headline", "name"):
            if isinstance(obj.get(chave), str) and obj[chave].strip():
                return str(obj[chave]).strip()
    if arvore is not None:
        titulos = arvore.xpath("//title/text()")
        if titulos:
            return " ".join(str(titulos[0]).split())
    return ""


def publicado_em_de(metadados: dict[str, Any]) -> str:
    """The post's publication date as the page states it (ISO text), "" when absent."""
    for obj in _objetos_jsonld(metadados):
        for chave in ("datePublished", "uploadDate", "dateCreated"):
            if isinstance(obj.get(chave), str) and obj[chave].strip():
                return str(obj[chave]).strip()
    og = _og(metadados)
    for chave in ("article:published_time", "og:published_time", "video:release_date"):
        if og.get(chave, "").strip():
            return og[chave].strip()
    return ""


def alcance_de(metadados: dict[str, Any]) -> int | None:
    """Views the page declares (JSON-LD interactionStatistic WatchAction/ViewAction), None if none."""
    melhor: int | None = None
    for obj in _objetos_jsonld(metadados):
        estatisticas = obj.get("interactionStatistic", [])
        for est in estatisticas if isinstance(estatisticas, list) else [estatisticas]:
            if not isinstance(est, dict):
                continue
            tipo = est.get("interactionType")
            nome = str(tipo.get("@type", "")) if isinstance(tipo, dict) else str(tipo or "")
            if not nome.endswith(("WatchAction", "ViewAction")):
                continue
            try:
                valor = int(str(est.get("userInteractionCount", "")).replace(".", "").replace(",", ""))
            except ValueError:
                continue
            if valor >= 0:
                melhor = max(melhor or 0, valor)
    return melhor


def url_midia_de(arvore: lxml.html.HtmlElement | None, metadados: dict[str, Any], base: str) -> str:
    """The video (or audio) file the page points to, absolute; "" when there is none."""
    from urllib.parse import urljoin

    og = _og(metadados)
    for chave in ("og:video:secure_url", "og:video:url", "og:video", "og:audio:secure_url", "og:audio"):
        if og.get(chave, "").strip():
            return urljoin(base, og[chave].strip())
    for obj in _objetos_jsonld(metadados):
        if _tipo_jsonld(obj) & {"VideoObject", "AudioObject"} and isinstance(obj.get("contentUrl"), str):
            return urljoin(base, str(obj["contentUrl"]).strip())
    if arvore is not None:
        fontes = arvore.xpath("//video/@src|//video/source/@src|//audio/@src|//audio/source/@src")
        if fontes:
            return urljoin(base, str(fontes[0]).strip())
    return ""


def plataforma_de(url: str) -> str:
    """The platform of a post URL by its domain ("site" for anything else)."""
    host = (urlsplit(url).hostname or "").lower()
    for dominios, nome in PLATAFORMAS_POR_DOMINIO:
        if any(host == d or host.endswith("." + d) for d in dominios):
            return nome
    return "site"


# --- archive ----------------------------------------------------------------------------------------


def escrever_warc(caminho: Path, trocas: list[Baixado], quando: str) -> None:
    """A gzipped WARC 1.1 with a warcinfo record and a request + response pair per exchange."""
    with caminho.open("wb") as saida:
        escritor = WARCWriter(saida, gzip=True, warc_version="WARC/1.1")
        escritor.write_record(
            escritor.create_warcinfo_record(
                caminho.name, {"software": SOFTWARE, "format": "WARC File Format 1.1"}
            )
        )
        for troca in trocas:
            partes = urlsplit(troca.url)
            alvo = (partes.path or "/") + (f"?{partes.query}" if partes.query else "")
            pedido = StatusAndHeaders(f"GET {alvo} HTTP/1.1", troca.pedido, is_http_request=True)
            registro_pedido = escritor.create_warc_record(
                troca.url,
                "request",
                payload=io.BytesIO(b""),
                http_headers=pedido,
                warc_headers_dict={"WARC-Date": quando},
            )
            resposta = StatusAndHeaders(
                f"{troca.status} {troca.motivo}".strip(), troca.cabecalhos, protocol="HTTP/1.1"
            )
            registro_resposta = escritor.create_warc_record(
                troca.url,
                "response",
                payload=io.BytesIO(troca.corpo),
                http_headers=resposta,
                warc_headers_dict={"WARC-Date": quando},
            )
            escritor.write_record(registro_resposta)
            escritor.write_record(registro_pedido)


# --- transcription ----------------------------------------------------------------------------------


def transcrever_midia(caminho: Path, config: ConfigChecagens, raiz: Path) -> str:
    """Transcript of an audio/video file with the project's speech-to-text (faster-whisper).

    Uses the debate audio job's model loader when it exists (same packaged Whisper model, loaded
    once per process); raises DeskError (Portuguese) when transcription is not possible.
    """
    try:
        from jobs.debate import modelo_whisper
    except ImportError as exc:
        raise DeskError(f"transcrição indisponível: componente de fala para texto ausente ({exc})") from exc
    try:
        cache = Path(config.whisper_cache)
        modelo_nome = modelo_whisper.resolver_modelo(
            config.whisper_modelo, cache if cache.is_absolute() else raiz / cache
        )
        modelo = modelo_whisper.carregar_modelo(modelo_nome)
        segmentos, _info = modelo.transcribe(str(caminho), language="pt", vad_filter=True, beam_size=5)
        return " ".join(str(s.text).strip() for s in segmentos).strip()
    except Exception as exc:  # model loading and audio decoding raise many kinds
        raise DeskError(f"transcrição falhou: {exc}") from exc


# --- the capture --------------------------------------------------------------------------------------


def id_da_captura(url: str, quando: dt.datetime) -> str:
    """`YYYY-MM-DDTHH-MM-SSZ-<first 8 hex of sha256(url)>`: sortable by time, unique per URL."""
    carimbo = quando.astimezone(dt.UTC).strftime("%Y-%m-%dT%H-%M-%SZ")
    return f"{carimbo}-{hashlib.sha256(url.encode('utf-8')).hexdigest()[:8]}"


def _validar_candidato(raiz: Path, config: ConfigChecagens, candidato: str) -> None:
    if not candidato:
        return
    if not ID_CANDIDATO.match(candidato):
        raise DeskError(f"candidato inválido: {candidato!r} (use o id do arquivo em content/candidatos/)")
    pasta = raiz / config.candidatos_dir
    if pasta.is_dir() and not (pasta / f"{candidato}.toml").exists():
        conhecidos = sorted(p.stem for p in pasta.glob("*.toml"))
        raise DeskError(
            f"candidato {candidato!r} não existe em {config.candidatos_dir}/ (há: {', '.join(conhecidos)})"
        )


def _triagem(
    texto: str,
    transcricao: str,
    id_captura: str,
    candidato: str,
    analisador: Analisador | None,
    memoria: Memoria[ChecagemPublicada] | None,
    avisos: list[str],
) -> tuple[list[dict[str, Any]], str]:
    nome = "regras" if analisador is None or isinstance(analisador, AnalisadorRegras) else "openai"
    achadas: list[tuple[str, Afirmacao]] = []
    for origem, fonte in (("texto", texto), ("transcricao", transcricao)):
        if not fonte.strip():
            continue
        try:
            achadas.extend((origem, a) for a in extrair_afirmacoes(fonte, analisador))
        except ErroAnalise as exc:
            avisos.append(f"triagem por IA falhou ({exc}); usada a triagem por regras")
            nome = "regras"
            achadas.extend((origem, a) for a in extrair_afirmacoes(fonte, AnalisadorRegras()))
    saida = []
    consultas = 0
    if memoria is not None and sum(a.tipo == "checavel" for _o, a in achadas) > MAX_CONSULTAS_MEMORIA:
        avisos.append(
            f"texto muito longo: a memória de checagens foi consultada só para as primeiras "
            f"{MAX_CONSULTAS_MEMORIA} afirmações checáveis (todas foram guardadas; a fila consulta de novo)"
        )
    for n, (origem, a) in enumerate(achadas, start=1):
        item: dict[str, Any] = {
            "id": f"{id_captura}-a{n:02d}",
            "texto": a.texto,
            "tipo": a.tipo,
            "checabilidade": a.checabilidade,
            "dano": a.dano,
            "temas": list(a.temas),
            "inicio": a.inicio,
            "fim": a.fim,
            "origem": origem,
            "memoria": [],
        }
        if memoria is not None and a.tipo == "checavel" and consultas < MAX_CONSULTAS_MEMORIA:
            consultas += 1
            item["memoria"] = [
                {
                    "checagem": s.checagem.id,
                    "arquivo": s.checagem.arquivo.name,
                    "similaridade": s.similaridade,
                    "sugestao": s.sugestao,
                }
                for s in memoria.buscar(a.texto, candidato)
            ]
        saida.append(item)
    return saida, nome


def capturar(
    url: str,
    config: ConfigChecagens,
    raiz: Path,
    candidato: str = "",
    alcance: int | None = None,
    sessao: requests.Session | None = None,
    agora: dt.datetime | None = None,
    analisador: Analisador | None = None,
    memoria: Memoria[ChecagemPublicada] | None = None,
    origem: str = "link",
    transcrever: Callable[[Path, ConfigChecagens, Path], str] = transcrever_midia,
) -> ResultadoCaptura:
    """Fetch a post page and store its evidence, text, metadata, transcript and claims atomically.

    Raises DeskError (Portuguese) when the page cannot be fetched or is too large: then nothing
    is written. Problems after the fetch (broken encoding, bad metadata, media or transcription
    failures, AI triage errors) become warnings: the evidence is always kept.
    """
    _validar_url(url)
    _validar_candidato(raiz, config, candidato)
    if alcance is not None and alcance < 0:
        raise DeskError("o alcance não pode ser negativo")
    quando = (agora or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).replace(microsecond=0)
    id_captura = id_da_captura(url, quando)
    quando_iso = agora_iso(quando)
    sessao = sessao or requests.Session()
    pagina = baixar(url, config, sessao, int(config.tamanho_maximo_mb * 1_000_000))

    avisos: list[str] = []
    html, codificacao, avisos_cod = decodificar(
        pagina.corpo, CaseInsensitiveDict(dict(pagina.cabecalhos)).get("content-type", "")
    )
    avisos.extend(avisos_cod)
    arvore = _arvore(html)
    metadados, avisos_meta = metadados_de(arvore, pagina.url)
    avisos.extend(avisos_meta)
    titulo = titulo_de(arvore, metadados)
    publicado_em = publicado_em_de(metadados)
    midia_url = url_midia_de(arvore, metadados, pagina.url)
    alcance_pagina = alcance_de(metadados)
    texto, fonte_texto = texto_da_postagem(arvore, metadados)
    if not texto:
        avisos.append("nenhum texto encontrado na página; a página bruta e o WARC foram guardados")

    destino_pasta = raiz / config.dados_dir / (candidato or SEM_CANDIDATO)
    destino_pasta.mkdir(parents=True, exist_ok=True)
    destino = destino_pasta / id_captura
    if destino.exists():
        raise DeskError(f"a captura {id_captura} já existe; tente de novo em um segundo")
    temporaria = Path(tempfile.mkdtemp(prefix=f".{id_captura}.", dir=destino_pasta))
    try:
        (temporaria / "pagina.html").write_bytes(pagina.corpo)
        (temporaria / "texto.txt").write_bytes(texto.encode("utf-8"))
        (temporaria / "metadados.json").write_bytes(json_bytes(metadados))
        trocas = [*pagina.historico, pagina]
        transcricao = ""
        midia_nome = ""
        if midia_url and config.transcrever_videos:
            try:
                midia = baixar(midia_url, config, sessao, int(config.tamanho_maximo_midia_mb * 1_000_000))
                extensao = TIPOS_MIDIA.get(midia.tipo) or Path(urlsplit(midia.url).path).suffix.lower()
                if extensao not in TIPOS_MIDIA.values():
                    avisos.append(
                        f"mídia {midia_url} ignorada: tipo {midia.tipo or 'desconhecido'} não é áudio/vídeo"
                    )
                else:
                    midia_nome = f"midia{extensao}"
                    (temporaria / midia_nome).write_bytes(midia.corpo)
                    trocas.append(midia)
                    transcricao = transcrever(temporaria / midia_nome, config, raiz)
                    (temporaria / "transcricao.txt").write_bytes(transcricao.encode("utf-8"))
            except DeskError as exc:
                avisos.append(f"vídeo sem transcrição: {exc}")
        elif midia_url:
            avisos.append("vídeo não transcrito: transcrever_videos = false em [checagens]")
        escrever_warc(temporaria / "arquivo.warc.gz", trocas, quando_iso)
        afirmacoes, nome_analisador = _triagem(
            texto, transcricao, id_captura, candidato, analisador, memoria, avisos
        )
        cabecalho = {"captura": id_captura, "analisador": nome_analisador}
        (temporaria / AFIRMACOES).write_bytes(json_lista_bytes(cabecalho, "afirmacoes", afirmacoes))
        arquivos = {p.name: sha256(p) for p in sorted(temporaria.iterdir()) if p.name != MANIFESTO}
        manifesto = {
            "id": id_captura,
            "candidato": candidato,
            "url": url,
            "url_final": pagina.url,
            "plataforma": plataforma_de(pagina.url),
            "origem": origem,
            "capturado_em": quando_iso,
            "publicado_em": publicado_em,
            "titulo": titulo,
            "alcance": alcance if alcance is not None else alcance_pagina,
            "alcance_fonte": "editor"
            if alcance is not None
            else ("pagina" if alcance_pagina is not None else ""),
            "status_http": pagina.status,
            "tipo_conteudo": CaseInsensitiveDict(dict(pagina.cabecalhos)).get("content-type", ""),
            "codificacao": codificacao,
            "texto_fonte": fonte_texto,
            "midia_url": midia_url,
            "midia": midia_nome,
            "arquivos": arquivos,
            "avisos": avisos,
        }
        (temporaria / MANIFESTO).write_bytes(json_bytes(manifesto))
        temporaria.rename(destino)
    except BaseException:
        shutil.rmtree(temporaria, ignore_errors=True)
        raise
    log.info("captura %s gravada em %s", id_captura, destino)
    return ResultadoCaptura(ler_captura(destino), afirmacoes, avisos)


def conferir_hashes(pasta: Path) -> list[str]:
    """Files of a capture whose SHA-256 no longer matches its manifest (empty when all match)."""
    dados = json.loads((pasta / MANIFESTO).read_text(encoding="utf-8"))
    return [nome for nome, esperado in dados.get("arquivos", {}).items() if sha256(pasta / nome) != esperado]
