"""The HTTP client: global rate cap (token bucket), retries with backoff, conditional GET, gzip, UA."""

from __future__ import annotations

import functools
import gzip
import threading
import time
import tracemalloc
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from jobs.tse.client import BodyError, Pedido, RateLimiter, TseClient, read_body
from jobs.tse.config import ConfigTse
from tests.support.servidor import em_segundo_plano


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.sleeps.append(s)
        self.t += s


def test_token_bucket_caps_the_rate() -> None:
    clock = FakeClock()
    limiter = RateLimiter(rate=20, burst=20, clock=clock, sleep=clock.sleep)
    for _ in range(120):
        limiter.acquire()
    # 20 at once, then one every 50 ms: 100 more need 5 s.
    assert clock.sleeps[0] == pytest.approx(0.05) and len(clock.sleeps) == 100
    assert clock.t == pytest.approx(5.0)
    clock.t += 10  # idle: the bucket refills up to its size, no more
    before = len(clock.sleeps)
    for _ in range(20):
        limiter.acquire()
    assert len(clock.sleeps) == before
    limiter.acquire()
    assert clock.sleeps[-1] == pytest.approx(0.05)


def test_concurrent_callers_share_one_bucket() -> None:
    sleeps: list[float] = []
    limiter = RateLimiter(rate=100, burst=1, clock=lambda: 0.0, sleep=sleeps.append)  # time stands still
    threads = [threading.Thread(target=lambda: [limiter.acquire() for _ in range(5)]) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # 20 tokens from one bucket of 1 at 100/s: each caller reserves its own slot, 10 ms after the last.
    assert sorted(sleeps) == pytest.approx([i / 100 for i in range(1, 20)])


@functools.cache
def bomb() -> bytes:
    """64 MB of spaces after a JSON object, gzipped to about 64 KB."""
    return gzip.compress(b'{"ok": true}' + b" " * (64 * 1024 * 1024), compresslevel=9, mtime=0)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Any

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        s = self.server
        s.seen.append((self.path, dict(self.headers)))
        body = b'{"ok": true}'
        if self.path == "/flaky":
            s.flaky += 1
            if s.flaky < 3:
                self.send_response(503)
                self.send_header("Retry-After", "0")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        if self.path == "/missing":
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/slow":
            s.parar.wait(60)  # held until the server stops: only the client's timeout ends the wait
        if self.path == "/drip":  # headers at once, then one byte at a time until the client hangs up
            self.send_response(200)
            self.send_header("Content-Length", "100000")
            self.end_headers()
            try:
                for _ in range(100000):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    s.dripped += 1
                    time.sleep(0.02)
            except OSError:
                return
        if self.path == "/drip-headers":  # the status line, then the headers one byte at a time
            self.close_connection = True
            linhas = b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-Lento-%d: a\r\n" % i for i in range(30))
            data = linhas + b"Content-Length: 12\r\n\r\n" + body
            try:
                for i in range(len(data)):
                    self.wfile.write(data[i : i + 1])
                    self.wfile.flush()
                    s.dripped += 1
                    if s.parar.wait(0.02):
                        return
            except OSError:
                return
            return
        if self.path == "/cut":  # a body cut mid-transfer: 10 of the 1000 bytes announced
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(body[:10])
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        if self.path == "/badchunk":  # chunked transfer with a chunk size that is not hexadecimal
            self.close_connection = True
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b'5\r\n{"ok"\r\nzz\r\n')
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        if self.path in ("/huge", "/bomb"):
            big = b'{"ok": true}' + b" " * (3 * 1024 * 1024)  # valid JSON, 3 MB
            data = bomb() if self.path == "/bomb" else big
            self.send_response(200)
            if self.path == "/bomb":
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:
                self.wfile.write(data)
            except OSError:
                return
            return
        if self.headers.get("If-None-Match") == '"v1"':
            self.send_response(304)
            self.send_header("ETag", '"v1"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        data = gzip.compress(body)
        self.send_response(200)
        self.send_header("ETag", '"v1"')
        self.send_header("Last-Modified", "Sun, 25 Oct 2026 20:00:00 GMT")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def server() -> Iterator[Any]:
    srv: Any = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.seen, srv.flaky, srv.dripped, srv.parar = [], 0, 0, threading.Event()
    srv.handle_error = lambda *a: None  # the slow answer hits a client that already gave up
    em_segundo_plano(srv)
    yield srv
    srv.parar.set()
    srv.shutdown()
    srv.server_close()


def client(server: Any, **kw: Any) -> tuple[TseClient, list[float]]:
    """A client whose configured base is the test server (every URL must stay on the base)."""
    sleeps: list[float] = []
    base = f"http://127.0.0.1:{server.server_address[1]}"
    cfg = ConfigTse(url_base=base, requisicoes_por_segundo=1000, rajada=1000, espera_inicial_s=0.1, **kw)
    return TseClient(cfg, sleep=sleeps.append), sleeps


def test_get_sends_browser_headers_decodes_gzip_and_revalidates(server: Any) -> None:
    c, _ = client(server)
    url = f"http://127.0.0.1:{server.server_address[1]}/x"
    r = c.get(Pedido(url))
    assert r.status == 200 and r.corpo == b'{"ok": true}' and r.etag == '"v1"'
    headers = server.seen[0][1]
    assert headers["User-Agent"].startswith("Mozilla/5.0") and "gzip" in headers["Accept-Encoding"]
    r2 = c.get(Pedido(url, r.etag, r.last_modified))
    assert r2.status == 304 and r2.corpo is None
    assert server.seen[1][1]["If-None-Match"] == '"v1"'
    assert server.seen[1][1]["If-Modified-Since"] == "Sun, 25 Oct 2026 20:00:00 GMT"
    c.close()


def test_retries_with_backoff_then_succeeds(server: Any) -> None:
    c, sleeps = client(server, tentativas=3)
    r = c.get(Pedido(f"http://127.0.0.1:{server.server_address[1]}/flaky"))
    assert r.status == 200 and r.tentativas == 3
    assert sleeps == [0.1, 0.2]  # Retry-After 0 falls back to the exponential backoff
    c.close()


def test_404_is_not_retried_and_timeouts_are_reported(server: Any) -> None:
    c, sleeps = client(server, tentativas=3)
    port = server.server_address[1]
    r = c.get(Pedido(f"http://127.0.0.1:{port}/missing"))
    assert r.status == 404 and r.tentativas == 1 and r.erro == "TSE respondeu 404" and sleeps == []
    c.close()
    c, sleeps = client(server, tentativas=3, tempo_limite_s=0.1)
    r = c.get(Pedido(f"http://127.0.0.1:{port}/slow"))
    assert r.status is None and r.tentativas == 3 and "tempo esgotado" in (r.erro or "")
    c.close()
    c = TseClient(ConfigTse(url_base="http://127.0.0.1:9", tentativas=1))  # nobody listens on port 9
    r = c.get(Pedido("http://127.0.0.1:9/nada"))
    assert r.status is None and "conexão" in (r.erro or "")
    c.close()


def test_get_many_keeps_the_order(server: Any) -> None:
    c, _ = client(server, conexoes=4)
    port = server.server_address[1]
    urls = [f"http://127.0.0.1:{port}/{i}" for i in range(12)]
    respostas = c.get_many([Pedido(u) for u in urls])
    assert [r.url for r in respostas] == urls and all(r.status == 200 for r in respostas)
    c.close()


def test_dripping_server_is_cut_at_the_total_deadline(server: Any) -> None:
    """The per-read timeout never fires on a server sending one byte at a time; the total deadline does."""
    c, _ = client(server, tentativas=1, tempo_limite_s=5.0, prazo_total_s=0.3)
    r = c.get(Pedido(f"http://127.0.0.1:{server.server_address[1]}/drip"))
    assert r.status is None and r.corpo is None and "prazo total" in (r.erro or "")
    assert server.dripped < 100000  # the client hung up long before the body ended
    c.close()


def test_dripped_headers_are_cut_at_the_total_deadline(server: Any) -> None:
    """Issue 22: the deadline covers connect and headers too, not only the body (a per-read timeout
    of 5 s never fires on headers sent one byte every 20 ms)."""
    c, _ = client(server, tentativas=1, tempo_limite_s=5.0, prazo_total_s=0.3)
    r = c.get(Pedido(f"http://127.0.0.1:{server.server_address[1]}/drip-headers"))
    assert r.status is None and r.corpo is None and "prazo total" in (r.erro or ""), r
    c.close()


@pytest.mark.parametrize(("path", "motivo"), [("/cut", "interrompido"), ("/badchunk", "interrompido")])
def test_a_body_cut_mid_transfer_is_a_failed_file_not_an_exception(
    server: Any, path: str, motivo: str
) -> None:
    c, _ = client(server, tentativas=2)
    r = c.get(Pedido(f"http://127.0.0.1:{server.server_address[1]}{path}"))
    assert r.status is None and r.corpo is None and motivo in (r.erro or ""), r
    assert r.tentativas == 2  # a transport failure is retried like a timeout
    c.close()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:{port}@outro-host.invalid/x",
        "http://outro-host.invalid:{port}/x",
        "https://127.0.0.1:{port}/x",
        "http://127.0.0.1:{port}/../x",
        "http://127.0.0.1:1/x",
    ],
)
def test_a_url_off_the_configured_base_is_never_asked(server: Any, url: str) -> None:
    c, _ = client(server)
    r = c.get(Pedido(url.format(port=server.server_address[1])))
    assert r.status is None and r.tentativas == 0 and "fora da base" in (r.erro or "")
    assert server.seen == []
    c.close()


@pytest.mark.parametrize("path", ["/huge", "/bomb"])
def test_body_over_the_cap_is_refused_while_decoding_and_not_retried(server: Any, path: str) -> None:
    """A 3 MB valid file and a gzip bomb of 64 MB, with a 1 MB cap: refused, memory stays near the cap."""
    c, _ = client(server, tentativas=3, tamanho_maximo_mb=1.0)
    bomb()  # built before measuring: the server lives in this process
    tracemalloc.start()
    try:
        r = c.get(Pedido(f"http://127.0.0.1:{server.server_address[1]}{path}"))
        _, pico = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.status is None and "maior que o limite de 1 MB" in (r.erro or "") and r.tentativas == 1
    assert pico < 8 * 1024 * 1024  # never the 64 MB of the bomb
    assert [p for p, _ in server.seen].count(path) == 1
    c.close()


def test_nothing_is_asked_past_the_cycle_deadline(server: Any) -> None:
    c, _ = client(server)
    c.prazo = time.monotonic() - 1.0
    r = c.get(Pedido(f"http://127.0.0.1:{server.server_address[1]}/x"))
    assert r.status is None and r.tentativas == 0 and "prazo do ciclo" in (r.erro or "")
    assert server.seen == []
    c.close()


def test_read_body_refuses_bad_encodings() -> None:
    class Raw:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def read1(self, n: int, decode_content: bool = False) -> bytes:
            out, self.data = self.data[:n], self.data[n:]
            return out

    longe = time.monotonic() + 3600
    assert read_body(Raw(gzip.compress(b"{}")), "gzip", longe, 100) == b"{}"
    with pytest.raises(BodyError, match="incompleto"):
        read_body(Raw(gzip.compress(b"{}" * 100)[:20]), "gzip", longe, 1000)
    with pytest.raises(BodyError, match="não suportada"):
        read_body(Raw(b"x"), "br", longe, 100)
