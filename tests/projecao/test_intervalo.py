"""Issue 21: how often an open race page asks for new data is one site setting, checked at build time."""

from __future__ import annotations

from typing import Any

import pytest

from site_builder.ao_vivo import INTERVALO_S
from site_builder.config import validate_config

BASE: dict[str, Any] = {
    "titulo": "T",
    "descricao": "D",
    "url_base": "https://x.example.org",
    "organizacao": "O",
    "email_redacao": "r@x.example.org",
}


def test_default_poll_is_at_least_as_often_as_readings_are_published() -> None:
    config, errors, warnings = validate_config(dict(BASE))
    assert config is not None and errors == [] == warnings
    assert config.intervalo_ao_vivo_s == INTERVALO_S
    # Readings are published every 15 s at the most (issue 21): the default poll is no rarer.
    assert INTERVALO_S in range(1, 16)


@pytest.mark.parametrize("valor", [0, 301, "15", 2.5, True])
def test_a_bad_poll_interval_is_an_error(valor: object) -> None:
    config, errors, _ = validate_config({**BASE, "intervalo_ao_vivo_s": valor})
    assert config is None and any("intervalo_ao_vivo_s" in e for e in errors)


def test_the_setting_is_used() -> None:
    config, _, warnings = validate_config({**BASE, "intervalo_ao_vivo_s": 1})
    assert config is not None and config.intervalo_ao_vivo_s == 1 and warnings == []
