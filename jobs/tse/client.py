"""HTTP client for the TSE CDN: one session per thread, timeouts, retries with backoff, conditional GET,
gzip, a browser-like User-Agent and one global rate cap shared by every thread.

The TSE blocks an IP for 10 minutes above 100 requests/s and a 304 still counts (TSE-FORMAT.md §1.4),
so every attempt, retries included, takes a token from the same bucket.

Hostile answers are bounded: every request has a total deadline (`prazo_total_s`) that covers
connect, headers and body: a watchdog thread (`Vigia`) shuts the socket of a request still running
at its deadline, so a server dripping its headers (or body) one byte a second is cut there, not
only per read. A body cut mid-transfer or any other transport error (urllib3 `ProtocolError`,
`ChunkedEncodingError`, `ContentDecodingError`, ...) is a failed file, never an exception. A URL
off the configured base is never asked (`jobs/tse/validacao.py`). The body is decoded by us chunk
by chunk with a cap on the decoded size (`tamanho_maximo_mb`: a gzip bomb stops at the cap, it is
never inflated in memory), and a cycle deadline (`prazo`, set per cycle) turns the requests not yet
sent, or still running, into "not answered".
"""

from __future__ import annotations

import contextlib
import datetime as dt
import email.utils
import http.client
import socket
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import requests
import urllib3

from jobs.tse.config import ConfigTse
from jobs.tse.validacao import ValidacaoError, check_on_base

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


class Vigia:
    """One thread per client that cuts requests still running at their deadline.

    `armar(prazo, cortar)` registers a request; at `prazo` (monotonic) `cortar()` is called once
    unless `desarmar` came first. The HTTP path passes a `cortar` that shuts the request's socket,
    which wakes a read blocked on connect, headers or body with an error.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._prazos: dict[int, tuple[float, Callable[[], None]]] = {}
        self._seq = 0
        self._thread: threading.Thread | None = None
        self._fechado = False

    def armar(self, prazo: float, cortar: Callable[[], None]) -> int:
        """Register a deadline; returns its token."""
        with self._cond:
            self._seq += 1
            self._prazos[self._seq] = (prazo, cortar)
            if self._thread is None and not self._fechado:
                self._thread = threading.Thread(target=self._run, name="tse-prazo", daemon=True)
                self._thread.start()
            self._cond.notify()
            return self._seq

    def desarmar(self, token: int) -> bool:
        """Forget a deadline; False when it had already fired."""
        with self._cond:
            return self._prazos.pop(token, None) is not None

    def _run(self) -> None:
        with self._cond:
            while not self._fechado:
                agora = time.monotonic()
                vencidos = [t for t, (p, _) in self._prazos.items() if p <= agora]
                for t in vencidos:
                    _, cortar = self._prazos.pop(t)
                    with contextlib.suppress(OSError):  # the socket was already gone
                        cortar()
                proximo = min((p for p, _ in self._prazos.values()), default=None)
                self._cond.wait(None if proximo is None else max(0.0, proximo - agora))

    def fechar(self) -> None:
        """Stop the thread."""
        with self._cond:
            self._fechado = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def _pool_classes(adapter: _Adapter) -> dict[str, type[urllib3.HTTPConnectionPool]]:
    """Connection pools that tell the adapter which connection carries its current request."""

    class Http(urllib3.HTTPConnectionPool):
        def _make_request(self, conn: Any, *args: Any, **kwargs: Any) -> Any:
            adapter.conexao = conn
            return super()._make_request(conn, *args, **kwargs)

    class Https(urllib3.HTTPSConnectionPool):
        def _make_request(self, conn: Any, *args: Any, **kwargs: Any) -> Any:
            adapter.conexao = conn
            return super()._make_request(conn, *args, **kwargs)

    return {"http": Http, "https": Https}


class _Adapter(requests.adapters.HTTPAdapter):
    """The session's adapter (one session per thread), remembering its request's connection."""

    def __init__(self, **kwargs: Any) -> None:
        self.conexao: Any = None
        super().__init__(**kwargs)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        """The pool manager, with the pools of `_pool_classes`."""
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _pool_classes(self)

    def cortar(self) -> None:
        """Shut the socket of the current request (the watchdog's deadline)."""
        sock = getattr(self.conexao, "sock", None)
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)


# Transport failures of one request: a body cut mid-transfer, a broken chunk or gzip stream, a
# reset or a socket shut by the watchdog. Each is a failed file; none may abort the cycle.
TRANSPORT_ERRORS = (
    requests.RequestException,
    urllib3.exceptions.HTTPError,
    http.client.HTTPException,
    OSError,
)


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


def _transport_message(exc: BaseException, tempo_limite_s: float) -> str:
    """The Portuguese reason of a transport failure."""
    if isinstance(exc, requests.Timeout | urllib3.exceptions.TimeoutError | TimeoutError):
        return f"tempo esgotado ({tempo_limite_s:g} s)"
    if isinstance(exc, requests.exceptions.ChunkedEncodingError | urllib3.exceptions.ProtocolError):
        return f"corpo interrompido no meio da transferência ({type(exc).__name__})"
    if isinstance(exc, requests.exceptions.ContentDecodingError | urllib3.exceptions.DecodeError):
        return f"corpo com codificação inválida ({type(exc).__name__})"
    return f"falha de conexão ({type(exc).__name__})"


def _retry_after(value: str | None) -> float | None:
    if value and value.strip().isdigit():
        return min(float(value.strip()), MAX_RETRY_AFTER_S)
    return None


class ServerClock:
    """The TSE's `Date`, guarded against a frozen one (a CDN answering cached responses).

    With `relogio = "servidor"` "now" is the server's `Date`. A `Date` that stops advancing would
    make a stalled night look fresh forever (the seed's 5-minute file age measured against a clock
    that does not move). So "now" is never earlier than the last `Date` that advanced plus the
    time the machine's monotonic clock has run since it: `max(Date, último Date + tempo local
    decorrido)`. A server clock that runs ahead is followed; one that stops or goes back is
    replaced by that estimate. Thread-safe (answers arrive on several threads).
    """

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._ancora: tuple[dt.datetime, float] | None = None

    def estimativa(self) -> dt.datetime | None:
        """The server's "now" estimated from the last `Date` that advanced (None before any)."""
        with self._lock:
            if self._ancora is None:
                return None
            base, quando = self._ancora
            return base + dt.timedelta(seconds=self._monotonic() - quando)

    def corrigir(self, data: dt.datetime | None) -> dt.datetime | None:
        """The guarded "now" for an answer whose `Date` is `data` (None when it had none)."""
        if data is None:
            return None
        with self._lock:
            agora_local = self._monotonic()
            if self._ancora is not None:
                base, quando = self._ancora
                estimativa = base + dt.timedelta(seconds=agora_local - quando)
                if data <= estimativa:
                    return estimativa
            self._ancora = (data, agora_local)
            return data


class TseClient:
    """GETs against the TSE under the global cap; never raises for network or HTTP problems."""

    def __init__(
        self,
        config: ConfigTse,
        limiter: RateLimiter | None = None,
        sleep: Callable[[float], None] = time.sleep,
        relogio_servidor: ServerClock | None = None,
    ) -> None:
        self.config = config
        self.relogio_servidor = relogio_servidor or ServerClock()  # guards every answer's `Date`
        self.limiter = limiter or RateLimiter(config.requisicoes_por_segundo, config.rajada)
        self._sleep = sleep
        self._local = threading.local()
        self._sessions: list[requests.Session] = []
        self._lock = threading.Lock()
        self._vigia = Vigia()
        self._pool: ThreadPoolExecutor | None = None
        self.prazo: float | None = None  # monotonic deadline of the current cycle (None: none)

    def _session(self) -> tuple[requests.Session, _Adapter]:
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
            adapter = _Adapter(pool_connections=4, pool_maxsize=4, max_retries=0)
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            self._local.session, self._local.adapter = session, adapter
            with self._lock:
                self._sessions.append(session)
        return session, self._local.adapter

    def get(self, pedido: Pedido) -> Resposta:
        """One conditional GET with retries and backoff on timeouts, connection errors, 429 and 5xx.

        Each try ends by `prazo_total_s` (connect, headers and body); no try starts, and no body is
        read, past the cycle deadline. A URL off the configured base is refused without a request.
        """
        try:
            check_on_base(pedido.url, self.config.url_base)
        except ValidacaoError as exc:
            return Resposta(pedido.url, None, None, None, None, None, str(exc), 0)
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
            session, adapter = self._session()
            adapter.conexao = None
            restante = max(0.001, prazo - time.monotonic())
            token = self._vigia.armar(prazo, adapter.cortar)
            try:
                r = session.get(
                    pedido.url,
                    headers=headers,
                    timeout=(min(self.config.tempo_limite_s, restante), self.config.tempo_limite_s),
                    allow_redirects=False,
                    stream=True,
                )
                try:
                    corpo = read_body(
                        r.raw, r.headers.get("Content-Encoding", ""), prazo, self.config.tamanho_maximo
                    )
                finally:
                    r.close()
            except BodyError as exc:
                status, erro = None, str(exc)
                if not self._vigia.desarmar(token):
                    erro = f"prazo total da requisição esgotado ({self.config.prazo_total_s:g} s)"
                if not exc.repetir:
                    break
            except TRANSPORT_ERRORS as exc:
                status, erro = None, _transport_message(exc, self.config.tempo_limite_s)
                if not self._vigia.desarmar(token):
                    erro = f"prazo total da requisição esgotado ({self.config.prazo_total_s:g} s)"
            else:
                if not self._vigia.desarmar(token):
                    # Cut at the deadline after the body was read: the deadline is the rule.
                    status, erro = (
                        None,
                        f"prazo total da requisição esgotado ({self.config.prazo_total_s:g} s)",
                    )
                    continue
                status = r.status_code
                data = self.relogio_servidor.corrigir(_http_date(r.headers.get("Date")))
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
        """Close the pool, the watchdog and every session."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self._vigia.fechar()
        self._vigia = Vigia()
        with self._lock:
            for s in self._sessions:
                s.close()
            self._sessions.clear()
