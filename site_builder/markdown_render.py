"""Markdown to HTML for editor-written content, with raw HTML escaped and unsafe links removed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import markdown
from markdown.treeprocessors import Treeprocessor

EXTENSIONS = ["tables", "fenced_code", "sane_lists"]
SAFE_SCHEMES = ("http:", "https:", "mailto:", "/", "#", "./", "../")


def _is_safe_url(url: str) -> bool:
    # Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
    compact = "".join(ch for ch in url if ch > " ").lower()
    if ":" not in compact.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]:
        return True  # relative URL without a scheme
    return compact.startswith(SAFE_SCHEMES)


class _UnsafeUrlRemover(Treeprocessor):
    """Drops `javascript:`, `data:` and other non-web schemes from links and images."""

    def run(self, root: ET.Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is not None and not _is_safe_url(value):
                    element.set(attribute, "#")


class MarkdownRenderer:
    """One configured Markdown converter; reuse it across pages (building one is slow)."""

    def __init__(self) -> None:
        self._md = markdown.Markdown(extensions=EXTENSIONS, output_format="html")
        # Editors' raw HTML is shown as text, never passed through.
        self._md.preprocessors.deregister("html_block")
        self._md.inlinePatterns.deregister("html")
        self._md.treeprocessors.register(_UnsafeUrlRemover(self._md), "unsafe_urls", 0)

    def convert(self, text: str) -> str:
        """HTML for one Markdown document."""
        self._md.reset()
        return self._md.convert(text)


def convert_many(texts: list[str]) -> list[str]:
    """Convert a batch with one renderer (the unit of work of the parallel build)."""
    renderer = MarkdownRenderer()
    return [renderer.convert(text) for text in texts]
