"""A fault proxy on loopback, in front of the replay server: hostile answers the TSE's CDN could give.

The replay server (jobs/tse/replay.py) has the night's faults (5xx, timeouts, truncation, frozen
files, clock skew); this proxy adds what an attacker or a broken edge could do to the bytes and the
transport, per file (shell globs on the name, with or without its extension, like the replay):

| fault | what the job receives |
|---|---|
| `ausente` | 404 `NoSuchKey` (e.g. a `.jws` twin removed) |
| `adulterado` | the two leaders' votes swapped (sums add up: a wrong leader); on a `.jws` the payload |
|  | is changed and the original signature kept |

On a `.jws`, the other content faults change the payload and, when the proxy has a signer
(`assinar`, the test key of a signed night), sign it again: a bad file the TSE itself signed.
| `outra_eleicao` | `ele` says another election |
| `trocado` | another file's bytes (another UF's) under this name |
| `totais_menores` | half the sections and voters totalized (a reading that went down) |
| `negativos` | a candidate with negative votes |
| `esquema` | valid JSON, not a TSE result file |
| `gotejar` | the body one byte every `gotejar_s` seconds |
| `enorme` | the file padded with spaces to `enorme_bytes` (still valid JSON) |
| `bomba_gzip` | a gzip body that decodes to `bomba_bytes` |
| `inflado` | the leader gets more votes than the totalized electorate, every vote sum kept |
| `repetido` | the leader listed a second time with 0 votes (sums kept: the last entry would win) |
| `renumerado` | the runner-up's number changed to 77 (a new number appears, an old one vanishes) |
| `digitos` | `s.ts` is `"²"` (`str.isdigit` is true for it) |
| `gigante` | `v.vb` is a 5,000-digit number |
| `profundo` | JSON nested 100,000 deep |
| `cortado` | the full length announced, half the body sent, the connection closed |
| `gotejar_cabecalho` | the status line and headers one byte every `gotejar_s` seconds |

Config files (`ele-c.json`, `mun-e<ele>-cm.json`): `catalogo_modelo` replaces the `u` URL template
of the catalogue (e.g. `<base>@other-host/...`); `municipio_codigo` replaces the code of the first
UF group of the municipality config (e.g. `../../../../esc`).

Everything else is passed through (validators, `Date`, status), so the job cannot tell the proxy
from the replay server. `contagem` counts answers per fault.
"""

from __future__ import annotations

import base64
import fnmatch
import gzip
import hashlib
import http.client
import json
import threading
import urllib.parse
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from jobs.tse.replay import NO_SUCH_KEY, ReplayServer
from tests.support.servidor import em_segundo_plano

HOST = "127.0.0.1"
CHUNK = 1024 * 1024


@dataclass
class FalhasProxy:
    """Faults by file pattern (see the module table)."""

    ausente: list[str] = field(default_factory=list)
    adulterado: list[str] = field(default_factory=list)
    outra_eleicao: list[str] = field(default_factory=list)
    trocado: dict[str, str] = field(default_factory=dict)  # pattern -> file name served instead
    totais_menores: list[str] = field(default_factory=list)
    negativos: list[str] = field(default_factory=list)
    esquema: list[str] = field(default_factory=list)
    gotejar: list[str] = field(default_factory=list)
    gotejar_s: float = 0.2
    enorme: list[str] = field(default_factory=list)
    enorme_bytes: int = 3 * CHUNK
    bomba_gzip: list[str] = field(default_factory=list)
    bomba_bytes: int = 64 * CHUNK
    inflado: list[str] = field(default_factory=list)
    repetido: list[str] = field(default_factory=list)
    renumerado: list[str] = field(default_factory=list)
    digitos: list[str] = field(default_factory=list)
    gigante: list[str] = field(default_factory=list)
    profundo: list[str] = field(default_factory=list)
    cortado: list[str] = field(default_factory=list)
    gotejar_cabecalho: list[str] = field(default_factory=list)
    catalogo_modelo: str | None = None
    municipio_codigo: str | None = None


def _match(nome: str, padroes: list[str] | dict[str, str]) -> str | None:
    base = nome.rsplit(".", 1)[0]
    for p in padroes:
        if fnmatch.fnmatchcase(nome, p) or fnmatch.fnmatchcase(base, p):
            return p
    return None


def _candidates(d: dict[str, Any]) -> list[dict[str, Any]]:
    return [cand for agr in d["carg"][0]["agr"] for par in agr.get("par", []) for cand in par.get("cand", [])]


def _swap_leaders(d: dict[str, Any]) -> None:
    cands = sorted(_candidates(d), key=lambda c: -int(c["vap"]))
    a, b = cands[0], cands[1]
    a["vap"], b["vap"] = b["vap"], a["vap"]
    for key in ("pvap", "pvapn"):
        if key in a and key in b:
            a[key], b[key] = b[key], a[key]


def _lower(d: dict[str, Any]) -> None:
    """Half the count, every identity kept (a consistent reading that went down)."""
    s, e, v = d["s"], d["e"], d["v"]
    s["st"] = str(int(s["st"]) // 2)
    s["snt"] = str(int(s["ts"]) - int(s["st"]))
    e["est"] = str(int(e["est"]) // 2)
    e["esnt"] = str(int(e["te"]) - int(e["est"]))
    _rescale(d, lambda x: x // 2)
    v["vb"], v["vn"], v["vnt"] = (str(int(v[k]) // 2) for k in ("vb", "vn", "vnt"))
    _totals(d)


def _rescale(d: dict[str, Any], f: Callable[[int], int]) -> None:
    for cand in _candidates(d):
        cand["vap"] = str(f(int(cand["vap"])))


def _totals(d: dict[str, Any]) -> None:
    """vv, vvc, tv and c from the candidates and the blank/null votes (all candidates valid)."""
    v = d["v"]
    vv = sum(int(c["vap"]) for c in _candidates(d) if str(c.get("dvt", "Válido")).startswith("Válido"))
    v["vv"] = str(vv)
    if "vnom" in v:
        v["vnom"] = str(vv)
    v["vvc"] = str(vv + int(v["van"]) + int(v["vansj"]))
    tv = sum(int(v[k]) for k in ("vb", "vn", "vnt", "van", "vansj")) + vv
    v["tv"] = str(tv)
    if "c" in d["e"]:
        d["e"]["c"] = str(tv)


def _negative(d: dict[str, Any]) -> None:
    _candidates(d)[0]["vap"] = "-5"


def _leader(d: dict[str, Any]) -> dict[str, Any]:
    return max(_candidates(d), key=lambda c: int(c["vap"]))


def _inflate(d: dict[str, Any]) -> None:
    extra = int(d["e"]["est"])
    lider = _leader(d)
    lider["vap"] = str(int(lider["vap"]) + extra)
    _totals(d)


def _repeat(d: dict[str, Any]) -> None:
    lider = _leader(d)
    d["carg"][0]["agr"][0]["par"][0]["cand"].append(dict(lider, vap="0"))


def _renumber(d: dict[str, Any]) -> None:
    cands = sorted(_candidates(d), key=lambda c: -int(c["vap"]))
    cands[1]["n"] = "77"


def _edit(raw: bytes, fn: Any) -> bytes:
    d = json.loads(raw)
    fn(d)
    return json.dumps(d, ensure_ascii=False).encode("utf-8")


def _b64d(texto: str) -> bytes:
    return base64.urlsafe_b64decode(texto + "=" * (-len(texto) % 4))


def _alter_json(falha: str, corpo: bytes) -> bytes:
    if falha == "adulterado":
        return _edit(corpo, _swap_leaders)
    if falha == "outra_eleicao":
        return _edit(corpo, lambda d: d.update(ele="6257"))
    if falha == "totais_menores":
        return _edit(corpo, _lower)
    if falha == "negativos":
        return _edit(corpo, _negative)
    if falha == "esquema":
        return b'{"ele": "6258", "mensagem": "manutencao programada"}'
    if falha == "inflado":
        return _edit(corpo, _inflate)
    if falha == "repetido":
        return _edit(corpo, _repeat)
    if falha == "renumerado":
        return _edit(corpo, _renumber)
    if falha == "digitos":
        return _edit(corpo, lambda d: d["s"].update(ts="²"))
    if falha == "gigante":
        return _edit(corpo, lambda d: d["v"].update(vb="1" * 5000))
    if falha == "profundo":
        return b"[" * 100_000 + b"]" * 100_000
    raise ValueError(falha)


def _alter_config(nome: str, corpo: bytes, f: FalhasProxy) -> bytes | None:
    """The catalogue or municipality config with its fault, or None when it has none."""
    if nome == "ele-c.json" and f.catalogo_modelo is not None:
        d = json.loads(corpo)
        for item in d.get("arq", []):
            if "u" in str(item.get("tp", "")).split("|"):
                item["tp"] = "u"
                item["dir"] = f.catalogo_modelo
        return json.dumps(d).encode()
    if fnmatch.fnmatchcase(nome, "mun-e*-cm.json") and f.municipio_codigo is not None:
        d = json.loads(corpo)
        d["abr"][0]["cd"] = f.municipio_codigo
        return json.dumps(d).encode()
    return None


class EstadoProxy:
    """Upstream address, faults, counts; shared by handler threads."""

    def __init__(self, upstream: str, assinar: Callable[[bytes], bytes] | None = None) -> None:
        self.assinar = assinar
        url = urllib.parse.urlsplit(upstream)
        self.host, self.porta = url.hostname or HOST, url.port or 80
        self.falhas = FalhasProxy()
        self.lock = threading.Lock()
        self.contagem: Counter[str] = Counter()
        self.parar = threading.Event()
        self._bombas: dict[int, bytes] = {}
        self.outro_host = ""  # host:port of a second (hostile) server, for catalogue faults

    def bomba(self, tamanho: int) -> bytes:
        """A gzip member of `tamanho` spaces after `{}` (valid JSON once decoded), built once."""
        with self.lock:
            if tamanho not in self._bombas:
                comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
                partes = [comp.compress(b"{}")]
                bloco = b" " * CHUNK
                for _ in range(tamanho // CHUNK):
                    partes.append(comp.compress(bloco))
                partes.append(comp.flush())
                self._bombas[tamanho] = b"".join(partes)
            return self._bombas[tamanho]


class ProxyHandler(BaseHTTPRequestHandler):
    """Forward a GET to the replay server and apply the faults of its file."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: ProxyServer
    server_version = "AkamaiGHost"
    sys_version = ""
    _date: str | None = None

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    def date_time_string(self, timestamp: float | None = None) -> str:
        """The replay server's `Date` (the night's clock) when there is one."""
        return self._date or super().date_time_string(timestamp)

    def _upstream(self, path: str, conditional: bool) -> tuple[int, dict[str, str], bytes]:
        estado = self.server.estado
        headers = {}
        if conditional:
            for h in ("If-None-Match", "If-Modified-Since"):
                if self.headers.get(h):
                    headers[h] = self.headers[h]
        conn = http.client.HTTPConnection(estado.host, estado.porta, timeout=60)
        try:
            conn.request("GET", path, headers=headers)
            r = conn.getresponse()
            return r.status, {k: v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    def _count(self, what: str) -> None:
        with self.server.estado.lock:
            self.server.estado.contagem[what] += 1

    def do_GET(self) -> None:
        """Pass through, or answer with the fault of this file."""
        estado = self.server.estado
        with estado.lock:
            f = estado.falhas
        path = urllib.parse.urlsplit(self.path).path
        nome = path.rsplit("/", 1)[-1]
        if _match(nome, f.ausente):
            self._count("ausente")
            self._send(404, NO_SUCH_KEY, {"Content-Type": "application/xml"})
            return
        body_faults: dict[str, list[str] | dict[str, str]] = {
            "adulterado": f.adulterado,
            "outra_eleicao": f.outra_eleicao,
            "trocado": f.trocado,
            "totais_menores": f.totais_menores,
            "negativos": f.negativos,
            "esquema": f.esquema,
            "gotejar": f.gotejar,
            "enorme": f.enorme,
            "bomba_gzip": f.bomba_gzip,
            "inflado": f.inflado,
            "repetido": f.repetido,
            "renumerado": f.renumerado,
            "digitos": f.digitos,
            "gigante": f.gigante,
            "profundo": f.profundo,
            "cortado": f.cortado,
            "gotejar_cabecalho": f.gotejar_cabecalho,
        }
        falha = next((k for k, pads in body_faults.items() if _match(nome, pads)), None)
        if falha == "trocado":
            outro = f.trocado[_match(nome, f.trocado) or ""]
            if "." not in outro:  # a base name: the other file with this request's extension
                outro += "." + nome.rsplit(".", 1)[-1]
            path = path.rsplit("/", 2)[0] + f"/{outro[:2]}/{outro}"
        config = nome == "ele-c.json" or fnmatch.fnmatchcase(nome, "mun-e*-cm.json")
        alterar_config = config and (f.catalogo_modelo is not None or f.municipio_codigo is not None)
        status, headers, corpo = self._upstream(path, conditional=falha is None and not alterar_config)
        self._date = headers.get("Date")
        novo = _alter_config(nome, corpo, f) if alterar_config and status == 200 else None
        if novo is not None:
            self._count("config")
            self._send(200, novo, {"Content-Type": "application/json"})
            return
        if falha is None or status != 200:
            self._count("repassado")
            keep = ("ETag", "Last-Modified", "Cache-Control", "Content-Type", "Content-Encoding", "Vary")
            self._send(status, corpo, {k: headers[k] for k in keep if k in headers})
            return
        self._count(falha)
        if falha == "gotejar":
            self._drip(corpo, f.gotejar_s)
            return
        if falha == "enorme":
            self._huge(corpo, f.enorme_bytes)
            return
        if falha == "gotejar_cabecalho":
            self._drip_headers(corpo, f.gotejar_s)
            return
        if falha == "cortado":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(corpo)))
            self.end_headers()
            self.close_connection = True
            try:
                self.wfile.write(corpo[: len(corpo) // 2])
                self.wfile.flush()
                self.connection.shutdown(2)
            except OSError:
                pass
            return
        if falha == "bomba_gzip":
            self._send(
                200,
                estado.bomba(f.bomba_bytes),
                {"Content-Type": "application/json", "Content-Encoding": "gzip"},
            )
            return
        corpo = self._alter(falha, nome, corpo)
        etag = '"' + hashlib.md5(corpo, usedforsecurity=False).hexdigest() + '"'
        if self.headers.get("If-None-Match") == etag:
            self._send(304, b"", {"ETag": etag})
            return
        cab = {"ETag": etag, "Content-Type": headers.get("Content-Type", "application/json")}
        if "gzip" in self.headers.get("Accept-Encoding", ""):
            corpo = gzip.compress(corpo, mtime=0)
            cab["Content-Encoding"] = "gzip"
        self._send(200, corpo, cab)

    def _alter(self, falha: str, nome: str, corpo: bytes) -> bytes:
        if falha == "trocado":
            return corpo  # another file's bytes, as they are (its own valid signature included)
        if not nome.endswith(".jws"):
            return _alter_json(falha, corpo)
        header, payload, signature = corpo.strip().split(b".")
        novo = _alter_json(falha, _b64d(payload.decode("ascii")))
        assinar = self.server.estado.assinar
        if falha != "adulterado" and assinar is not None:
            return assinar(novo)  # a bad file the signer did sign: only the model can refuse it
        return b".".join([header, base64.urlsafe_b64encode(novo).rstrip(b"="), signature])

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def _drip(self, corpo: bytes, intervalo: float) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(corpo)))
        self.end_headers()
        self.close_connection = True
        parar = self.server.estado.parar
        for i in range(len(corpo)):
            if parar.wait(intervalo):
                return
            try:
                self.wfile.write(corpo[i : i + 1])
                self.wfile.flush()
            except OSError:
                return  # the client gave up: what the job should do

    def _drip_headers(self, corpo: bytes, intervalo: float) -> None:
        self.close_connection = True
        cab = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        cab += b"".join(b"X-Lento-%d: a\r\n" % i for i in range(40))
        data = cab + b"Content-Length: %d\r\n\r\n" % len(corpo) + corpo
        parar = self.server.estado.parar
        for i in range(len(data)):
            if parar.wait(intervalo):
                return
            try:
                self.wfile.write(data[i : i + 1])
                self.wfile.flush()
            except OSError:
                return  # the client gave up: what the job should do

    def _huge(self, corpo: bytes, tamanho: int) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(max(tamanho, len(corpo))))
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(corpo)
            falta = tamanho - len(corpo)
            while falta > 0:
                n = min(CHUNK, falta)
                self.wfile.write(b" " * n)
                falta -= n
        except OSError:
            return  # the client stopped reading at its cap


class ProxyServer(ThreadingHTTPServer):
    """ThreadingHTTPServer on loopback holding an EstadoProxy."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = ReplayServer.request_queue_size  # the job's connections at once, as upstream

    def __init__(self, upstream: str, assinar: Callable[[bytes], bytes] | None = None) -> None:
        self.estado = EstadoProxy(upstream, assinar)
        super().__init__((HOST, 0), ProxyHandler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up is the expected outcome of most faults here."""

    @property
    def url_base(self) -> str:
        """`http://127.0.0.1:<porta>`."""
        return f"http://{HOST}:{self.server_address[1]}"

    def falhas(self, **falhas: Any) -> None:
        """Replace the faults."""
        with self.estado.lock:
            self.estado.falhas = FalhasProxy(**falhas)

    def limpar(self) -> None:
        """No fault."""
        self.falhas()

    def iniciar(self) -> None:
        """Serve in a background thread."""
        em_segundo_plano(self)

    def parar(self) -> None:
        """Stop serving and release dripping answers."""
        self.estado.parar.set()
        self.shutdown()
        self.server_close()
