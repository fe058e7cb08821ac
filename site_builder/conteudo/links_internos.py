"""Internal links written in a content file's Markdown body, located by the file's line (issue
23, item 12): `validar` and the build name the `.md` file and line of a broken link, not only the
page it ends up in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

from site_builder.conteudo import texto_seguro
from site_builder.conteudo.frontmatter import normalizar_linhas, split_body
from site_builder.errors import ContentError

QUEBRADO = "link interno quebrado"


def internos(enderecos: Iterable[str]) -> list[str]:
    """The root-relative addresses among `enderecos` (`/checagens/x/`; not `//host/`), query and
    fragment dropped, as the build's link check reads them from the page."""
    saida = []
    for endereco in enderecos:
        if endereco.startswith("/") and not endereco.startswith("//"):
            caminho = unquote(urlsplit(endereco).path)
            if caminho not in saida:
                saida.append(caminho)
    return saida


def linha_no_arquivo(texto: str, link: str) -> int:
    """The line (from 1, the opening `+++` being line 1) of the content file `texto` whose body
    writes `link`; 0 when the body does not (the link came from the page's template)."""
    texto = normalizar_linhas(texto.removeprefix("\ufeff"))
    try:
        corpo = split_body(texto, "")
    except ContentError:
        return 0
    antes = texto[: len(texto) - len(corpo)].count("\n")
    for candidato in dict.fromkeys((link, link.rstrip("/"))):
        if candidato and any(candidato in linha for linha in corpo.split("\n")):
            return antes + texto_seguro.linha_de(corpo, candidato)
    return 0


def mensagem(link: str, pagina: str = "") -> str:
    """The problem of a broken internal link, in Portuguese (`pagina`: where the build found it)."""
    onde = f" (na página {pagina})" if pagina else ""
    return f"{QUEBRADO}: {link}{onde}: o endereço não existe no site; confira o link"


def no_conteudo(raiz: Path, fontes: Mapping[str, str], pagina: str, link: str) -> str | None:
    """The build's warning for a broken `link` of output `pagina` located in the content file it
    was rendered from (`fontes`: output path -> file relative to `raiz`), or None when the link
    is not in that file's body."""
    arquivo = fontes.get(pagina)
    if arquivo is None:
        return None
    try:
        texto = (raiz / arquivo).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    linha = linha_no_arquivo(texto, link)
    return f"{arquivo}:{linha}: {mensagem(link, pagina)}" if linha else None
