"""A readable page for each archived copy (issue 23, item 12): the `.warc.gz` that
`eleicoes redes capturar` keeps is evidence for experts, and a reader's browser cannot open it.

The page shows what the copy holds as plain text: the captured page's text, with scripts, styles
and every tag dropped (the captured markup is never executed nor inserted as HTML; the template
escapes the text), the capture's date and address, the file's SHA-256 and a link to the WARC.
Read at build time, only when the copy's checksum changed (the page's fingerprint).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any, BinaryIO

from site_builder import jsonld
from site_builder.artifact import Artifact
from site_builder.config import SiteConfig
from site_builder.reader import fingerprint
from site_builder.records import CopiaArquivada

MAX_TEXTO = 50_000  # characters of captured text shown; a post is a few hundred
MAX_LEITURA = 8 * 1024 * 1024  # bytes of one response's body read, at most
# Elements whose content is never text a reader saw: code, styles, embedded documents, metadata.
_OCULTOS = frozenset({"script", "style", "noscript", "template", "svg", "math", "iframe", "object", "head"})
_BLOCOS = frozenset(
    {"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "article", "section",
     "header", "footer", "blockquote", "pre", "tr", "table", "figure", "figcaption", "main", "aside",
     "nav", "hr", "dd", "dt", "dl"}
)  # fmt: skip
_VAZIOS = frozenset(
    {"br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed", "source", "wbr"}
)
_ESPACOS = re.compile(r"[ \t\r\f\v\u00a0]+")
_CHARSET = re.compile(r"charset=[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)


class _Texto(HTMLParser):
    """The text of an HTML document as a reader sees it, one paragraph per block element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.partes: list[str] = []
        self.oculto = 0
        self.titulo: list[str] = []
        self.no_titulo = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self.no_titulo = True
        if tag in _OCULTOS and tag not in _VAZIOS:
            self.oculto += 1
        if tag in _BLOCOS:
            self.partes.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.no_titulo = False
        if tag in _OCULTOS and self.oculto:
            self.oculto -= 1
        if tag in _BLOCOS:
            self.partes.append("\n")

    def handle_data(self, data: str) -> None:
        if self.no_titulo:
            self.titulo.append(data)
        elif not self.oculto:
            self.partes.append(data)


def texto_de_html(html: str) -> tuple[str, list[str]]:
    """(title, paragraphs) of an HTML document, as plain text (never markup)."""
    parser = _Texto()
    parser.feed(html)
    parser.close()
    linhas = (_ESPACOS.sub(" ", linha).strip() for linha in "".join(parser.partes).split("\n"))
    return _ESPACOS.sub(" ", "".join(parser.titulo)).strip(), [linha for linha in linhas if linha]


@dataclass(frozen=True)
class Captura:
    """What an archived copy shows a reader."""

    endereco: str  # the captured address
    data: dt.datetime | None  # when it was captured (WARC-Date)
    tipo: str  # the response's Content-Type
    titulo: str
    paragrafos: tuple[str, ...]
    cortado: bool  # the text was longer than MAX_TEXTO
    problema: str = ""  # why the copy could not be read, in Portuguese ("" when it was)


def _respostas(handle: BinaryIO) -> Iterator[Any]:
    # Imported here: only a build with archived copies reads WARCs (`eleicoes build --help` and
    # `validar` stay free of it, tests/test_cli.py).
    from warcio.archiveiterator import ArchiveIterator

    for record in ArchiveIterator(handle):
        if record.rec_type == "response":
            yield record


def _data(valor: str | None) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(valor.replace("Z", "+00:00")) if valor else None
    except ValueError:
        return None


def _ilegivel(motivo: str) -> Captura:
    return Captura("", None, "", "", (), False, motivo)


def ler_captura(caminho: str) -> Captura:
    """The first HTTP response of the WARC at `caminho` as text; a Captura naming the problem
    (never an exception) when the file cannot be read."""
    try:
        with open(caminho, "rb") as handle:  # noqa: PTH123 - a plain path string
            for record in _respostas(handle):
                if record.http_headers is None:  # warcio reads garbage as a record without headers
                    return _ilegivel("o arquivo WARC não pôde ser lido")
                tipo = record.http_headers.get_header("Content-Type", "")
                corpo = record.content_stream().read(MAX_LEITURA)
                endereco = record.rec_headers.get_header("WARC-Target-URI", "")
                data = _data(record.rec_headers.get_header("WARC-Date"))
                return _captura(endereco, data, tipo, corpo)
    except Exception as exc:  # a malformed file gives the page its message, never a crash
        return _ilegivel(f"o arquivo WARC não pôde ser lido ({type(exc).__name__})")
    return _ilegivel("o arquivo WARC não tem nenhuma resposta gravada")


def _captura(endereco: str, data: dt.datetime | None, tipo: str, corpo: bytes) -> Captura:
    if tipo and not tipo.lower().startswith(("text/", "application/xhtml")):
        problema = f"a cópia é um arquivo {tipo.split(';')[0]}, não um texto; baixe o WARC para vê-la"
        return Captura(endereco, data, tipo, "", (), False, problema)
    charset = found.group(1) if (found := _CHARSET.search(tipo)) else "utf-8"
    try:
        texto = corpo.decode(charset, "replace")
    except LookupError:
        texto = corpo.decode("utf-8", "replace")
    if tipo.lower().startswith("text/plain"):
        titulo, paragrafos = "", [p.strip() for p in texto.split("\n") if p.strip()]
    else:
        titulo, paragrafos = texto_de_html(texto)
    mostrados, total, cortado = [], 0, False
    for paragrafo in paragrafos:
        if total + len(paragrafo) > MAX_TEXTO:
            cortado = True
            break
        mostrados.append(paragrafo)
        total += len(paragrafo)
    return Captura(endereco, data, tipo, titulo, tuple(mostrados), cortado)


def url_da_pagina(saida: str) -> str:
    """The readable page's URL of the copy published at `saida` (`arquivo/x/post-1.warc.gz` ->
    `/arquivo/x/post-1/`)."""
    nome = saida.removesuffix(".gz").removesuffix(".warc")
    return f"/{nome}/"


def artefato(config: SiteConfig, copia: CopiaArquivada, demonstracao: bool) -> Artifact:
    """The readable page of one archived copy, rendered again only when the copy changes."""
    url = url_da_pagina(copia.saida)

    def contexto() -> dict[str, Any]:
        captura = ler_captura(copia.local)
        titulo = "Cópia arquivada"
        descricao = (
            "A publicação como estava quando foi arquivada: texto, data da captura e prova de integridade."
        )
        trilha = [("Início", "/"), ("Checagens", "/checagens/"), (titulo, url)]
        return {
            "titulo": titulo,
            "descricao": descricao,
            "captura": captura,
            "sha256": copia.sha256,
            "warc": "/" + copia.saida,
            "demonstracao": demonstracao,
            "trilha": trilha,
            "jsonld": jsonld.webpage(config, url, titulo, descricao, trilha),
        }

    return Artifact(
        url.lstrip("/") + "index.html",
        "copia_arquivada.html",
        fingerprint(copia.sha256, copia.saida, str(demonstracao)),
        contexto,
        sitemap=False,
    )
