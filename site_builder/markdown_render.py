"""Markdown to HTML for editor-written content, with raw HTML escaped and unsafe links removed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import markdown
from markdown.treeprocessors import Treeprocessor

from site_builder.conteudo.texto_seguro import url_proibida

EXTENSIONS = ["tables", "fenced_code", "sane_lists"]


class _UnsafeUrlRemover(Treeprocessor):
    """Drops `javascript:`, `data:` and other non-web schemes from links and images, however they
    are encoded. `validar` refuses such a check; this is the last line for any other page."""

    def run(self, root: ET.Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is not None and url_proibida(value) is not None:
                    element.set(attribute, "#")


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


class MarkdownRenderer:
    """One configured Markdown converter; reuse it across pages (building one is slow)."""

    def __init__(self) -> None:
        self._md = markdown.Markdown(extensions=EXTENSIONS, output_format="html")
        # Editors' raw HTML is shown as text, never passed through.
        self._md.preprocessors.deregister("html_block")
        self._md.inlinePatterns.deregister("html")
        self._md.treeprocessors.register(_UnsafeUrlRemover(self._md), "unsafe_urls", 0)
        self._addresses: list[str] = []
        # Runs before the remover: the addresses as the editor wrote them.
        self._md.treeprocessors.register(_AddressCollector(self._md, self._addresses), "addresses", 1)

    def convert(self, text: str) -> str:
        """HTML for one Markdown document."""
        self._md.reset()
        self._addresses.clear()
        return self._md.convert(text)

    def addresses(self, text: str) -> list[str]:
        """Every link and image address of a Markdown document, before unsafe ones are removed."""
        self.convert(text)
        return list(self._addresses)


def addresses(text: str) -> list[str]:
    """`MarkdownRenderer.addresses` for a one-off caller. A loop over many documents keeps one
    renderer instead: building one is slow, and while the site build runs with cyclic GC off
    each discarded converter (a reference cycle) would stay in memory."""
    return MarkdownRenderer().addresses(text)
