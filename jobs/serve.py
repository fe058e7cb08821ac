"""A small static file server for the built site (loopback only) that behaves like the CDN.

What a reader's browser gets from it is what it would get from the bucket behind the CDN:

- `/x/` is `x/index.html`; a folder is never listed; a missing file is the site's `404.html`;
- every file carries `ETag` (the quoted MD5 of its bytes, as S3 sends it) and `Last-Modified`, and
  `If-None-Match` (or, without it, `If-Modified-Since`) is answered with 304;
- `Cache-Control`: content-hashed assets are immutable for a year (the publisher's rule,
  `jobs.publish.kinds`), everything else `no-cache` (a cache keeps it but revalidates each time);
- symlinks and hidden names (`.x`, the build's staging folder) are never served: 404;
- before the first publish (no `index.html` at the root) every path answers the Portuguese
  "preparando o site" page (503, `Retry-After`, a `<meta http-equiv="refresh">`: not a script, so
  the site's CSP allows it);
- any error (a bad path, `%00`, a method other than GET/HEAD, a malformed request) is a short
  Portuguese page, never Python's English one, and never a dropped connection;
- the `Date` header comes from a clock the caller passes (the demo passes the replayed night's, so
  the live pages' "há N min" compares with the night), real time by default.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import email.utils
import functools
import hashlib
import html
import http.server
import logging
import os
import stat
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jobs.publish.kinds import content_type, is_hashed_asset
from site_builder import csp

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
PREPARING_RETRY_S = 3
INDEX = "index.html"
NOT_FOUND_PAGE = "404.html"
CACHE_IMMUTABLE = "public, max-age=31536000, immutable"  # content-hashed assets (a new version, a new name)
CACHE_REVALIDATE = "no-cache"  # HTML and live JSON: kept by a cache, revalidated at every use
ALLOWED_HIDDEN = ".well-known"  # the one dot-name a site may publish (jobs.publish.targets.is_hidden)

log = logging.getLogger("eleicoes.servir")

Clock = Callable[[], dt.datetime]

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

# Every status this server may answer with an error page: title and one sentence, in Portuguese.
ERROR_TEXTS: dict[int, tuple[str, str]] = {
    400: ("Pedido inválido", "O endereço pedido não é válido."),
    404: ("Página não encontrada", "Não há nenhuma página neste endereço."),
    408: ("Tempo esgotado", "O pedido demorou demais para chegar."),
    413: ("Pedido grande demais", "O pedido é maior do que o servidor aceita."),
    414: ("Endereço longo demais", "O endereço pedido é longo demais."),
    431: ("Cabeçalhos grandes demais", "Os cabeçalhos do pedido são grandes demais."),
    500: ("Erro no servidor", "O servidor não conseguiu responder a este pedido."),
    501: ("Método não suportado", "Este servidor só responde a GET e HEAD."),
    503: ("Indisponível", "O servidor está temporariamente indisponível."),
    505: ("Versão de HTTP não suportada", "Use HTTP/1.0 ou HTTP/1.1."),
}
GENERIC_ERROR = ("Erro", "O servidor não conseguiu responder a este pedido.")


def error_page(code: int) -> bytes:
    """The short Portuguese page of an error status."""
    title, text = ERROR_TEXTS.get(code, GENERIC_ERROR)
    return (
        f'<!doctype html>\n<html lang="pt-BR">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n</head>\n<body>\n<main>\n<h1>{html.escape(title)}</h1>\n"
        f"<p>{html.escape(text)}</p>\n</main>\n</body>\n</html>\n"
    ).encode()


class BadPathError(ValueError):
    """The request's path cannot name a file (a NUL or control character, bad escapes)."""


def request_key(raw_path: str) -> tuple[str, bool]:
    """The object key a request path names (`/a/b/` -> `a/b/index.html`) and whether the path
    ended in '/'. Raises BadPathError for a path no file can have."""
    path = raw_path.split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/"):
        raise BadPathError(raw_path)
    try:
        decoded = urllib.parse.unquote(path, errors="strict")
    except UnicodeDecodeError as exc:
        raise BadPathError(raw_path) from exc
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in decoded) or "\\" in decoded:
        raise BadPathError(raw_path)
    folder = decoded.endswith("/")
    key = decoded.strip("/")
    return (f"{key}/{INDEX}" if key else INDEX) if folder else key, folder


def refused(key: str) -> bool:
    """Keys the bucket never holds: hidden names, `..`, empty segments."""
    return any(
        part in ("", ".", "..") or (part.startswith(".") and part != ALLOWED_HIDDEN)
        for part in key.split("/")
    )


def _mode_without_links(root: Path, key: str) -> int | None:
    """The `lstat` mode of what `key` names under `root`, or None when it is missing or any component
    on the way (itself included) is a symlink."""
    here = root
    mode = 0
    for part in key.split("/"):
        here = here / part
        try:
            mode = os.lstat(here).st_mode
        except (OSError, ValueError):
            return None
        if stat.S_ISLNK(mode):
            return None
    return mode


def find_file(root: Path, key: str) -> Path | None:
    """The regular file `key` names under `root`, or None: no component may be a symlink."""
    mode = _mode_without_links(root, key)
    return root / key if mode is not None and stat.S_ISREG(mode) else None


def is_folder(root: Path, key: str) -> bool:
    """Whether `key` is a real folder under `root` (no symlink on the way)."""
    mode = _mode_without_links(root, key)
    return mode is not None and stat.S_ISDIR(mode)


def etag_of(body: bytes) -> str:
    """The S3 ETag of a single-part object: the quoted hex MD5 of its bytes."""
    return f'"{hashlib.md5(body, usedforsecurity=False).hexdigest()}"'


def cache_control(key: str) -> str:
    """Immutable for content-hashed assets, revalidated for everything else."""
    return CACHE_IMMUTABLE if is_hashed_asset(key) else CACHE_REVALIDATE


def not_modified(headers: Any, etag: str, modified: dt.datetime) -> bool:
    """Whether a conditional GET may be answered 304 (RFC 9110: If-None-Match wins over
    If-Modified-Since; weak comparison)."""
    match = headers.get("If-None-Match")
    if match is not None:
        tags = [t.strip().removeprefix("W/") for t in match.split(",")]
        return "*" in tags or etag in tags
    since = headers.get("If-Modified-Since")
    if since is None:
        return False
    try:
        when = email.utils.parsedate_to_datetime(since)
    except (TypeError, ValueError, IndexError):
        return False
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return modified.replace(microsecond=0) <= when


def _real_time() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class Answer:
    """What to send: status, headers and body (the body is left out for HEAD)."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""


class SiteHandler(http.server.BaseHTTPRequestHandler):
    """Serves a built site like the CDN would; see the module docstring."""

    server_version = "eleicoes-servir"
    error_content_type = "text/html; charset=utf-8"

    clock: Clock

    def __init__(self, *args: Any, directory: str, clock: Clock | None = None, **kwargs: Any) -> None:
        self.directory = Path(directory)
        if clock is not None or not hasattr(self, "clock"):  # a subclass may have set its own first
            self.clock = clock or _real_time
        super().__init__(*args, **kwargs)

    def version_string(self) -> str:
        """`Server: eleicoes-servir` (not the Python version)."""
        return self.server_version

    # --- the clock ---------------------------------------------------------------------------

    def now(self) -> dt.datetime:
        """The server's time (the `Date` header)."""
        return self.clock().astimezone(dt.UTC)

    def date_time_string(self, timestamp: float | None = None) -> str:
        """`Date` on the server's clock."""
        if timestamp is not None:
            return email.utils.formatdate(timestamp, usegmt=True)
        return email.utils.format_datetime(self.now().replace(microsecond=0), usegmt=True)

    # --- methods -------------------------------------------------------------------------------

    def do_GET(self) -> None:
        """A file, a 304, a redirect to the folder's '/', the preparing page or an error page."""
        try:
            answer = self._answer()
        except Exception:  # a bug here is a Portuguese 500, never a dropped connection
            log.debug("erro ao responder %r", self.path, exc_info=True)
            answer = self._error(500)
        self._send(answer)

    def do_HEAD(self) -> None:
        """As GET; `_send` leaves the body out. Other methods get the Portuguese 501 page."""
        self.do_GET()

    def _answer(self) -> Answer:
        try:
            key, _ = request_key(self.path)
        except BadPathError:
            return self._error(400)
        if not (self.directory / INDEX).is_file():
            return Answer(
                503,
                (
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Retry-After", str(PREPARING_RETRY_S)),
                    ("Cache-Control", "no-store"),
                ),
                PREPARING_PAGE,
            )
        if refused(key):
            return self._error(404)
        found = find_file(self.directory, key)
        if found is None:
            if not key.endswith(INDEX) and is_folder(self.directory, key):
                target = self.path.split("?", 1)[0] + "/"
                query = self.path[len(target) - 1 :]
                return Answer(301, (("Location", target + query), ("Cache-Control", CACHE_REVALIDATE)), b"")
            return self._error(404)
        try:
            body = found.read_bytes()
            mtime = found.stat().st_mtime
        except OSError:
            return self._error(404)
        now = self.now()
        # RFC 9110 8.8.2.1: never a Last-Modified later than the Date (the demo's night clock).
        modified = min(dt.datetime.fromtimestamp(mtime, dt.UTC), now)
        etag = etag_of(body)
        validators = (
            ("ETag", etag),
            ("Last-Modified", email.utils.format_datetime(modified.replace(microsecond=0), usegmt=True)),
            ("Cache-Control", cache_control(key)),
        )
        if not_modified(self.headers, etag, modified):
            return Answer(304, validators)
        return Answer(200, (("Content-Type", content_type(key)), *validators), body)

    def _error(self, code: int) -> Answer:
        page = find_file(self.directory, NOT_FOUND_PAGE) if code == 404 else None
        try:
            body = page.read_bytes() if page is not None else error_page(code)
        except OSError:
            body = error_page(code)
        headers = (("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", CACHE_REVALIDATE))
        return Answer(code, headers, body)

    def _send(self, answer: Answer) -> None:
        self.send_response(answer.status)
        for name, value in answer.headers:
            self.send_header(name, value)
        if answer.status != 304:
            self.send_header("Content-Length", str(len(answer.body)))
        self.end_headers()
        if self.command != "HEAD" and answer.status != 304:
            self.wfile.write(answer.body)

    # --- errors raised by the request parser, and the headers of every answer -------------------

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Every error is a short Portuguese page (the site's 404 page for a 404)."""
        del message, explain
        self.close_connection = True
        with contextlib.suppress(OSError):  # the client went away
            self._send(self._error(code))

    def end_headers(self) -> None:
        """Every answer carries the site's Content-Security-Policy, as the CDN should send it."""
        self.send_header("Content-Security-Policy", csp.policy(header=True))
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: one line per request is noise in the demo."""


class SiteServer(http.server.ThreadingHTTPServer):
    """The threading server, with a client that went away logged quietly (not a traceback)."""

    # A browser opens several connections at once for a page's files; past the standard library's
    # listen backlog of 5 the kernel drops the SYNs and the browser resends them a second later.
    request_queue_size = 64

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One debug line instead of the standard library's English traceback on stderr."""
        del request
        log.debug("pedido de %s interrompido", client_address, exc_info=True)


def make_server(
    directory: Path, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, clock: Clock | None = None
) -> http.server.ThreadingHTTPServer:
    """A server for `directory`; port 0 picks a free port. `clock` gives the `Date` header's time
    (default: real time)."""
    handler = functools.partial(SiteHandler, directory=str(directory), clock=clock or _real_time)
    return SiteServer((host, port), handler)
