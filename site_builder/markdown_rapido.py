"""A fast converter for the Markdown that fact-check bodies use, byte for byte Python-Markdown's.

Python-Markdown builds an element tree, runs a dozen inline patterns over every text and
serializes the tree: most of a cold build's CPU. Real bodies use little of it (paragraphs,
`#` headings, `*`/`**` emphasis, `[text](address)` links, flat lists, `>` quotes, pipe tables),
so this module writes the HTML of that subset directly, exactly as `markdown_render` makes it
(same escaping, same newlines, same table box, same unsafe-address replacement), and reads
the link addresses the content rules judge in the same pass.

Correctness first: `convert` returns None for anything it does not fully handle (raw HTML,
entities, escapes, code, images, reference links, `_` emphasis, nested or loose lists, unusual
spacing, and any shape whose reading by Python-Markdown depends on more than this module
models), and the caller then converts with Python-Markdown. `tests/site_builder/
test_markdown_rapido.py` compares both on every body of the repository and on generated ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown import serializers
from markdown.blockprocessors import HRProcessor

from site_builder.conteudo.texto_seguro import url_proibida

# Python-Markdown's own escaping of text and attribute values (private, absent from its type
# stubs): the same functions give the same bytes, and its version is in the cache key.
_escape_cdata: Callable[[str], str] = serializers._escape_cdata  # type: ignore[attr-defined]
_escape_attrib_html: Callable[[str], str] = serializers._escape_attrib_html  # type: ignore[attr-defined]

UNSAFE_ADDRESS = "#"  # what a link or image address that cannot be published becomes


def published_address(address: str) -> str:
    """`address` as it goes into the page: UNSAFE_ADDRESS for one `url_proibida` refuses."""
    return UNSAFE_ADDRESS if url_proibida(address) is not None else address


def table_box(number: int, columns: str) -> dict[str, str]:
    """Attributes of the keyboard-reachable scroll box around the page's table `number` (from 1)
    whose header cells read `columns` (see `markdown_render._ScrollableTables`)."""
    return {
        "class": "rolagem",
        "tabindex": "0",
        "role": "region",
        "aria-label": f"Tabela {number}: {columns}" if columns else f"Tabela {number}",
    }


class _Unsupported(Exception):  # noqa: N818 - a signal, caught in `convert`, never an error
    """The body holds something this converter does not model: Python-Markdown converts it."""


# Anywhere in a body: code, escapes, tags and autolinks, control characters and whitespace other
# than space and newline (every other character `str.isspace` accepts: `\s` of the patterns
# Python-Markdown matches with; a test checks the list against every code point). Then, by
# `_outside_anywhere`: images, fences, spaces at the start or end of a line (indented blocks,
# hard line breaks).
_OUT_ANYWHERE = re.compile(
    r"[`\\<\x00-\x09\x0b-\x1f\x7f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)
# In text outside link addresses: `_` emphasis, brackets that are not a simple inline link
# (references, nested brackets), character references (the entity pattern and the serializer
# treat them apart).
_OUT_OF_TEXT = ("_", "[", "]")
_REFERENCE = re.compile(r"&[#A-Za-z0-9]")
_LINK = re.compile(r"\[([^\[\]]*)\]\(([^\s()<>\"'\\\[\]`]+)\)")
_STARS = re.compile(r"\*+")
_HEADING = re.compile(r"(#{1,6}) +(.*[^#])")  # `#` inside its text stays, at its end it would go
_OLIST = re.compile(r"(\d+)\.[ ]+(.*)")  # `SaneOListProcessor.CHILD_RE`, less the indentation
_ULIST = re.compile(r"[*+-][ ]+(.*)")  # `SaneUListProcessor.CHILD_RE`, likewise
_ORDERED_START = re.compile(r"\d+\.")
_SETEXT_LINE = re.compile(r"(?:=+|-+)[ ]*$")
_RULE = re.compile(HRProcessor.RE)  # one line (`HRProcessor.SEARCH_RE` searches a block's lines)
_SEPARATOR_CELL = re.compile(r"(:?)-+(:?)")
_PLAIN_START_NOT = frozenset("#>|=-_+ ")  # first characters of a line that may start a block
_LINK_MARK = "\x02"  # a link inside a text while its emphasis is read (the body has none)
_ALIGN = {(True, True): "center", (True, False): "left", (False, True): "right"}


def convert(text: str) -> tuple[str, list[str]] | None:
    """(HTML, every link address before unsafe ones are replaced) of one Markdown body, exactly
    as `markdown_render.MarkdownRenderer.convert_with_addresses` gives them; None when the body
    is outside the subset this converter handles."""
    if not text.strip() or _outside_anywhere(text):
        return None
    converter = _Converter()
    try:
        blocks = converter.chunk(text + "\n\n")
    except _Unsupported:
        return None
    if not blocks:
        return None
    return "\n".join(html for _tag, html in blocks), converter.addresses


def _outside_anywhere(text: str) -> bool:
    """Whether `text` holds, anywhere, something the fast path never handles."""
    return (
        _OUT_ANYWHERE.search(text) is not None
        or "![" in text
        or "~~~" in text
        or " \n" in text
        or "\n " in text
        or text[0] == " "
        or text[-1] == " "
    )


def _outside_text(text: str) -> bool:
    """Whether a text outside link addresses holds what the fast path does not handle."""
    return any(mark in text for mark in _OUT_OF_TEXT) or ("&" in text and _REFERENCE.search(text) is not None)


def _plain(line: str) -> bool:
    """Whether `line` can only be paragraph text: no block of Python-Markdown starts with it."""
    first = line[:1]
    if not first or first in _PLAIN_START_NOT:
        return False
    if first == "*":  # emphasis, not a list item nor a rule
        rest = line.lstrip("*")
        return bool(rest) and rest[0] != " "
    return _ORDERED_START.match(line) is None


class _Converter:
    """One body's conversion: the addresses found so far and the tables numbered so far."""

    def __init__(self) -> None:
        self.addresses: list[str] = []
        self.tables = 0

    # ---------------------------------------------------------------------------- blocks

    def chunk(self, text: str) -> list[tuple[str, str]]:
        """(tag, HTML) of each block element of `text`, as `BlockParser.parseChunk` cuts it."""
        out: list[tuple[str, str]] = []
        self.run(text.split("\n\n"), out)
        return out

    def run(self, blocks: list[str], out: list[tuple[str, str]]) -> None:
        """Convert `blocks` in order into `out` (`BlockParser.parseBlocks`)."""
        while blocks:
            self.block(blocks.pop(0), blocks, out)

    def block(self, block: str, blocks: list[str], out: list[tuple[str, str]]) -> None:
        """One block, tried in the order of Python-Markdown's block processors."""
        if not block:
            return
        if block[0] == "\n":  # `EmptyBlockProcessor`: one blank line less, no element
            if len(block) > 1:
                blocks.insert(0, block[1:])
            return
        lines = block.split("\n")
        if "" in lines:  # a quote's last line `>`: Python-Markdown keeps its newline in the text
            raise _Unsupported
        if lines[0][0] == "|":
            out.append(("table", self.table(lines)))
            return
        if "|" in block:  # a table's test reads pipes in a block's first two lines
            raise _Unsupported
        heads = [line[0] for line in lines]
        if "#" in heads:  # `HashHeaderProcessor` cuts the block at its first heading
            self.heading(lines, heads.index("#"), blocks, out)
            return
        if len(lines) > 1 and _SETEXT_LINE.match(lines[1]):
            raise _Unsupported
        if any(head in "-*_" and _RULE.match(line) for head, line in zip(heads, lines, strict=True)):
            raise _Unsupported
        if _OLIST.match(lines[0]):
            self.listing("ol", _OLIST, lines, out)
        elif _ULIST.match(lines[0]):
            self.listing("ul", _ULIST, lines, out)
        elif any(line[0] == ">" for line in lines):
            self.quote(lines, out)
        elif all(_plain(line) for line in lines):
            out.append(("p", f"<p>{self.inline(block)[0]}</p>"))
        else:
            raise _Unsupported

    def heading(self, lines: list[str], index: int, blocks: list[str], out: list[tuple[str, str]]) -> None:
        """The lines before the heading (a block of their own), the heading; the lines after it
        go back to the front of `blocks`."""
        found = _HEADING.fullmatch(lines[index])
        if found is None:
            raise _Unsupported
        if index:
            self.run(["\n".join(lines[:index])], out)
        level = len(found.group(1))
        out.append((f"h{level}", f"<h{level}>{self.inline(found.group(2))[0]}</h{level}>"))
        if index + 1 < len(lines):
            blocks.insert(0, "\n".join(lines[index + 1 :]))

    def listing(self, tag: str, item: re.Pattern[str], lines: list[str], out: list[tuple[str, str]]) -> None:
        """A tight list, each item one paragraph of text (lines that are not items continue it)."""
        if out and out[-1][0] == tag:  # it would continue the list above as a loose one
            raise _Unsupported
        items: list[str] = []
        start = "1"
        for line in lines:
            found = item.match(line)
            if found is not None:
                if not items and tag == "ol":
                    start = found.group(1)
                items.append(found.groups()[-1])
            elif items and _plain(line):
                items[-1] += "\n" + line
            else:
                raise _Unsupported
        parts = [f"<{tag}>\n" if start == "1" else f'<{tag} start="{_escape_attrib_html(start)}">\n']
        for text in items:
            if not all(_plain(line) for line in text.split("\n")):
                raise _Unsupported
            parts.append(f"<li>{self.inline(text)[0]}</li>\n")
        parts.append(f"</{tag}>")
        out.append((tag, "".join(parts)))

    def quote(self, lines: list[str], out: list[tuple[str, str]]) -> None:
        """A block quote every line of which starts with `>`, its content converted as a body."""
        if (out and out[-1][0] == "blockquote") or not all(line[0] == ">" for line in lines):
            raise _Unsupported
        inner = "\n".join(line[2:] if line[1:2] == " " else line[1:] for line in lines)
        children = self.chunk(inner)
        if not children:
            raise _Unsupported
        out.append(
            ("blockquote", "<blockquote>\n" + "".join(h + "\n" for _t, h in children) + "</blockquote>")
        )

    def table(self, lines: list[str]) -> str:
        """A pipe table with a border on both sides, in its scroll box (`_ScrollableTables`)."""
        if len(lines) < 3 or not all(len(line) > 1 and line[0] == line[-1] == "|" for line in lines):
            raise _Unsupported
        header = lines[0][1:-1].split("|")
        separator = lines[1][1:-1].split("|")
        if len(header) < 2 or len(separator) != len(header):
            raise _Unsupported
        styles: list[str] = []
        for cell in separator:
            found = _SEPARATOR_CELL.fullmatch(cell.strip(" "))
            if found is None:
                raise _Unsupported
            align = _ALIGN.get((bool(found.group(1)), bool(found.group(2))))
            styles.append(f' style="text-align: {align};"' if align else "")
        columns: list[str] = []
        rows = ["<thead>\n<tr>\n"]
        for style, cell in zip(styles, header, strict=True):
            html, plain = self.inline(cell.strip(" "))
            columns.append(" ".join(plain.split()))
            rows.append(f"<th{style}>{html}</th>\n")
        rows.append("</tr>\n</thead>\n<tbody>\n")
        for line in lines[2:]:
            cells = line[1:-1].split("|")
            rows.append("<tr>\n")
            for i, style in enumerate(styles):
                html = self.inline(cells[i].strip(" "))[0] if i < len(cells) else ""
                rows.append(f"<td{style}>{html}</td>\n")
            rows.append("</tr>\n")
        rows.append("</tbody>\n")
        self.tables += 1
        box = table_box(self.tables, ", ".join(columns))
        attributes = "".join(f' {k}="{_escape_attrib_html(v)}"' for k, v in sorted(box.items()))
        return f"<div{attributes}><table>\n{''.join(rows)}</table></div>"

    # ---------------------------------------------------------------------------- inline

    def inline(self, text: str) -> tuple[str, str]:
        """(HTML, text content) of an element's text: links, then `*`/`**` emphasis over what
        is left, as Python-Markdown's inline patterns apply them in priority order."""
        links: list[tuple[str, str]] = []  # (HTML, text content) of each link, in order
        pieces: list[str] = []
        last = 0
        for found in _LINK.finditer(text):
            pieces.append(text[last : found.start()])
            address = found.group(2)
            self.addresses.append(address)
            inner, plain = self.inline_text(found.group(1))
            links.append((f'<a href="{_escape_attrib_html(published_address(address))}">{inner}</a>', plain))
            last = found.end()
        pieces.append(text[last:])
        data = _LINK_MARK.join(pieces)
        if _outside_text(data):
            raise _Unsupported
        return _emphasis(data, links)

    def inline_text(self, text: str) -> tuple[str, str]:
        """(HTML, text content) of a link's text: emphasis only."""
        if _outside_text(text):
            raise _Unsupported
        return _emphasis(text, [])


def _emphasis(data: str, links: list[tuple[str, str]]) -> tuple[str, str]:
    """HTML and text content of `data` (links marked by `_LINK_MARK`) with its `*` runs paired in
    order, each opening one followed by and each closing one preceded by a non-space, of equal
    length (1: `em`, 2: `strong`): what `DelimiterProcessor` makes of them. Any other run of
    `*` (odd, nested, unequal, three or more) is left to Python-Markdown."""
    runs = [(m.start(), m.end()) for m in _STARS.finditer(data)] if "*" in data else []
    if len(runs) % 2:
        raise _Unsupported
    next_link = iter(links)
    html: list[str] = []
    plain: list[str] = []

    def text(part: str) -> None:
        # Each text node is escaped on its own, as the serializer does (`&` before a tag).
        for number, piece in enumerate(part.split(_LINK_MARK)):
            if number:
                link_html, link_plain = next(next_link)
                html.append(link_html)
                plain.append(link_plain)
            if piece:
                html.append(_escape_cdata(piece))
                plain.append(piece)

    done = 0
    for k in range(0, len(runs), 2):
        (a, b), (c, d) = runs[k], runs[k + 1]
        if b - a != d - c or b - a > 2 or data[b].isspace() or data[c - 1].isspace():
            raise _Unsupported
        tag = "strong" if b - a == 2 else "em"
        text(data[done:a])
        html.append(f"<{tag}>")
        text(data[b:c])
        html.append(f"</{tag}>")
        done = d
    text(data[done:])
    return "".join(html), "".join(plain)
