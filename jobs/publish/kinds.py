"""What each published file is: its Content-Type and Cache-Control (its upload tier: site_builder.tiers).

The Content-Type table is explicit (never the machine's `mimetypes`, which differs between hosts),
and every text type carries `charset=utf-8`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jobs.publish.config import PublishConfig
from site_builder.tiers import extension as _extension

TEXT = "; charset=utf-8"
CONTENT_TYPES: dict[str, str] = {
    ".html": "text/html" + TEXT,
    ".htm": "text/html" + TEXT,
    ".css": "text/css" + TEXT,
    ".js": "text/javascript" + TEXT,
    ".mjs": "text/javascript" + TEXT,
    ".json": "application/json" + TEXT,
    ".map": "application/json" + TEXT,
    ".geojson": "application/geo+json" + TEXT,
    ".jsonl": "application/x-ndjson" + TEXT,
    ".webmanifest": "application/manifest+json" + TEXT,
    ".xml": "application/xml" + TEXT,
    ".atom": "application/atom+xml" + TEXT,
    ".rss": "application/rss+xml" + TEXT,
    ".txt": "text/plain" + TEXT,
    ".md": "text/markdown" + TEXT,
    ".csv": "text/csv" + TEXT,
    ".vtt": "text/vtt" + TEXT,
    ".svg": "image/svg+xml" + TEXT,
    ".jws": "application/jose",  # TSE signature twins in the snapshot downloads
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".pdf": "application/pdf",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".warc": "application/warc",
    ".mp3": "audio/mpeg",
    ".ogg": "audio/ogg",
    ".opus": "audio/ogg",
    ".wav": "audio/wav",
    ".m4a": "audio/mp4",
    ".mp4": "video/mp4",
    ".webm": "video/webm",
}
DEFAULT_CONTENT_TYPE = "application/octet-stream"

# `site_builder.assets.hashed_name`: static/<stem>.<10 hex of SHA-256>.<ext> (a test ties the two).
HASHED_ASSET = re.compile(r"^static/(?:.+/)?[^/]+\.[0-9a-f]{10}(?:\.[A-Za-z0-9]+)?$")


@dataclass(frozen=True)
class Headers:
    """The HTTP headers an object is stored with."""

    content_type: str
    cache_control: str


def is_hashed_asset(key: str) -> bool:
    """True for content-hashed assets: a new version gets a new name, so caching forever is safe."""
    return HASHED_ASSET.match(key) is not None


def content_type(key: str) -> str:
    """The Content-Type of an object key, from the explicit table."""
    return CONTENT_TYPES.get(_extension(key), DEFAULT_CONTENT_TYPE)


def cache_control(key: str, cfg: PublishConfig) -> str:
    """Cache-Control per kind: hashed assets a year and immutable; HTML and live JSON short."""
    if is_hashed_asset(key):
        return f"public, max-age={cfg.cache_assets_s}, immutable"
    ext = _extension(key)
    if ext in (".html", ".htm"):
        return f"public, max-age={cfg.cache_html_s}, must-revalidate"
    if ext in (".json", ".jsonl", ".geojson"):
        return f"public, max-age={cfg.cache_dados_s}, must-revalidate"
    return f"public, max-age={cfg.cache_outros_s}"


def headers_for(key: str, cfg: PublishConfig) -> Headers:
    """Both headers of an object key."""
    return Headers(content_type(key), cache_control(key, cfg))
