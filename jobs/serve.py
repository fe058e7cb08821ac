"""A small static file server for the built site (loopback only), with the site's 404 page.

It never lists a folder: a folder without `index.html` is a 404, except the root before the first
publish, which answers a Portuguese "preparando o site" page that reloads itself.
"""

from __future__ import annotations

import functools
import http.server
import io
import os
from pathlib import Path
from typing import Any

from site_builder import csp

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
PREPARING_RETRY_S = 3
PREPARING_PAGE = f"""<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="{PREPARING_RETRY_S}">
<title>Preparando o site</title>
</head>
<body>
<main>
<h1>Preparando o site…</h1>
<p>A primeira versão do site ainda está sendo gerada. Esta página se atualiza sozinha em alguns
segundos.</p>
</main>
</body>
</html>
""".encode()


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves `public/` like the CDN would: `/x/` -> `x/index.html`, missing -> `404.html`."""

    extensions_map = {  # noqa: RUF012 - the stdlib declares it as a class attribute
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".html": "text/html; charset=utf-8",
        ".xml": "application/xml; charset=utf-8",
        ".txt": "text/plain; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".json": "application/json; charset=utf-8",
        ".svg": "image/svg+xml",
    }

    def end_headers(self) -> None:
        """Every answer carries the site's Content-Security-Policy, as the CDN should send it."""
        self.send_header("Content-Security-Policy", csp.policy(header=True))
        super().end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Answer 404 with the site's own page when it exists."""
        page = Path(self.directory) / "404.html"
        if code == 404 and page.is_file():
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)

    def list_directory(self, path: str | os.PathLike[str]) -> io.BytesIO | None:
        """Never a listing: the "preparando" page at the root of an unpublished site, else 404."""
        if Path(path).resolve() != Path(self.directory).resolve():
            self.send_error(404)
            return None
        self.send_response(503)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PREPARING_PAGE)))
        self.send_header("Retry-After", str(PREPARING_RETRY_S))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        return io.BytesIO(PREPARING_PAGE)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: one line per request is noise in the demo."""


def make_server(
    directory: Path, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT
) -> http.server.ThreadingHTTPServer:
    """A server for `directory`; port 0 picks a free port."""
    handler = functools.partial(SiteHandler, directory=str(directory))
    return http.server.ThreadingHTTPServer((host, port), handler)
