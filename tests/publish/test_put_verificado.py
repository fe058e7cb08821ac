"""A PUT answered 200 whose object is then absent, or holds other bytes, is noticed even when the
answer carries the body's own MD5 as ETag (issue 22): the publisher reads back every object it
wrote (HEAD: size and ETag), fails in Portuguese naming the file, records nothing it cannot vouch
for, and readers keep the previous pages (nothing of a later tier was sent). The store is moto's
server behind a loopback proxy that lies. Before the fix, an answer whose ETag was the body's MD5
was believed: the publish "succeeded" and the bucket missed the file (test_verificacao.py covers
the proxy whose answer gives the lie away)."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import http.client
import http.server
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from jobs.publish import manifest
from jobs.publish.publisher import PublishError, publicar
from jobs.publish.targets import S3Target, boto3_client
from tests.publish.conftest import S3, broken_references, md5s, write_site
from tests.support.servidor import em_segundo_plano

# What describes the body of a PUT: dropped with it when the proxy stores other bytes.
_BODY_HEADERS = (
    "content-md5",
    "content-encoding",
    "transfer-encoding",
    "x-amz-content-sha256",
    "x-amz-decoded-content-length",
    "x-amz-trailer",
    "x-amz-sdk-checksum-algorithm",
    "x-amz-checksum-",
)


def _proxy(upstream: str, mode: dict[str, str]) -> http.server.ThreadingHTTPServer:
    """Relays to `upstream`; while `mode["put"]` is "descartar" a PUT is answered 200 with the
    MD5 the client sent as ETag and never forwarded; "trocar" forwards other bytes of the same
    size and answers that same ETag."""
    parts = urlsplit(upstream)

    class Handler(http.server.BaseHTTPRequestHandler):
        # botocore sends each PUT with `Expect: 100-continue` and holds the body until the server
        # says "100 Continue" or a second has passed; http.server says it only under HTTP/1.1.
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            del format, args

        def _answer(self, status: int, headers: list[tuple[str, str]], data: bytes) -> None:
            self.send_response(status)
            skip: tuple[str, ...] = ("transfer-encoding", "connection", "server", "date")
            if self.command != "HEAD":  # a HEAD's length is the object's, not of its empty body
                skip += ("content-length",)
            for key, value in headers:
                if key.lower() not in skip:
                    self.send_header(key, value)
            if self.command != "HEAD":
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _relay(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
            lie = mode.get("put", "") if self.command == "PUT" else ""
            etag = ""
            if lie:
                etag = base64.b64decode(headers.get("Content-MD5", "")).hex()
            if lie == "descartar":
                self._answer(200, [("ETag", f'"{etag}"')], b"")
                return
            if lie == "trocar":
                body = bytes(b ^ 0x20 for b in body)  # same size, other bytes
                headers = {k: v for k, v in headers.items() if not k.lower().startswith(_BODY_HEADERS)}
                headers["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD"
                headers["Content-Length"] = str(len(body))
            connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port)
            try:
                connection.request(self.command, self.path, body=body, headers=headers)
                answer = connection.getresponse()
                data = answer.read()
            finally:
                connection.close()
            replies = answer.getheaders()
            if lie:
                replies = [(k, v) for k, v in replies if k.lower() != "etag"] + [("ETag", f'"{etag}"')]
            self._answer(answer.status, replies, data)

        do_GET = do_PUT = do_HEAD = do_POST = do_DELETE = _relay  # noqa: N815 - http.server's names

    return http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)


@pytest.fixture
def mentiroso(s3: S3) -> Iterator[tuple[S3Target, dict[str, str]]]:
    """The test's bucket through the lying proxy, and the switch of its PUT mode."""
    mode: dict[str, str] = {}
    server = _proxy(s3.endpoint, mode)
    thread = em_segundo_plano(server)
    host, port = server.server_address[:2]
    client = boto3_client("s3", s3.config, f"http://{host!s}:{port}")
    try:
        yield S3Target(client, s3.bucket, "", s3.endpoint), mode
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.parametrize(
    ("modo", "mensagem"),
    [
        ("descartar", r"o bucket aceitou static/estilo\.[0-9a-f]+\.css, mas o objeto não está lá"),
        ("trocar", r"o bucket aceitou static/estilo\.[0-9a-f]+\.css, mas guardou outro conteúdo"),
    ],
)
def test_put_com_200_e_etag_certo_mas_nao_guardado_falha_e_o_site_anterior_fica(
    s3: S3, tmp_path: Path, mentiroso: tuple[S3Target, dict[str, str]], modo: str, mensagem: str
) -> None:
    target, mode = mentiroso
    config = dataclasses.replace(s3.config, graca_assets_h=0)
    public = tmp_path / "public"
    public.mkdir()
    v1 = write_site(public, version=1)
    publicar(config, public, destino=target)  # the proxy relays faithfully
    assert s3.md5s() == md5s(v1)
    v2 = write_site(public, version=2)
    mode["put"] = modo
    with pytest.raises(PublishError, match=mensagem):
        publicar(config, public, destino=target)

    objetos = s3.objects()
    paginas = {k: v for k, v in objetos.items() if k.endswith(".html")}
    assert paginas == {k: v for k, v in v1.items() if k.endswith(".html")}  # readers keep the old site
    assert broken_references(objetos) == []
    known = manifest.load(manifest.manifest_path(config.estado, target.identity), target.identity)
    for key, entry in known.objects.items():  # the manifest vouches only for what is there
        assert hashlib.md5(objetos[key], usedforsecurity=False).hexdigest() == entry.md5, key

    mode.clear()
    publicar(config, public, destino=target)  # the rerun through a healthy store converges
    assert s3.md5s() == md5s(v2)
