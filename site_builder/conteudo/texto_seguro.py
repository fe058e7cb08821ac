"""What editor-written text may hold: the rules that keep script, hidden characters and absurd
sizes out of the pages. Pure functions returning a Portuguese reason (None when the text is fine);
the content rules turn them into problems that name the file and the field or line.

Links are judged as a browser reads them: HTML character references are decoded first (`&#58;`,
`&colon;`, `&#x6A;`, references without `;`, references of references), then whitespace and
invisible characters are dropped, and only then is the scheme read. Allowed: `https:`, `http:`,
`mailto:` and addresses without a scheme (relative to the site).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable, Iterator

ESQUEMAS_PERMITIDOS = ("https", "http", "mailto")
MAX_URL = 2_000  # characters of one address
MAX_CAMPO = 2_000  # characters of one text field of the front matter (the claim has its own limit)
MAX_CORPO = 60_000  # characters of the explanation (the longest sample check has under 2,000)
MAX_ARQUIVO = 512 * 1024  # bytes of one content file, checked before it is parsed

_ESQUEMA = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
# A tag as browsers start one: '<', optional '/', a letter (an autolink `<https://...>` has a ':'
# right after its letters, so it is not one), plus comments, CDATA and processing instructions.
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9\-]*(?=[\s/>])|<!--|<!\[CDATA\[|<\?[A-Za-z]")
# Bidirectional controls (they reorder what the reader sees: "Trojan Source") and invisible
# characters that make two texts look alike.
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
INVISIVEIS = frozenset("\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b\u2060\u2061\u2062\u2063\u2064\ufeff")
ZWJ = "\u200d"  # allowed between two symbols: emoji sequences (👩‍💻) are built with it
ZWNJ = "\u200c"
# Any of the above: most texts have none, and one search finds that faster than a loop.
_OCULTO = re.compile("[" + re.escape("".join(sorted(BIDI | INVISIVEIS | {ZWJ, ZWNJ}))) + "]")


def decodificar_referencias(texto: str) -> str:
    """`texto` with HTML character references decoded until none is left (`&amp;#58;` -> `:`)."""
    for _ in range(8):  # each round removes one level of `&amp;`; eight is more than any editor
        decodificado = html.unescape(texto)
        if decodificado == texto:
            break
        texto = decodificado
    return texto


def _compacto(url: str) -> str:
    # Browsers drop tabs and line breaks anywhere in a URL and spaces/controls around it; the
    # other invisible characters go too, so that nothing can hide a scheme.
    return "".join(
        ch for ch in url if ch > " " and ch != "\x7f" and unicodedata.category(ch) not in ("Cf", "Cc", "Zs")
    )


def esquema(url: str) -> str:
    """The scheme a browser would read in `url` (lower case), "" for a relative address."""
    found = _ESQUEMA.match(_compacto(decodificar_referencias(url)))
    return found.group(1).lower() if found else ""


def url_proibida(url: str) -> str | None:
    """Why a link or image address cannot be published, or None."""
    nome = esquema(url)
    if nome and nome not in ESQUEMAS_PERMITIDOS:
        return (
            f"endereço com o esquema '{nome}:', que não é permitido "
            "(use https://, http://, mailto: ou um caminho do próprio site)"
        )
    if len(url) > MAX_URL:
        return f"endereço com {len(url)} caracteres; o limite é {MAX_URL}"
    return None


def html_bruto(texto: str) -> str | None:
    """Why `texto` holds raw HTML (a tag, a comment), or None."""
    found = _TAG.search(texto)
    if found is None:
        return None
    return (
        f"contém HTML ('{found.group(0)}'); o site não publica HTML escrito à mão: "
        "escreva só o texto (em Markdown, na explicação)"
    )


def caractere_oculto(texto: str) -> str | None:
    """Why `texto` holds a bidirectional control or an invisible character, or None."""
    if _OCULTO.search(texto) is None:
        return None
    for i, ch in enumerate(texto):
        if ch in BIDI:
            return (
                f"contém um caractere invisível que inverte a direção do texto "
                f"(U+{ord(ch):04X}, {unicodedata.name(ch, '?')}) na posição {i + 1}; apague-o"
            )
        if ch in INVISIVEIS or (ch in (ZWJ, ZWNJ) and not _entre_simbolos(texto, i)):
            return (
                f"contém um caractere invisível (U+{ord(ch):04X}, {unicodedata.name(ch, '?')}) "
                f"na posição {i + 1}; apague-o"
            )
    return None


def _entre_simbolos(texto: str, i: int) -> bool:
    antes = texto[i - 1] if i > 0 else ""
    depois = texto[i + 1] if i + 1 < len(texto) else ""
    # U+FE0F (emoji presentation) is a mark: what counts is that neither side is a letter or digit.
    return bool(antes and depois) and not (antes.isalnum() or depois.isalnum())


def tamanho_excessivo(texto: str, limite: int) -> str | None:
    """Why `texto` is too long to be a real field, or None."""
    if len(texto) > limite:
        return f"tem {len(texto)} caracteres; o limite é {limite}"
    return None


def problema_de_texto(texto: str, limite: int = MAX_CAMPO) -> str | None:
    """The first reason a front-matter text cannot be published: raw HTML, hidden characters, size."""
    return html_bruto(texto) or caractere_oculto(texto) or tamanho_excessivo(texto, limite)


def _linha_de(corpo: str, endereco: str) -> int:
    """Line (from 1) of the body where `endereco` is written; 1 when it cannot be found."""
    linhas = corpo.split("\n")
    for numero, linha in enumerate(linhas, start=1):
        if endereco in linha:
            return numero
    alvo = esquema(endereco)
    for numero, linha in enumerate(linhas, start=1):
        if alvo and alvo in _compacto(decodificar_referencias(linha)).lower():
            return numero
    return 1


def problemas_do_corpo(corpo: str, enderecos: Callable[[str], list[str]]) -> Iterator[tuple[int, str]]:
    """(line in the body, reason) for each thing of a Markdown body that cannot be published.

    `enderecos` gives every link and image address of a Markdown text as the pages' renderer
    reads it (`site_builder.markdown_render.addresses`); it is not called on an oversized body.
    """
    if problema := tamanho_excessivo(corpo, MAX_CORPO):
        yield 1, f"a explicação {problema}"
        return
    if problema := html_bruto(corpo):
        tag = _TAG.search(corpo)
        yield (corpo.count("\n", 0, tag.start()) + 1 if tag else 1), problema
    for numero, linha in enumerate(corpo.split("\n"), start=1):
        if problema := caractere_oculto(linha):
            yield numero, problema
    for endereco in enderecos(corpo):
        if problema := url_proibida(endereco):
            yield _linha_de(corpo, endereco), f"link '{endereco[:80]}': {problema}"
