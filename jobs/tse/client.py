"""HTTP client for the TSE CDN: one session per thread, timeouts, retries with backoff, conditional GET,
gzip, a browser-like User-Agent and one global rate cap shared by every thread.

The TSE blocks an IP for 10 minutes above 100 requests/s and a 304 still counts (TSE-FORMAT.md §1.4),
so every attempt, retries included, takes a token from the same bucket.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import requests

from jobs.tse.config import ConfigTse

RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 30.0


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
        """One conditional GET with retries and backoff on timeouts, connection errors, 429 and 5xx."""
        headers: dict[str, str] = {}
        if pedido.etag:
            headers["If-None-Match"] = pedido.etag
        if pedido.last_modified:
            headers["If-Modified-Since"] = pedido.last_modified
        erro = "sem resposta"
        status: int | None = None
        data: dt.datetime | None = None
        tentativas = self.config.tentativas
        for tentativa in range(1, tentativas + 1):
            self.limiter.acquire()
            espera = self.config.espera_inicial_s * 2 ** (tentativa - 1)
            try:
                r = self._session().get(
                    pedido.url, headers=headers, timeout=self.config.tempo_limite_s, allow_redirects=False
                )
                corpo = r.content  # gzip is decoded here; a cut connection raises here too
            except requests.Timeout:
                status, erro = None, f"tempo esgotado ({self.config.tempo_limite_s:g} s)"
            except requests.RequestException as exc:
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
        return Resposta(pedido.url, status, None, None, None, data, erro, tentativas)

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
