"""What editor-written text may hold: the rules that keep script, hidden characters and absurd
sizes out of the pages. Pure functions returning a Portuguese reason (None when the text is fine);
the content rules turn them into problems that name the file and the field or line.

Links are judged as a browser reads them: HTML character references are decoded first (`&#58;`,
`&colon;`, `&#x6A;`, references without `;`, references of references), then whitespace and
invisible characters are dropped, and only then is the scheme read. Allowed: `https:`, `http:`,
`mailto:` and addresses without a scheme (relative to the site).
"""

from __future__ import annotations

import functools
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


def linha_de(corpo: str, endereco: str) -> int:
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
    reads it (`site_builder.markdown_render.addresses`); it is not called on an oversized body
    nor on one too costly to convert (`conversao_excessiva`).
    """
    if problema := tamanho_excessivo(corpo, MAX_CORPO):
        yield 1, f"a explicação {problema}"
        return
    if excesso := conversao_excessiva(corpo):  # before `enderecos`, which converts the body
        yield excesso[0], f"a explicação: {excesso[1]}"
        return
    if problema := html_bruto(corpo):
        tag = _TAG.search(corpo)
        yield (corpo.count("\n", 0, tag.start()) + 1 if tag else 1), problema
    if _OCULTO.search(corpo) is not None:  # one search of the body, not one call per line
        for numero, linha in enumerate(corpo.split("\n"), start=1):
            if problema := caractere_oculto(linha):
                yield numero, problema
    for endereco in enderecos(corpo):
        if problema := url_proibida(endereco):
            yield linha_de(corpo, endereco), f"link '{endereco[:80]}': {problema}"


# ----------------------------------------------------------------------------- conversion cost

# Python-Markdown's link and reference patterns scan forward from every `[` for its `]`, and from
# every `](` for its `)`, to the end of the block when there is none: a body of unbalanced
# brackets costs the square of its length (8,500 `[` took 13-17 s; 30,000, minutes). The content
# rules bound that scan before any conversion: `custo_de_conversao` adds up, linearly, how many
# characters those scans can read at most, and a body over `MAX_CUSTO_CONVERSAO` is refused.
# A real check reads each link's text and address about once (its cost is under its length);
# the limit is four times the longest body allowed (the sample content costs under 200), and a
# body at the limit converts in a fifth of a second (docs/PERFORMANCE.md).
MAX_CUSTO_CONVERSAO = 4 * MAX_CORPO
_ESCAPADOS = frozenset("\\`[]()")  # what a backslash turns into plain text, among what counts here
_MARCADOR = 16  # characters of Python-Markdown's placeholder for an escape or a code span, at most
_RELEVANTES = re.compile(r"[\\\[\]()'\"`]")  # the characters `_custo_do_trecho` counts


def _custo_do_trecho(trecho: str) -> int:
    """Most characters the link scans can read in one blank-line-delimited part of a body.

    An upper bound: a block of Markdown never crosses a blank line, so a bracket left open costs
    up to the end of the part; after the first backtick a closing `]` or `)` may be inside a code
    span (which the scans do not see), so there it closes nothing; in a link address holding a
    quote the scan may run past its `)`, so that one costs up to the end too. Distances are in
    characters as the scans see them: an escape or a code span is replaced by a placeholder of up
    to `_MARCADOR` characters before they run, so each escape counts as that many, and each
    backtick as half of it.
    """
    # Only the characters of `_RELEVANTES` change anything: the scan jumps from one to the next
    # (a fifth of the time of reading every character). `extra` is how far the positions as the
    # scans see them run ahead of those in `trecho` (placeholders are longer than what they replace).
    fim = len(trecho)
    crase = trecho.find("`")
    ate_crase = fim if crase < 0 else crase
    custo = 0
    colchetes: list[int] = []  # where each open `[` is, in characters as the scans see them
    parenteses: list[tuple[int, bool, int]] = []  # (where, opened by `](`, quotes seen before it)
    ate_o_fim: list[int] = []  # links whose address holds a quote
    aspas = 0
    extra = 0
    lido = 0  # characters before this one were consumed by an escape or a `](`
    for achado in _RELEVANTES.finditer(trecho):
        i = achado.start()
        if i < lido:
            continue
        c = trecho[i]
        p = i + extra
        if c == "\\":
            if i + 1 < fim and trecho[i + 1] in _ESCAPADOS:
                extra += _MARCADOR - 2
                lido = i + 2
        elif c == "[":
            colchetes.append(p)
        elif c == "]":
            if colchetes and i < ate_crase:
                custo += p - colchetes.pop()
            if i + 1 < fim and trecho[i + 1] == "(":
                parenteses.append((p + 1, True, aspas))
                lido = i + 2
        elif c == "(":
            parenteses.append((p, False, aspas))
        elif c == ")":
            if parenteses and i < ate_crase:
                inicio, de_link, antes = parenteses.pop()
                if de_link and aspas == antes:
                    custo += p - inicio
                elif de_link:
                    ate_o_fim.append(inicio)
        elif c == "`":
            extra += _MARCADOR // 2 - 1
        else:  # a quote
            aspas += 1
    p = fim + extra
    custo += sum(p - inicio for inicio in colchetes)
    custo += sum(p - inicio for inicio, de_link, _antes in parenteses if de_link)
    custo += sum(p - inicio for inicio in ate_o_fim)
    return custo


# Its block parser is quadratic too, in lines that split a block without a blank line between
# them (headings, rules, setext underlines, list items, quotes: 15,000 `# a` lines took 34 s,
# `a` / `=` pairs two minutes): each split searches the rest of the block again. Such a line
# costs the characters after it in its block, and a body's total is bounded by this one limit
# (those searches are regular expressions, ten times cheaper a character than the link scans).
MAX_CUSTO_BLOCOS = 40 * MAX_CORPO
_DIVIDE_BLOCO = frozenset("#=-*_+>0123456789")  # first characters of a line that may split a block


def _custo_dos_blocos(linhas: list[str]) -> int:
    """Most characters the block parser searches again in one blank-line-delimited part."""
    restante = sum(len(linha) + 1 for linha in linhas)
    custo = 0
    for linha in linhas:
        restante -= len(linha) + 1
        if linha.lstrip()[:1] in _DIVIDE_BLOCO:
            custo += restante
    return custo


def custo_de_conversao(corpo: str) -> tuple[int, int, int]:
    """(an upper bound, in characters read, of the link scans of converting `corpo`; of the block
    parser's searches; the line, from 1, where the costliest part starts), in linear time."""
    links, blocos, pior, linha_do_pior = 0, 0, -1.0, 1
    trecho: list[str] = []
    for numero, linha in enumerate([*corpo.split("\n"), ""], start=1):
        if linha.strip():
            trecho.append(linha)
        elif trecho:
            parte_links, parte_blocos = _custo_do_trecho("\n".join(trecho)), _custo_dos_blocos(trecho)
            parte = max(parte_links / MAX_CUSTO_CONVERSAO, parte_blocos / MAX_CUSTO_BLOCOS)
            if parte > pior:
                pior, linha_do_pior = parte, numero - len(trecho)
            links, blocos = links + parte_links, blocos + parte_blocos
            trecho = []
    return links, blocos, linha_do_pior


def limites_do_custo(corpo: str) -> tuple[int, int]:
    """Upper bounds of the two costs of `custo_de_conversao`, far cheaper to compute: a body under
    both limits with them needs no full scan.

    Parts split at empty lines only (a blank line holding spaces splits nothing here) each hold
    whole parts of `custo_de_conversao`, and a bound of a part adds up to at least the bounds of
    the parts inside it. In one part, each cost of `_custo_do_trecho` is that of one relevant
    character and reads at most the whole part as the scans see it (its characters plus
    `_MARCADOR` per relevant character), and each line of `_custo_dos_blocos` costs at most the
    part's length."""
    links = blocos = 0
    for parte in corpo.split("\n\n"):
        relevantes = sum(map(parte.count, "\\[]()'\"`"))
        links += relevantes * (len(parte) + _MARCADOR * relevantes)
        blocos += (parte.count("\n") + 1) * (len(parte) + 1)
    return links, blocos


# Kept for the last few bodies: the content rules judge a body (`problemas_do_corpo`) right
# before the converter guards the same text again (`markdown_render`), a second full scan.
@functools.lru_cache(maxsize=8)
def conversao_excessiva(corpo: str) -> tuple[int, str] | None:
    """(line, from 1, and why) converting `corpo` to HTML would take too long, or None: over
    `MAX_CORPO` characters, or over `MAX_CUSTO_CONVERSAO` (see `custo_de_conversao`)."""
    if problema := tamanho_excessivo(corpo, MAX_CORPO):
        return 1, f"o texto {problema}"
    limite_links, limite_blocos = limites_do_custo(corpo)
    if limite_links <= MAX_CUSTO_CONVERSAO and limite_blocos <= MAX_CUSTO_BLOCOS:
        return None  # what almost every real body gives, without the full scan
    custo, blocos, linha = custo_de_conversao(corpo)
    if blocos > MAX_CUSTO_BLOCOS:
        return linha, (
            "o texto tem linhas de título, separador, lista ou citação demais sem uma linha em branco "
            f"entre elas: convertê-lo leria {blocos} caracteres, acima do limite de {MAX_CUSTO_BLOCOS}; "
            "separe os parágrafos com linhas em branco"
        )
    if custo <= MAX_CUSTO_CONVERSAO:
        return None
    return linha, (
        "o texto tem colchetes '[' ou parênteses de link '](' sem fechamento (ou aninhados) demais: "
        f"convertê-lo leria {custo} caracteres, acima do limite de {MAX_CUSTO_CONVERSAO}; "
        "feche cada '[' com ']' e cada '](' com ')', escreva \\[ para um colchete sem link, "
        "ou separe o texto em parágrafos (com uma linha em branco)"
    )
