"""A loopback HTTP server serving scripted pages (post pages, feeds, media) for capture tests.

with ServidorPaginas() as servidor:
    servidor.rota("/post/1", corpo_html, "text/html; charset=utf-8")
    url = servidor.url("/post/1")
"""

from __future__ import annotations

import contextlib
import gzip
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import requests


@dataclass(frozen=True)
class Rota:
    """One scripted answer: status, body, content type, extra headers, optional gzip."""

    corpo: bytes
    tipo: str = "text/html; charset=utf-8"
    status: int = 200
    cabecalhos: tuple[tuple[str, str], ...] = ()
    gzip: bool = False


class ServidorPaginas:
    """Threaded HTTP/1.1 server on 127.0.0.1 (free port); counts requests per path."""

    def __init__(self) -> None:
        self._rotas: dict[str, Rota] = {}
        self._trava = threading.Lock()
        self.pedidos: list[tuple[str, dict[str, str]]] = []
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    def url(self, caminho: str) -> str:
        """Absolute URL of a path on this server."""
        host, porta = self._http.server_address[:2]
        return f"http://{host!s}:{porta}{caminho}"

    def rota(
        self,
        caminho: str,
        corpo: bytes | str,
        tipo: str = "text/html; charset=utf-8",
        status: int = 200,
        cabecalhos: tuple[tuple[str, str], ...] = (),
        gzip: bool = False,
    ) -> str:
        """Serve `corpo` at `caminho`; returns the absolute URL."""
        dados = corpo.encode("utf-8") if isinstance(corpo, str) else corpo
        with self._trava:
            self._rotas[caminho] = Rota(dados, tipo, status, cabecalhos, gzip)
        return self.url(caminho)

    def sessao_proxy(self) -> requests.Session:
        """A requests session that sends every http:// request through this server as a proxy.

        Lets tests use public-looking addresses (`http://redes.example/p/1`, register the route
        under the full URL) while every byte stays on loopback.
        """
        sessao = requests.Session()
        sessao.trust_env = False  # ignore proxy variables of the environment
        host, porta = self._http.server_address[:2]
        sessao.proxies = {"http": f"http://{host!s}:{porta}"}
        return sessao

    def redirecionar(self, caminho: str, destino: str, status: int = 301) -> str:
        """Answer `caminho` with a redirect to `destino` (a path on this server)."""
        return self.rota(caminho, b"", "text/plain", status, (("Location", destino),))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        servidor = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                with servidor._trava:
                    servidor.pedidos.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                    rota = servidor._rotas.get(self.path) or servidor._rotas.get(self.path.split("?", 1)[0])
                if rota is None:
                    rota = Rota(b"<h1>404</h1>", status=404)
                corpo = gzip.compress(rota.corpo) if rota.gzip else rota.corpo
                self.send_response(rota.status)
                self.send_header("Content-Type", rota.tipo)
                self.send_header("Content-Length", str(len(corpo)))
                if rota.gzip:
                    self.send_header("Content-Encoding", "gzip")
                for chave, valor in rota.cabecalhos:
                    self.send_header(chave, valor)
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(corpo)

        return Handler

    def __enter__(self) -> ServidorPaginas:
        self._thread.start()
        return self

    def __exit__(
        self, tipo: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5)
