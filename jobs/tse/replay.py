"""Replay server: a recorded (or simulated) night served under the TSE's real URL layout, on loopback.

`/<ambiente>/comum/config/ele-c.json`, `/<ambiente>/<ciclo>/<ele>/config/mun-e<ele6>-cm.json` and
`/<ambiente>/<ciclo>/<ele>/dados/<uf>/<file>` (`-u.json`, `.jws` twins, `-ab.json`), with ETag (MD5
of the body, like the CDN), Last-Modified, 304s, gzip, a 404 with the S3 `NoSuchKey` XML for
anything else, and a `Date` header on the night's own clock. It steps through the captures on a
timer or on request, and injects faults on demand, so the polling job cannot tell it from the TSE.

Admin endpoints (loopback only, like the server): `GET /_replay/estado`, `POST /_replay/avancar`
(`?para=K`, `?para=-1` the last capture), `POST /_replay/falhas` (JSON body: the faults,
replacing the current ones), `DELETE /_replay/falhas`.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import fnmatch
import gzip
import hashlib
import json
import re
import sys
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from jobs.tse.night import COVERAGE_NAME, RESULT_NAME, Noite
from model.tse_files import BRASILIA

HOST = "127.0.0.1"
NO_SUCH_KEY = (
    b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code>'
    b"<Message>The specified key does not exist.</Message></Error>"
)


@dataclass
class Falhas:
    """Faults to inject. Patterns are shell globs on the file name, with or without its extension
    (`sp-c0001-e006258-u` hits the `.json` and its `.jws`; `*.jws` only the twins)."""

    latencia_s: float = 0.0  # added to every answer
    erro_5xx: list[str] = field(default_factory=list)  # 503 Service Unavailable
    tempo_esgotado: list[str] = field(default_factory=list)  # hold the answer `espera_s` seconds
    espera_s: float = 30.0
    truncado: list[str] = field(default_factory=list)  # half the body, with a matching length
    congelado: dict[str, int] = field(default_factory=dict)  # pattern → capture it stays at
    relogio_min: dict[str, float] = field(default_factory=dict)  # pattern → minutes added to dg/hg, dt/ht
    somas: list[str] = field(default_factory=list)  # vvc ≠ vv + van + vansj
    ausente: list[str] = field(default_factory=list)  # 404 NoSuchKey
    jws_adulterado: list[str] = field(default_factory=list)  # one byte of the signature changed
    avanco_min: float = 0.0  # the night's clock runs this far ahead of the capture (a stall)
    data_congelada: str | None = None  # ISO instant every `Date` header shows (a CDN's cached answers)
    catalogo_sem: list[str] = field(default_factory=list)  # election codes dropped from ele-c.json
    municipios_sem: list[str] = field(default_factory=list)  # UFs dropped from every mun-e<ele>-cm.json

    @classmethod
    def de_json(cls, raw: dict[str, Any], captura_atual: int) -> Falhas:
        """Faults from the admin endpoint's JSON; `congelado` may be a list (frozen from now)."""
        known = {f for f in cls.__dataclass_fields__}
        extra = sorted(set(raw) - known)
        if extra:
            raise ValueError(f"falha desconhecida: {extra[0]}")
        dados = dict(raw)
        fixa = dados.get("data_congelada")
        if fixa is not None:
            dt.datetime.fromisoformat(str(fixa).replace("Z", "+00:00"))  # ValueError: refused (400)
        cong = dados.get("congelado", {})
        if isinstance(cong, list):
            dados["congelado"] = dict.fromkeys(cong, captura_atual)
        return cls(**dados)


def _match(nome: str, padroes: list[str] | dict[str, Any]) -> str | None:
    base = nome.rsplit(".", 1)[0]
    for p in padroes:
        if fnmatch.fnmatchcase(nome, p) or fnmatch.fnmatchcase(base, p):
            return p
    return None


def _drop_elections(raw: bytes, codigos: set[str]) -> bytes:
    """ele-c.json without the elections `codigos` (a catalogue that stops listing a race)."""
    d = json.loads(raw)
    for pleito in d.get("pl", []):
        pleito["e"] = [e for e in pleito.get("e", []) if str(e.get("cd")) not in codigos]
    return json.dumps(d, ensure_ascii=False, indent=1).encode("utf-8")


def _drop_ufs(raw: bytes, ufs: set[str]) -> bytes:
    """mun-e<ele>-cm.json without the UFs `ufs` (a municipality config that omits a UF)."""
    d = json.loads(raw)
    d["abr"] = [g for g in d.get("abr", []) if str(g.get("cd", "")).lower() not in ufs]
    return json.dumps(d, ensure_ascii=False, indent=1).encode("utf-8")


def _shift_times(raw: bytes, minutos: float) -> bytes:
    d = json.loads(raw)
    delta = dt.timedelta(minutes=minutos)
    for dkey, hkey in (("dg", "hg"), ("dt", "ht")):
        if d.get(dkey) and d.get(hkey):
            t = dt.datetime.strptime(f"{d[dkey]} {d[hkey]}", "%d/%m/%Y %H:%M:%S") + delta
            d[dkey], d[hkey] = t.strftime("%d/%m/%Y"), t.strftime("%H:%M:%S")
    return json.dumps(d, ensure_ascii=False).encode("utf-8")


def _break_sums(raw: bytes) -> bytes:
    d = json.loads(raw)
    v = d.get("v", {})
    v["vvc"] = str(int(v.get("vvc", "0")) + 1000)
    return json.dumps(d, ensure_ascii=False).encode("utf-8")


def _tamper_jws(raw: bytes) -> bytes:
    texto = bytearray(raw.strip())
    i = len(texto) - 10
    texto[i] = ord("A") if texto[i] != ord("A") else ord("B")
    return bytes(texto)


class EstadoReplay:
    """The night, the current capture, the faults and request counts; shared by handler threads."""

    def __init__(self, noite: Noite, intervalo_s: float | None = None, falhas: Falhas | None = None) -> None:
        self.noite = noite
        self.intervalo_s = intervalo_s
        self.falhas = falhas or Falhas()
        self.indice = 0
        self._inicio_passo = time.monotonic()
        self.lock = threading.Lock()
        self.contagem: Counter[str] = Counter()
        self.por_arquivo: Counter[str] = Counter()
        self.parar = threading.Event()

    def agora(self) -> dt.datetime:
        """The night's clock: the current capture's instant plus the real time spent on it."""
        with self.lock:
            base = self.noite.capturas[self.indice].instante + dt.timedelta(minutes=self.falhas.avanco_min)
            return base + dt.timedelta(seconds=time.monotonic() - self._inicio_passo)

    def avancar(self, para: int | None = None) -> int:
        """Move to the next capture (or to capture `para`; negative counts from the end, -1 the
        last); returns the new index."""
        with self.lock:
            ultimo = len(self.noite.capturas) - 1
            alvo = self.indice + 1 if para is None else (para if para >= 0 else ultimo + 1 + para)
            self.indice = max(0, min(ultimo, alvo))
            self._inicio_passo = time.monotonic()
            return self.indice

    def estado(self) -> dict[str, Any]:
        """What `GET /_replay/estado` answers."""
        with self.lock:
            return {
                "indice": self.indice,
                "captura": self.noite.capturas[self.indice].nome,
                "total": len(self.noite.capturas),
                "capturas": [c.nome for c in self.noite.capturas],
                "falhas": asdict(self.falhas),
                "respostas": dict(self.contagem),
                "pedidos_por_arquivo": dict(self.por_arquivo),
            }

    def relogio(self) -> None:
        """Step on a timer (`intervalo_s`) until the last capture or shutdown."""
        assert self.intervalo_s is not None
        while not self.parar.wait(self.intervalo_s):
            if self.indice >= len(self.noite.capturas) - 1:
                return
            self.noite.warm_coverage(self.avancar())


@dataclass(frozen=True)
class Corpo:
    """A body to serve and when it changed."""

    dados: bytes
    modificado: dt.datetime
    tipo: str = "application/json"


DATA_PATH = re.compile(
    r"^/(?P<amb>[^/]+)/(?P<ciclo>[^/]+)/(?P<ele>\d+)/dados/(?P<uf>[a-z]{2})/(?P<nome>[^/]+)$"
)
CM_PATH = re.compile(r"^/(?P<amb>[^/]+)/(?P<ciclo>[^/]+)/(?P<ele>\d+)/config/mun-e(?P<ele6>\d{6})-cm\.json$")


def resolve(estado: EstadoReplay, caminho: str) -> tuple[Corpo | None, str | None]:
    """The body at `caminho` for the current capture, after faults; (None, reason) for a 404.

    Returns the file name too (for per-file fault matching and counts).
    """
    noite = estado.noite
    with estado.lock:
        k = estado.indice
        falhas = estado.falhas
    inicio = noite.capturas[0].instante
    if caminho == f"/{noite.ambiente}/comum/config/ele-c.json":
        nome = "ele-c.json"
        if _match(nome, falhas.ausente):
            return None, nome
        corpo = noite.ele_c()
        if falhas.catalogo_sem:
            corpo = _drop_elections(corpo, set(falhas.catalogo_sem))
        return Corpo(corpo, inicio), nome
    m = CM_PATH.match(caminho)
    if m and m["amb"] == noite.ambiente and m["ciclo"] == noite.ciclo and int(m["ele6"]) == int(m["ele"]):
        nome = f"mun-e{m['ele6']}-cm.json"
        cm = noite.cm(str(int(m["ele"])))
        if cm is not None and falhas.municipios_sem:
            cm = _drop_ufs(cm, {u.lower() for u in falhas.municipios_sem})
        return (
            (Corpo(cm, inicio), nome) if cm is not None and not _match(nome, falhas.ausente) else (None, nome)
        )
    m = DATA_PATH.match(caminho)
    if not m or m["amb"] != noite.ambiente or m["ciclo"] != noite.ciclo:
        return None, None
    nome = m["nome"]
    r, c = RESULT_NAME.match(nome), COVERAGE_NAME.match(nome)
    achado = r or c
    if achado is None or achado["uf"] != m["uf"] or int(achado["ele"]) != int(m["ele"]):
        return None, nome
    if _match(nome, falhas.ausente):
        return None, nome
    padrao = _match(nome, falhas.congelado)
    if padrao is not None:
        k = min(k, falhas.congelado[padrao])
    if c and nome.endswith(".json"):
        dados = noite.cobertura(k, m["uf"], str(int(m["ele"])))
        if dados is None:
            return None, nome
        return Corpo(dados, noite.capturas[k].instante), nome
    servido = noite.corpo(k, nome)
    if servido is None:
        return None, nome
    dados, modificado = servido
    twin_of_changed = nome.endswith(".jws") and (
        _match(nome, falhas.relogio_min) or _match(nome, falhas.somas)
    )
    if twin_of_changed:
        return None, nome  # a changed body cannot be re-signed: its twin is not served
    try:
        if nome.endswith(".json") and (p := _match(nome, falhas.relogio_min)) is not None:
            dados = _shift_times(dados, falhas.relogio_min[p])
        if nome.endswith(".json") and _match(nome, falhas.somas):
            dados = _break_sums(dados)
    except (ValueError, KeyError, TypeError, AttributeError):
        pass  # a body that is not a TSE JSON is served as recorded
    if nome.endswith(".jws") and _match(nome, falhas.jws_adulterado):
        dados = _tamper_jws(dados)
    tipo = "application/jose" if nome.endswith(".jws") else "application/json"
    return Corpo(dados, modificado, tipo), nome


class ReplayHandler(BaseHTTPRequestHandler):
    """HTTP/1.1 handler; the server's `estado` holds the night."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms delayed-ACK stall
    server: ReplayServer
    server_version = "AkamaiGHost"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the job logs what matters."""

    def date_time_string(self, timestamp: float | None = None) -> str:
        """`Date` on the night's clock."""
        if timestamp is not None:
            return super().date_time_string(timestamp)
        estado = self.server.estado
        with estado.lock:
            congelada = estado.falhas.data_congelada
        if congelada:
            fixa = dt.datetime.fromisoformat(congelada.replace("Z", "+00:00"))
            return email.utils.format_datetime(fixa.astimezone(dt.UTC), usegmt=True)
        return email.utils.format_datetime(estado.agora().astimezone(dt.UTC), usegmt=True)

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)

    def _json(self, status: int, obj: Any) -> None:
        body = json.dumps(obj, ensure_ascii=False, indent=1).encode("utf-8")
        self._send(status, body, {"Content-Type": "application/json; charset=utf-8"})

    def _admin(self) -> bool:
        url = urllib.parse.urlsplit(self.path)
        if not url.path.startswith("/_replay/"):
            return False
        estado = self.server.estado
        acao = url.path.removeprefix("/_replay/")
        if self.command == "GET" and acao == "estado":
            self._json(200, estado.estado())
        elif self.command == "POST" and acao == "avancar":
            qs = urllib.parse.parse_qs(url.query)
            para = int(qs["para"][0]) if "para" in qs else None
            estado.avancar(para)
            self._json(200, estado.estado())
        elif acao == "falhas" and self.command in ("POST", "DELETE"):
            if self.command == "DELETE":
                novas = Falhas()
            else:
                tamanho = int(self.headers.get("Content-Length", "0"))
                try:
                    raw = json.loads(self.rfile.read(tamanho) or b"{}")
                    novas = Falhas.de_json(raw, estado.indice)
                except (ValueError, TypeError) as exc:
                    self._json(400, {"erro": str(exc)})
                    return True
            with estado.lock:
                estado.falhas = novas
            self._json(200, estado.estado())
        else:
            self._json(404, {"erro": f"ação desconhecida: {self.command} {url.path}"})
        return True

    def do_POST(self) -> None:
        """Admin actions only."""
        if not self._admin():
            self._send(405, b"")

    def do_DELETE(self) -> None:
        """Admin actions only."""
        if not self._admin():
            self._send(405, b"")

    def do_HEAD(self) -> None:
        """Same as GET without the body."""
        self.do_GET()

    def do_GET(self) -> None:
        """Serve a TSE path of the current capture, with the faults in force."""
        if self._admin():
            return
        estado = self.server.estado
        caminho = urllib.parse.urlsplit(self.path).path
        corpo, nome = resolve(estado, caminho)
        falhas = estado.falhas
        if falhas.latencia_s > 0:
            estado.parar.wait(falhas.latencia_s)
        arquivo = nome or caminho
        if nome and _match(nome, falhas.tempo_esgotado):
            estado.parar.wait(falhas.espera_s)
            self.close_connection = True
            self._count(arquivo, "tempo_esgotado")
            return
        if nome and _match(nome, falhas.erro_5xx):
            self._count(arquivo, "503")
            self._send(503, b"Service Unavailable", {"Content-Type": "text/plain", "Retry-After": "0"})
            return
        if corpo is None:
            self._count(arquivo, "404")
            self._send(404, NO_SUCH_KEY, {"Content-Type": "application/xml"})
            return
        etag = '"' + hashlib.md5(corpo.dados, usedforsecurity=False).hexdigest() + '"'
        modificado = corpo.modificado.astimezone(dt.UTC).replace(microsecond=0)
        cabecalhos = {
            "ETag": etag,
            "Last-Modified": email.utils.format_datetime(modificado, usegmt=True),
            "Cache-Control": "max-age=30",
            "Content-Type": corpo.tipo,
            "Vary": "Accept-Encoding",
        }
        if self._not_modified(etag, modificado):
            self._count(arquivo, "304")
            self._send(304, b"", {k: v for k, v in cabecalhos.items() if k != "Content-Type"})
            return
        dados = corpo.dados
        if nome and _match(nome, falhas.truncado):
            dados = dados[: len(dados) // 2]
        if "gzip" in self.headers.get("Accept-Encoding", ""):
            dados = gzip.compress(dados, compresslevel=5, mtime=0)
            cabecalhos["Content-Encoding"] = "gzip"
        self._count(arquivo, "200")
        self._send(200, dados, cabecalhos)

    def _not_modified(self, etag: str, modificado: dt.datetime) -> bool:
        inm = self.headers.get("If-None-Match")
        if inm is not None:
            return etag in [t.strip() for t in inm.split(",")] or inm.strip() == "*"
        ims = self.headers.get("If-Modified-Since")
        if ims:
            try:
                desde = email.utils.parsedate_to_datetime(ims)
            except (TypeError, ValueError):
                return False
            return modificado <= desde
        return False

    def _count(self, arquivo: str, resposta: str) -> None:
        estado = self.server.estado
        with estado.lock:
            estado.contagem[resposta] += 1
            estado.por_arquivo[arquivo] += 1


class ReplayServer(ThreadingHTTPServer):
    """ThreadingHTTPServer on loopback holding an EstadoReplay."""

    daemon_threads = True
    allow_reuse_address = True
    # The polling job opens `conexoes` (8) connections at once; past the standard library's listen
    # backlog of 5 the kernel drops the SYNs and the client resends them a second later.
    request_queue_size = 64

    def __init__(self, estado: EstadoReplay, porta: int = 0) -> None:
        self.estado = estado
        super().__init__((HOST, porta), ReplayHandler)
        self._relogio: threading.Thread | None = None

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up (it timed out) is normal here; anything else is printed."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    @property
    def url_base(self) -> str:
        """`http://127.0.0.1:<porta>` (what `[tse] url_base` should say)."""
        return f"http://{HOST}:{self.server_address[1]}"

    def iniciar(self) -> threading.Thread:
        """Serve in a background thread (and step on the timer when `intervalo_s` is set)."""
        t = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.05}, name="tse-replay", daemon=True
        )
        t.start()
        if self.estado.intervalo_s:
            self._relogio = threading.Thread(
                target=self.estado.relogio, name="tse-replay-relogio", daemon=True
            )
            self._relogio.start()
        return t

    def parar(self) -> None:
        """Stop serving and release held answers."""
        self.estado.parar.set()
        self.shutdown()
        self.server_close()


def make_server(
    noite_dir: Path, porta: int = 0, intervalo_s: float | None = None, falhas: Falhas | None = None
) -> ReplayServer:
    """A replay server for a night folder (not yet serving: call `iniciar` or `serve_forever`)."""
    return ReplayServer(EstadoReplay(Noite.abrir(noite_dir), intervalo_s, falhas), porta)


def brasilia(t: dt.datetime) -> str:
    """A UTC instant as Brasília time, for log lines."""
    return t.astimezone(BRASILIA).strftime("%d/%m/%Y %H:%M:%S")
