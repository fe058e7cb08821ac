"""`.jws` twins: real TSE files verify with the configured key; one altered byte fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobs.tse.config import TSE_KID, TSE_X, ConfigTse
from jobs.tse.jws import SignatureError, key_from_jwk, verify_jws
from tests.tse.conftest import DATASETS

FINAL = DATASETS / "tse" / "2026-1t-final"
SIGNED = sorted(FINAL.glob("**/*.jws"))


def test_there_are_real_signed_files() -> None:
    assert len(SIGNED) >= 30  # 29 president files + São Paulo municipal + RJ governor


@pytest.mark.parametrize("jws", SIGNED, ids=[p.name for p in SIGNED])
def test_real_jws_verifies_and_its_payload_is_the_json(jws: Path) -> None:
    key = key_from_jwk(ConfigTse().jws_kid, ConfigTse().jws_x)
    payload = verify_jws(jws.read_bytes(), key)
    assert payload == jws.with_suffix(".json").read_bytes()


def test_one_altered_byte_fails() -> None:
    key = key_from_jwk(TSE_KID, TSE_X)
    raw = (FINAL / "sp71072-c0001-e006257-u.jws").read_bytes()
    header, payload, _ = raw.split(b".")
    # A byte of the payload (a character of the base64 text) and a byte of the signature.
    for i in (len(header) + 1 + len(payload) // 2, len(raw) - 5):
        altered = bytearray(raw)
        altered[i] = ord("B") if altered[i] != ord("B") else ord("C")
        with pytest.raises(SignatureError):
            verify_jws(bytes(altered), key)


def test_other_key_and_malformed_input_fail() -> None:
    raw = (FINAL / "sp71072-c0001-e006257-u.jws").read_bytes()
    other = key_from_jwk(TSE_KID, "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")
    with pytest.raises(SignatureError, match="não confere"):
        verify_jws(raw, other)
    with pytest.raises(SignatureError, match="chave desconhecida"):
        verify_jws(raw, key_from_jwk("outra", TSE_X))
    for bad in (b"", b"a.b", b"\xff.\xfe.\xfd", b"e30.e30.e30", b"!!.??.##"):
        with pytest.raises(SignatureError):
            verify_jws(bad, key_from_jwk(TSE_KID, TSE_X))
    with pytest.raises(SignatureError, match="chave pública"):
        key_from_jwk(TSE_KID, "curta")
