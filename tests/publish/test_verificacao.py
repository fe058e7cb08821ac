"""A store that answers 200 to a PUT but does not keep the bytes (issue 22, item 8) is noticed: the
publish fails naming the file, and the manifest never records it as published. The store is
moto's server behind a loopback proxy that drops the body of every PUT on the way."""

from __future__ import annotations

import dataclasses
import http.client
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from jobs.publish import manifest
from jobs.publish.publisher import PublishError, publicar
from jobs.publish.targets import S3Target, boto3_client
from tests.publish.conftest import S3, md5s, write_site
from tests.support.servidor import em_segundo_plano

# What describes the body: gone with it, so the store takes the empty body as the request's own.
_BODY_HEADERS = (
    "content-length",
    "content-md5",
    "content-encoding",
    "transfer-encoding",
    "x-amz-content-sha256",
    "x-amz-decoded-content-length",
    "x-amz-trailer",
    "x-amz-sdk-checksum-algorithm",
)


def _proxy(upstream: str, drop: threading.Event) -> http.server.ThreadingHTTPServer:
    parts = urlsplit(upstream)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # "100 Continue" to botocore's PUTs (test_put_verificado.py)

        def log_message(self, format: str, *args: object) -> None:
            del format, args

        def _relay(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
            if self.command == "PUT" and drop.is_set():
                body = b""
                headers = {k: v for k, v in headers.items() if not k.lower().startswith(_BODY_HEADERS)}
                headers = {k: v for k, v in headers.items() if not k.lower().startswith("x-amz-checksum-")}
                headers["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD"
            connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port)
            try:
                connection.request(self.command, self.path, body=body, headers=headers)
                answer = connection.getresponse()
                data = answer.read()
            finally:
                connection.close()
            self.send_response(answer.status)
            skip: tuple[str, ...] = ("transfer-encoding", "connection", "server", "date")
            if self.command != "HEAD":  # a HEAD's length is the object's, not of its empty body
                skip += ("content-length",)
            for key, value in answer.getheaders():
                if key.lower() not in skip:
                    self.send_header(key, value)
            if self.command != "HEAD":
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_PUT = do_HEAD = do_POST = do_DELETE = _relay  # noqa: N815 - http.server's names

    return http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)


@pytest.fixture
def sem_corpo(s3: S3) -> Iterator[tuple[S3Target, threading.Event]]:
    """The test's bucket through the proxy, and the switch that makes it drop PUT bodies."""
    drop = threading.Event()
    server = _proxy(s3.endpoint, drop)
    thread = em_segundo_plano(server)
    host, port = server.server_address[:2]
    client = boto3_client("s3", s3.config, f"http://{host!s}:{port}")
    try:
        yield S3Target(client, s3.bucket, "", s3.endpoint), drop
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_put_answered_but_not_stored_is_noticed_and_not_recorded(
    s3: S3, tmp_path: Path, sem_corpo: tuple[S3Target, threading.Event]
) -> None:
    target, drop = sem_corpo
    config = dataclasses.replace(s3.config, graca_assets_h=0)  # old assets go at once: compare all
    public = tmp_path / "public"
    write_site(public, version=1)
    publicar(config, public, destino=target)  # through the proxy, bodies kept: it relays faithfully
    v2 = write_site(public, version=2)
    drop.set()
    with pytest.raises(PublishError, match=r"o bucket aceitou .*, mas guardou outro conteúdo"):
        publicar(config, public, destino=target)
    path = manifest.manifest_path(config.estado, target.identity)
    known = manifest.load(path, target.identity)
    stored = s3.md5s()
    for key, entry in known.objects.items():
        assert stored.get(key) == entry.md5, key  # the manifest vouches only for what is there
    drop.clear()
    publicar(config, public, destino=target)  # the rerun through a healthy store converges
    assert s3.md5s() == md5s(v2)
