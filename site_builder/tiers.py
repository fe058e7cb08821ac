"""Tiers of the output files: what a page points at goes into place before the page.

The build renames its staged files in this order and the publisher uploads in it, so neither a
killed build nor a failed publish ever leaves a page whose stylesheet or data is not there yet.
"""

from __future__ import annotations

from enum import IntEnum

DATA_EXTENSIONS = (".json", ".jsonl", ".geojson", ".csv", ".jws", ".zip", ".gz", ".warc")
INDEX_EXTENSIONS = (".xml", ".atom", ".rss", ".txt", ".webmanifest")


class Tier(IntEnum):
    """Tiers, in order."""

    ASSET = 0  # static/, images, fonts, media
    DATA = 1  # data JSON and downloads, fetched by pages
    HTML = 2
    INDEX = 3  # sitemap, feeds, robots.txt: they point at pages


def extension(key: str) -> str:
    """The lower-case extension of an output path, with its dot ("" when it has none)."""
    name = key.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def tier_of(key: str) -> Tier:
    """The tier of an output path."""
    ext = extension(key)
    if ext in (".html", ".htm"):
        return Tier.HTML
    if ext in DATA_EXTENSIONS and not key.startswith("static/"):
        return Tier.DATA
    if ext in INDEX_EXTENSIONS and not key.startswith("static/"):
        return Tier.INDEX
    return Tier.ASSET
