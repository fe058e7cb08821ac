"""Publishing targets: an S3-compatible bucket (boto3) or a local folder used as the bucket."""

from __future__ import annotations

import base64
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from jobs.publish.config import PublishConfig
from jobs.publish.kinds import Headers

MD5_ETAG = re.compile(r"^[0-9a-f]{32}$")
TEMP_NAME = re.compile(r"^\..+\.tmp-\d+-\d+$")  # `FolderTarget.put`'s temp file, left by a killed publish
S3_DELETE_BATCH = 1000  # the most keys one DeleteObjects request takes


@dataclass(frozen=True)
class RemoteObject:
    """An object as the target lists it."""

    size: int
    etag: str
    md5: str | None  # known only when the ETag is a plain MD5 (not multipart, not SSE-KMS)


class Target(Protocol):
    """Where a publish stores objects; keys are paths relative to the site root."""

    @property
    def identity(self) -> str:
        """Stable name of the target (manifest file name, messages)."""
        ...

    @property
    def cheap_listing(self) -> bool:
        """True when listing every object costs next to nothing (a local folder)."""
        ...

    def list_objects(self) -> dict[str, RemoteObject]:
        """Every object under the target, by key."""
        ...

    def put(self, key: str, data: bytes, md5: str, headers: Headers) -> str:
        """Store one object; return its new ETag."""
        ...

    def delete(self, keys: list[str]) -> None:
        """Delete objects (missing ones are fine)."""
        ...


def is_hidden(rel: str) -> bool:
    """Hidden paths (the build's staging folder, temp files) are never published."""
    return any(part.startswith(".") and part != ".well-known" for part in rel.split("/"))


def walk_files(base: Path, leftovers: list[str] | None = None) -> Iterator[tuple[str, os.stat_result]]:
    """Every visible file under `base` as (relative POSIX path, stat), hidden paths skipped; the
    temp files a killed `FolderTarget.put` left go into `leftovers` (when given) by full path.

    os.scandir with relative paths built by hand: a site has a folder per page, and os.walk +
    relpath costs several times more on 10,000 folders.
    """
    stack = [("", str(base))]
    while stack:
        rel_dir, path = stack.pop()
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.name.startswith(".") and entry.name != ".well-known":
                    if (
                        leftovers is not None
                        and TEMP_NAME.match(entry.name)
                        and entry.is_file(follow_symlinks=False)
                    ):
                        leftovers.append(entry.path)
                    continue
                rel = f"{rel_dir}{entry.name}"
                if entry.is_dir(follow_symlinks=False):
                    stack.append((rel + "/", entry.path))
                elif entry.is_file():
                    yield rel, entry.stat()


@dataclass
class FolderTarget:
    """A local folder as the bucket (the embedded default; the demo serves it)."""

    root: Path

    @property
    def identity(self) -> str:
        """`pasta:<absolute path>`."""
        return f"pasta:{self.root.resolve()}"

    @property
    def cheap_listing(self) -> bool:
        """A folder is listed with a stat per file: always."""
        return True

    def list_objects(self) -> dict[str, RemoteObject]:
        """Every visible file under the folder; the ETag is size and mtime (nothing is read).
        Temp files a killed publish left are removed (publishes hold the project lock)."""
        if not self.root.is_dir():
            return {}
        leftovers: list[str] = []
        found = {
            rel: RemoteObject(st.st_size, f"{st.st_size}-{st.st_mtime_ns}", None)
            for rel, st in walk_files(self.root, leftovers)
        }
        for path in leftovers:
            Path(path).unlink(missing_ok=True)
        return found

    def put(self, key: str, data: bytes, md5: str, headers: Headers) -> str:
        """Write the file atomically (temp file beside it + rename)."""
        del md5, headers  # a folder keeps no headers; the local server derives them from the name
        target = self.root / key
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = target.with_name(f".{target.name}.tmp-{os.getpid()}-{threading.get_ident()}")
        try:
            temp.write_bytes(data)
            temp.replace(target)
        finally:
            temp.unlink(missing_ok=True)
        st = target.stat()
        return f"{st.st_size}-{st.st_mtime_ns}"

    def delete(self, keys: list[str]) -> None:
        """Delete the files, then the folders they leave empty."""
        for key in keys:
            target = self.root / key
            target.unlink(missing_ok=True)
            parent = target.parent
            while parent != self.root and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent


@dataclass
class S3Target:
    """An S3-compatible bucket (AWS, MinIO, Ceph, R2, moto...) through boto3."""

    client: Any
    bucket: str
    prefix: str
    endpoint: str = ""

    @property
    def identity(self) -> str:
        """`s3:<endpoint>/<bucket>/<prefix>`."""
        return f"s3:{self.endpoint or 'aws'}/{self.bucket}/{self.prefix}"

    @property
    def cheap_listing(self) -> bool:
        """A bucket listing is one request per 1,000 keys: seconds for a big site."""
        return False

    def list_objects(self) -> dict[str, RemoteObject]:
        """The bucket listing under the prefix (1,000 keys per request)."""
        found: dict[str, RemoteObject] = {}
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=self.prefix):
            for item in page.get("Contents", ()):
                key = item["Key"][len(self.prefix) :]
                if not key or is_hidden(key):
                    continue
                etag = item["ETag"].strip('"')
                found[key] = RemoteObject(int(item["Size"]), etag, etag if MD5_ETAG.match(etag) else None)
        return found

    def put(self, key: str, data: bytes, md5: str, headers: Headers) -> str:
        """PUT the object with its headers (Content-MD5 makes the store verify the bytes it got),
        then read back what the bucket holds: a 200 proves nothing (a proxy or gateway may answer
        it, even with the body's MD5 as ETag, and keep nothing, or other bytes), so a HEAD compares
        the stored size and ETag (the MD5, when the ETag is one: not multipart, not SSE-KMS).
        OSError, in Portuguese, when the object is absent or not what was sent."""
        self.client.put_object(
            Bucket=self.bucket,
            Key=self.prefix + key,
            Body=data,
            ContentType=headers.content_type,
            CacheControl=headers.cache_control,
            ContentMD5=base64.b64encode(bytes.fromhex(md5)).decode("ascii"),
        )
        try:
            stored = self.client.head_object(Bucket=self.bucket, Key=self.prefix + key)
        except Exception as exc:  # botocore's ClientError (404) and connection errors alike
            raise OSError(f"o bucket aceitou {key}, mas o objeto não está lá ({exc})") from exc
        stored_etag = str(stored.get("ETag", "")).strip('"')
        size = stored.get("ContentLength")
        if size != len(data) or (MD5_ETAG.match(stored_etag) and stored_etag != md5):
            raise OSError(
                f"o bucket aceitou {key}, mas guardou outro conteúdo ({size} bytes, "
                f"ETag {stored_etag or '?'}; enviados {len(data)} bytes, MD5 {md5})"
            )
        return stored_etag

    def delete(self, keys: list[str]) -> None:
        """DeleteObjects in batches; a key the store refuses to delete is an error."""
        for start in range(0, len(keys), S3_DELETE_BATCH):
            batch = keys[start : start + S3_DELETE_BATCH]
            answer = self.client.delete_objects(
                Bucket=self.bucket,
                Delete={"Objects": [{"Key": self.prefix + k} for k in batch], "Quiet": True},
            )
            errors = answer.get("Errors", [])
            if errors:
                first = errors[0]
                raise OSError(f"o bucket recusou remover {first.get('Key')}: {first.get('Message')}")


def boto3_client(service: str, cfg: PublishConfig, endpoint: str) -> Any:
    """A boto3 client built from the configuration (credentials: boto3's usual chain or `perfil`)."""
    import boto3  # boto3 is slow to import; the folder target never needs it
    from botocore.config import Config

    session = boto3.session.Session(profile_name=cfg.perfil or None)
    options = Config(
        max_pool_connections=max(10, cfg.paralelo),
        connect_timeout=cfg.tempo_limite_s,
        read_timeout=cfg.tempo_limite_s,
        retries={"max_attempts": 3, "mode": "standard"},
        s3={"addressing_style": cfg.enderecamento},
    )
    return session.client(service, endpoint_url=endpoint or None, region_name=cfg.regiao, config=options)


def open_target(cfg: PublishConfig) -> Target:
    """The target named by the configuration."""
    if cfg.destino == "s3":
        return S3Target(boto3_client("s3", cfg, cfg.endpoint), cfg.bucket, cfg.prefixo, cfg.endpoint)
    return FolderTarget(cfg.pasta)
