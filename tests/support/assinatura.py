"""Sign a night's result files with a test Ed25519 key, the way the TSE signs its `.jws` twins.

The real key's private half is the TSE's; tests sign synthetic nights with this fixed key and point
the job at it (`jws_kid`, `jws_x`), so every signed-night path runs on a full, multi-capture night.
"""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from jobs.tse.jws import ChaveTse, key_from_jwk

KID = "chave-de-teste"
_PRIVATE = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def public_x() -> str:
    """The JWK `x` of the test key."""
    return _b64(_PRIVATE.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


def chave_de_teste() -> ChaveTse:
    """The test key as the job and the audit use it."""
    return key_from_jwk(KID, public_x())


def sign(payload: bytes) -> bytes:
    """A compact JWS (EdDSA) of `payload` with the test key."""
    header = _b64(json.dumps({"kid": KID, "typ": "JOSE", "alg": "EdDSA"}).encode())
    body = _b64(payload)
    signature = _b64(_PRIVATE.sign(f"{header}.{body}".encode("ascii")))
    return f"{header}.{body}.{signature}".encode("ascii")


def signed_copy(night: Path, dest: Path) -> Path:
    """A copy of a night folder where every `-u.json` has its `.jws` twin."""
    shutil.copytree(night, dest)
    for path in sorted(dest.glob("capturas/*/*-u.json")):
        path.with_suffix(".jws").write_bytes(sign(path.read_bytes()))
    return dest
