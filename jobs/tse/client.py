"""HTTP client for the TSE CDN: one session per thread, timeouts, retries with backoff, conditional GET,
gzip, a browser-like User-Agent and one global rate cap shared by every thread.

The TSE blocks an IP for 10 minutes above 100 requests/s and a 304 still counts (TSE-FORMAT.md §1.4),
so every attempt, retries included, takes a token from the same bucket.

Hostile answers are bounded: every request has a total deadline (`prazo_total_s`, a server dripping
one byte per second is cut there, not only per read), the body is decoded by us chunk by chunk with
a cap on the decoded size (`tamanho_maximo_mb`: a gzip bomb stops at the cap, it is never inflated
in memory), and a cycle deadline (`prazo`, set per cycle) turns the requests not yet sent, or still
running, into "not answered".
"""

from __future__ import annotations

import datetime as dt
import email.utils
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import requests

from jobs.tse.config import ConfigTse

RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 30.0
CHUNK = 16 * 1024  # bytes read (and, compressed, decoded) at a time


class BodyError(Exception):
    """A body that cannot be accepted: too big, too slow, badly encoded (Portuguese message).

    `repetir` is False when asking again cannot help (the same file would be as big).
    """

    def __init__(self, mensagem: str, repetir: bool = True) -> None:
        super().__init__(mensagem)
        self.repetir = repetir


def read_body(raw: Any, encoding: str, prazo: float, limite: int) -> bytes:
    """The decoded body of a streamed answer, refusing more than `limite` decoded bytes and reading
    past the monotonic instant `prazo`; BodyError otherwise.

    `raw` is the urllib3 response; `read1` returns after one socket read, so a dripping server is
    noticed at the deadline and not after the buffer fills.
    """
    enc = encoding.strip().lower()
    dec: Any
    if enc in ("", "identity"):
        dec = None
    elif enc in ("gzip", "x-gzip"):
        dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif enc == "deflate":
        dec = zlib.decompressobj()
    else:
        raise BodyError(f"codificação de conteúdo não suportada: {enc}")
    out = bytearray()
    mb = limite / (1024 * 1024)
    while True:
        if time.monotonic() > prazo:
            raise BodyError(f"prazo total da requisição esgotado com {len(out)} bytes recebidos")
        data = raw.read1(CHUNK, decode_content=False)
        if not data:
            break
        if dec is None:
            out += data
        else:
            try:
                while data:
                    out += dec.decompress(data, limite + 1 - len(out))
                    data = dec.unconsumed_tail
                    if len(out) > limite:
                        break
            except zlib.error as exc:
                raise BodyError(f"corpo comprimido inválido ({exc})") from exc
        if len(out) > limite:
            raise BodyError(f"corpo maior que o limite de {mb:g} MB (tamanho_maximo_mb)", repetir=False)
    if dec is not None:
        try:
            out += dec.flush()
        except zlib.error as exc:
            raise BodyError(f"corpo comprimido inválido ({exc})") from exc
        if not dec.eof:
            raise BodyError("corpo comprimido incompleto")
        if len(out) > limite:
            raise BodyError(f"corpo maior que o limite de {mb:g} MB (tamanho_maximo_mb)", repetir=False)
    return bytes(out)


class RateLimiter:
    """Token bucket: `rate` tokens per second, at most `burst` saved up; thread-safe.

    A caller reserves its token under the lock (the count may go negative) and sleeps outside it
    until the token exists, so concurrent callers queue fairly without busy waiting.
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self._sleep = sleep
        self._tokens = float(burst)
        self._last = clock()
        self._lock = threading.Lock()

    def acquire(self) -> float:
        """Take one token, sleeping as long as needed; returns the seconds waited."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
            self._last = now
            self._tokens -= 1.0
            wait = -self._tokens / self.rate if self._tokens < 0 else 0.0
        if wait > 0:
            self._sleep(wait)
        return wait


@dataclass(frozen=True)
class Pedido:
    """One GET, with the validators of the copy we already hold."""

    url: str
    etag: str | None = None
    last_modified: str | None = None


@dataclass(frozen=True)
class Resposta:
    """What came back. `status` None = no HTTP answer (timeout, connection error)."""

    url: str
    status: int | None
    corpo: bytes | None
    etag: str | None
    last_modified: str | None
    data_servidor: dt.datetime | None  # the `Date` header
    erro: str | None  # Portuguese, when the request failed
    tentativas: int

    @property
    def ok(self) -> bool:
        """A 200 with a body."""
        return self.status == 200 and self.corpo is not None


def _http_date(value: str | None) -> dt.datetime | None:
    if not value:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def _retry_after(value: str | None) -> float | None:
    if value and value.strip().isdigit():
        return min(float(value.strip()), MAX_RETRY_AFTER_S)
    return None


class TseClient:
    """GETs against the TSE under the global cap; never raises for network or HTTP problems."""

    def __init__(
        self,
        config: ConfigTse,
        limiter: RateLimiter | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self.limiter = limiter or RateLimiter(config.requisicoes_por_segundo, config.rajada)
        self._sleep = sleep
        self._local = threading.local()
        self._sessions: list[requests.Session] = []
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self.prazo: float | None = None  # monotonic deadline of the current cycle (None: none)

    def _session(self) -> requests.Session:
        session: requests.Session | None = getattr(self._local, "session", None)
        if session is None:
            session = requests.Session()
            session.headers.update(
                {
                    "User-Agent": self.config.user_agent,
                    "Accept": "application/json, */*;q=0.8",
                    "Accept-Encoding": "gzip",
                }
            )
            adapter = requests.adapters.HTTPAdapter(pool_connections=4, pool_maxsize=4, max_retries=0)
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            self._local.session = session
            with self._lock:
                self._sessions.append(session)
        return session

    def get(self, pedido: Pedido) -> Resposta:
        """One conditional GET with retries and backoff on timeouts, connection errors, 429 and 5xx.

        Each try ends by `prazo_total_s`; no try starts, and no body is read, past the cycle deadline.
        """
        headers: dict[str, str] = {}
        if pedido.etag:
            headers["If-None-Match"] = pedido.etag
        if pedido.last_modified:
            headers["If-Modified-Since"] = pedido.last_modified
        erro = "sem resposta"
        status: int | None = None
        data: dt.datetime | None = None
        tentativas = self.config.tentativas
        feitas = 0
        for tentativa in range(1, tentativas + 1):
            ciclo = self.prazo
            if ciclo is not None and time.monotonic() >= ciclo:
                erro = (
                    "prazo do ciclo esgotado; não pedido"
                    if feitas == 0
                    else f"{erro}; prazo do ciclo esgotado"
                )
                break
            self.limiter.acquire()
            feitas = tentativa
            espera = self.config.espera_inicial_s * 2 ** (tentativa - 1)
            prazo = time.monotonic() + self.config.prazo_total_s
            if ciclo is not None:
                prazo = min(prazo, ciclo)
            try:
                r = self._session().get(
                    pedido.url,
                    headers=headers,
                    timeout=self.config.tempo_limite_s,
                    allow_redirects=False,
                    stream=True,
                )
                try:
                    corpo = read_body(
                        r.raw, r.headers.get("Content-Encoding", ""), prazo, self.config.tamanho_maximo
                    )
                finally:
                    r.close()
            except requests.Timeout:
                status, erro = None, f"tempo esgotado ({self.config.tempo_limite_s:g} s)"
            except requests.RequestException as exc:
                status, erro = None, f"falha de conexão ({type(exc).__name__})"
            except BodyError as exc:
                status, erro = None, str(exc)
                if not exc.repetir:
                    break
            except OSError as exc:  # a socket timeout or reset while streaming the body
                status, erro = None, f"falha de conexão ({type(exc).__name__})"
            else:
                status, data = r.status_code, _http_date(r.headers.get("Date"))
                if status in (200, 304):
                    return Resposta(
                        pedido.url,
                        status,
                        corpo if status == 200 else None,
                        r.headers.get("ETag"),
                        r.headers.get("Last-Modified"),
                        data,
                        None,
                        tentativa,
                    )
                erro = f"TSE respondeu {status}"
                if status not in RETRY_STATUS:
                    return Resposta(pedido.url, status, None, None, None, data, erro, tentativa)
                espera = _retry_after(r.headers.get("Retry-After")) or espera
            if tentativa < tentativas and espera > 0:
                self._sleep(espera)
        return Resposta(pedido.url, status, None, None, None, data, erro, feitas)

    def get_many(self, pedidos: Sequence[Pedido]) -> list[Resposta]:
        """GET many URLs over `conexoes` threads; answers in the order asked."""
        if len(pedidos) <= 1 or self.config.conexoes <= 1:
            return [self.get(p) for p in pedidos]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.config.conexoes, thread_name_prefix="tse-http")
        return list(self._pool.map(self.get, pedidos))

    def close(self) -> None:
        """Close the pool and every session."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        with self._lock:
            for s in self._sessions:
                s.close()
            self._sessions.clear()
