"""Fixtures: moto's standalone S3 server on loopback, a fresh bucket per test, and small built sites."""

from __future__ import annotations

import hashlib
import itertools
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from moto.server import ThreadedMotoServer

from jobs.publish.config import PublishConfig
from jobs.publish.targets import S3Target, boto3_client
from site_builder.links import internal_links, target_of

_bucket_numbers = itertools.count(1)


@dataclass
class S3:
    """A bucket on the moto server and the configuration pointing at it."""

    endpoint: str
    client: Any
    bucket: str
    config: PublishConfig
    target: S3Target  # the bucket, through the session's client

    def objects(self) -> dict[str, bytes]:
        """Every object of the bucket with its bytes."""
        out: dict[str, bytes] = {}
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket):
            for item in page.get("Contents", ()):
                body = self.client.get_object(Bucket=self.bucket, Key=item["Key"])["Body"].read()
                out[item["Key"]] = body
        return out

    def md5s(self) -> dict[str, str]:
        """Every object of the bucket with the MD5 its listing reports (no body is read)."""
        out: dict[str, str] = {}
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket):
            for item in page.get("Contents", ()):
                out[item["Key"]] = item["ETag"].strip('"')
        return out

    def html(self) -> dict[str, bytes]:
        """The HTML objects with their bytes, and every other key with no bytes."""
        return {
            key: self.client.get_object(Bucket=self.bucket, Key=key)["Body"].read()
            if key.endswith(".html")
            else b""
            for key in self.md5s()
        }

    def head(self, key: str) -> dict[str, Any]:
        """HEAD of one object."""
        answer: dict[str, Any] = self.client.head_object(Bucket=self.bucket, Key=key)
        return answer


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    """moto's S3/CloudFront server in this process, on a free loopback port."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request is noise
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AWS_ACCESS_KEY_ID", "teste")
        mp.setenv("AWS_SECRET_ACCESS_KEY", "teste")
        mp.delenv("AWS_PROFILE", raising=False)
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
        host, port = server.get_host_and_port()
        try:
            yield f"http://{host}:{port}"
        finally:
            server.stop()


@pytest.fixture(scope="session")
def moto_s3_client(moto_endpoint: str) -> Any:
    """One boto3 client for the whole session (creating one costs a tenth of a second)."""
    return boto3_client("s3", PublishConfig(), moto_endpoint)


@pytest.fixture
def s3(moto_endpoint: str, moto_s3_client: Any, tmp_path: Path) -> S3:
    """A new empty bucket and a configuration publishing to it (state kept in tmp_path)."""
    bucket = f"site-teste-{next(_bucket_numbers)}"
    config = PublishConfig(
        destino="s3",
        endpoint=moto_endpoint,
        bucket=bucket,
        estado=tmp_path / "estado",
        paralelo=4,
        verificar_bucket_s=0,  # list the bucket at every publish (the fast path has its own test)
    )
    moto_s3_client.create_bucket(Bucket=bucket)
    return S3(
        moto_endpoint, moto_s3_client, bucket, config, S3Target(moto_s3_client, bucket, "", moto_endpoint)
    )


def md5s(files: dict[str, bytes]) -> dict[str, str]:
    """The MD5 of each file, as an S3 listing reports it."""
    return {k: hashlib.md5(v, usedforsecurity=False).hexdigest() for k, v in files.items()}


def asset_name(stem: str, ext: str, data: bytes) -> str:
    """A content-hashed asset path, like the site builder names them."""
    return f"static/{stem}.{hashlib.sha256(data).hexdigest()[:10]}.{ext}"


def write_site(public: Path, version: int = 1, pages: int = 5) -> dict[str, bytes]:
    """A small built site (assets, data JSON, pages, sitemap) whose CSS changes with `version`."""
    css = f"body {{ color: #{version:06d}; }}\n".encode()
    css_path = asset_name("estilo", "css", css)
    files: dict[str, bytes] = {
        css_path: css,
        "static/favicon.svg": b"<svg xmlns='http://www.w3.org/2000/svg'/>",
    }
    files["projecao/presidente/saida.json"] = b'{"modelo": {"versao": "1"}, "v": %d}' % version
    links = "".join(f'<a href="/checagens/p{i}/">p{i}</a>' for i in range(pages))
    head = f'<!doctype html><link rel="stylesheet" href="/{css_path}">'
    files["index.html"] = (
        f'{head}<link rel="icon" href="/static/favicon.svg">'
        f'<script src="/projecao/presidente/saida.json"></script>{links}'
    ).encode()
    for i in range(pages):
        files[f"checagens/p{i}/index.html"] = f'{head}<h1>Página {i}</h1><a href="/">início</a>'.encode()
    files["404.html"] = f"{head}não achei".encode()
    files["sitemap.xml"] = "".join(f"<url>/checagens/p{i}/</url>" for i in range(pages)).encode()
    for rel, data in files.items():
        (public / rel).parent.mkdir(parents=True, exist_ok=True)
        if not (public / rel).is_file() or (public / rel).read_bytes() != data:
            (public / rel).write_bytes(data)  # like the builder: an unchanged file is not touched
    for path in public.rglob("*"):
        if path.is_file() and path.relative_to(public).as_posix() not in files:
            path.unlink()  # what the builder removes when an output leaves the site
    return files


def broken_references(objects: dict[str, bytes]) -> list[str]:
    """Links of HTML objects that name an object not in `objects` (the site is inconsistent)."""
    broken = []
    for key, data in objects.items():
        if key.endswith(".html"):
            for link in internal_links(data.decode("utf-8")):
                if target_of(link) not in objects:
                    broken.append(f"{key} -> {link}")
    return broken
