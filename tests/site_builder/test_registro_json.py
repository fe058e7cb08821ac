"""The published record's JSON (`publicado.para_json`) is written without json's slow indented
encoder: the text must be exactly json's, for every value such a record may hold."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.conteudo import publicado
from site_builder.conteudo.registros import Correcao, Fonte

_LEAVES = st.none() | st.booleans() | st.integers() | st.text()
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=25,
)


def _json(valor: Any) -> str:
    return json.dumps(valor, ensure_ascii=False, indent=1, sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_the_indented_text_is_json_s(valor: Any) -> None:
    assert publicado.json_indentado(valor) == _json(valor)


@pytest.mark.parametrize("valor", [1.5, {1: "a"}, ("a",), {"a": {2: 3}}])
def test_a_value_it_does_not_write_is_refused(valor: Any) -> None:
    with pytest.raises(TypeError):
        publicado.json_indentado(valor)


def test_the_record_file_is_json_s_text() -> None:
    import datetime as dt

    registros = {
        f"c-{i}": publicado.registro(
            f"c-{i}",
            Fonte(f"content/checagens/c-{i}.md", "ab" * 32),
            "falso",
            f"Afirmação “{i}”\n com \\ e \t",
            "corpo",
            [Correcao(dt.datetime(2026, 10, i + 1, tzinfo=dt.UTC), "explicação")] * (i % 3),
            dt.datetime(2026, 10, 1, tzinfo=dt.UTC) if i % 2 else None,
        )
        for i in range(5)
    }
    dados = publicado.para_json(registros)
    assert dados == (_json(json.loads(dados)) + "\n").encode("utf-8")
    assert publicado.de_json(dados, "teste") == registros
