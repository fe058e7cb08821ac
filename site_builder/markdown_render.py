"""Markdown to HTML for editor-written content, with raw HTML escaped and unsafe links removed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Literal

import markdown
from markdown.treeprocessors import Treeprocessor

from site_builder import markdown_rapido
from site_builder.conteudo.texto_seguro import conversao_excessiva

EXTENSIONS = ("tables", "fenced_code", "sane_lists")
OUTPUT_FORMAT: Literal["html"] = "html"


class ConversionRefusedError(ValueError):
    """A document whose conversion would not end in bounded time (`conversao_excessiva`): its
    line and the Portuguese reason, for the caller to name the file."""

    def __init__(self, linha: int, motivo: str) -> None:
        super().__init__(motivo)
        self.linha = linha
        self.motivo = motivo


def _guard(text: str) -> None:
    if excesso := conversao_excessiva(text):
        raise ConversionRefusedError(*excesso)


class _UnsafeUrlRemover(Treeprocessor):
    """Drops `javascript:`, `data:` and other non-web schemes from links and images, however they
    are encoded. `validar` refuses such a check; this is the last line for any other page."""

    def run(self, root: ET.Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is not None:
                    element.set(attribute, markdown_rapido.published_address(value))


class _ScrollableTables(Treeprocessor):
    """Wraps each table in a keyboard-reachable scroll box: on a phone a wide table scrolls inside
    it, never the page, and a box that scrolls must take the focus and have a name (WCAG 2.1.1;
    axe `scrollable-region-focusable`). The name, unique on the page, lists the table's columns."""

    def run(self, root: ET.Element) -> None:
        parents = {child: parent for parent in root.iter() for child in parent}
        for number, table in enumerate([e for e in root.iter("table")], start=1):
            parent = parents.get(table)
            if parent is None:
                continue
            columns = ", ".join(" ".join("".join(th.itertext()).split()) for th in table.iter("th"))
            box = ET.Element("div", markdown_rapido.table_box(number, columns))
            index = list(parent).index(table)
            parent.remove(table)
            box.append(table)
            box.tail, table.tail = table.tail, None
            parent.insert(index, box)


class _AddressCollector(Treeprocessor):
    """Collects every href/src of the document, as it would go into the page."""

    def __init__(self, md: markdown.Markdown, found: list[str]) -> None:
        super().__init__(md)
        self.found = found

    def run(self, root: ET.Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is not None:
                    self.found.append(value)


# Inline patterns that cannot make or hide a link: Python-Markdown applies inline patterns in
# priority order, each over the whole text, and these come after every link pattern (autolinks
# included), so the links are found before they run. Reading addresses skips them.
NOT_LINKS = ("linebreak", "entity", "em_strong")


def _markdown() -> markdown.Markdown:
    md = markdown.Markdown(extensions=list(EXTENSIONS), output_format=OUTPUT_FORMAT)
    # Editors' raw HTML is shown as text, never passed through.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md


class MarkdownRenderer:
    """One configured Markdown converter; reuse it across pages (building one is slow).

    A body within the subset of `markdown_rapido` is converted by it (the same HTML and
    addresses, several times faster); `fast_path=False` always uses Python-Markdown."""

    def __init__(self, *, fast_path: bool = True) -> None:
        self._fast_path = fast_path
        self._md = _markdown()
        self._md.treeprocessors.register(_UnsafeUrlRemover(self._md), "unsafe_urls", 0)
        self._md.treeprocessors.register(_ScrollableTables(self._md), "scrollable_tables", 5)
        # The page's own conversion reads its addresses too (before `unescape` and the unsafe
        # URL remover, priority 0): one parse gives the page and what the link rules judge.
        self._found: list[str] = []
        self._md.treeprocessors.register(_AddressCollector(self._md, self._found), "addresses", 1)
        self._links: markdown.Markdown | None = None
        self._addresses: list[str] = []

    def convert(self, text: str) -> str:
        """HTML for one Markdown document; ConversionRefusedError for one too costly to convert."""
        return self.convert_with_addresses(text)[0]

    def convert_with_addresses(self, text: str) -> tuple[str, list[str]]:
        """(HTML, every link and image address as `addresses` reads them) of one Markdown
        document, from one conversion; ConversionRefusedError for one too costly to convert."""
        _guard(text)
        if self._fast_path and (fast := markdown_rapido.convert(text)) is not None:
            return fast
        self._md.reset()
        self._found.clear()
        html = self._md.convert(text)
        return html, list(self._found)

    def addresses(self, text: str) -> list[str]:
        """Every link and image address of a Markdown document, before unsafe ones are removed.

        The page's conversion up to its element tree, without what only shapes the output
        (emphasis, line breaks, entities, indentation, serializing): the content rules read
        every check's links at each cold build, and this is most of the cost of reading a check.
        ConversionRefusedError for a document too costly to convert.
        """
        _guard(text)
        if self._fast_path and (fast := markdown_rapido.convert(text)) is not None:
            return fast[1]
        if self._links is None:
            self._links = _markdown()
            for name in NOT_LINKS:
                self._links.inlinePatterns.deregister(name)
            self._links.treeprocessors.deregister("prettify")
            # Before `unescape` (priority 0): the addresses as the editor wrote them.
            collector = _AddressCollector(self._links, self._addresses)
            self._links.treeprocessors.register(collector, "addresses", 1)
        md = self._links
        md.reset()
        self._addresses.clear()
        lines = text.split("\n")
        for preprocessor in md.preprocessors:
            lines = preprocessor.run(lines)
        root = md.parser.parseDocument(lines).getroot()
        if root is None:  # the parser always makes a root; this only tells the type checker
            return []
        for treeprocessor in md.treeprocessors:
            replaced = treeprocessor.run(root)
            if replaced is not None:
                root = replaced
        return list(self._addresses)


def addresses(text: str) -> list[str]:
    """`MarkdownRenderer.addresses` for a one-off caller. A loop over many documents keeps one
    renderer instead: building one is slow, and while the site build runs with cyclic GC off
    each discarded converter (a reference cycle) would stay in memory."""
    return MarkdownRenderer().addresses(text)
