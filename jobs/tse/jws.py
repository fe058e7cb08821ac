"""The TSE's `.jws` twins: JWS compact serialization, EdDSA (Ed25519) over `header.payload`.

Every 2026 result file also exists as `<name>.jws` whose payload is the `.json` body byte for byte
(TSE-FORMAT.md §1.4). A file whose signature fails is rejected, never stored as a reading.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


class SignatureError(ValueError):
    """A `.jws` that does not verify (Portuguese message)."""


@dataclass(frozen=True)
class ChaveTse:
    """An Ed25519 public key from a JWK (`kty` OKP, `crv` Ed25519)."""

    kid: str
    chave: Ed25519PublicKey


def b64url_decode(texto: str) -> bytes:
    """Base64url without padding, as JOSE writes it."""
    return base64.urlsafe_b64decode(texto + "=" * (-len(texto) % 4))


def key_from_jwk(kid: str, x: str) -> ChaveTse:
    """The key of a JWK's `kid` and `x`; SignatureError when `x` is not a 32-byte Ed25519 key."""
    try:
        raw = b64url_decode(x)
        return ChaveTse(kid, Ed25519PublicKey.from_public_bytes(raw))
    except (ValueError, binascii.Error) as exc:
        raise SignatureError(f"chave pública do TSE inválida: {exc}") from exc


def verify_jws(raw: bytes, chave: ChaveTse) -> bytes:
    """Verify a compact JWS and return its payload (the `.json` body); SignatureError on any failure."""
    try:
        texto = raw.decode("ascii").strip()
    except UnicodeDecodeError as exc:
        raise SignatureError("assinatura .jws com bytes não ASCII") from exc
    partes = texto.split(".")
    if len(partes) != 3 or not all(partes):
        raise SignatureError("assinatura .jws malformada (esperado cabeçalho.conteúdo.assinatura)")
    cabecalho_b64, conteudo_b64, assinatura_b64 = partes
    try:
        cabecalho = json.loads(b64url_decode(cabecalho_b64))
        conteudo = b64url_decode(conteudo_b64)
        assinatura = b64url_decode(assinatura_b64)
    except (ValueError, binascii.Error, RecursionError) as exc:
        raise SignatureError(f"assinatura .jws ilegível: {str(exc)[:200]}") from exc
    if not isinstance(cabecalho, dict) or cabecalho.get("alg") != "EdDSA":
        raise SignatureError("assinatura .jws com algoritmo diferente de EdDSA")
    kid = cabecalho.get("kid")
    if kid is not None and kid != chave.kid:
        raise SignatureError(f"assinatura .jws com chave desconhecida (kid {kid})")
    try:
        chave.chave.verify(assinatura, f"{cabecalho_b64}.{conteudo_b64}".encode("ascii"))
    except InvalidSignature as exc:
        raise SignatureError("assinatura Ed25519 do TSE não confere") from exc
    return conteudo
