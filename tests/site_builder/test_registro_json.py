"""The published record's JSON (`publicado.para_json`) is written without json's slow indented
encoder: the text must be exactly json's, for every value such a record may hold."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.conteudo import publicado
from site_builder.conteudo.registros import Correcao, Fonte

_TEXT = st.text()  # every character json escapes (controls, quotes, backslashes) and any other
_RECORDS = st.dictionaries(
    _TEXT,
    st.builds(
        publicado.Registro,
        _TEXT,
        _TEXT,
        _TEXT,
        _TEXT,
        _TEXT,
        _TEXT,
        st.lists(st.tuples(_TEXT, _TEXT), max_size=3).map(tuple),
        _TEXT,
        _TEXT,
    ),
    max_size=4,
)


def _json(valor: Any) -> str:
    return json.dumps(valor, ensure_ascii=False, indent=1, sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(_RECORDS)
def test_the_record_file_is_json_s_text_for_any_record(registros: dict[str, publicado.Registro]) -> None:
    assert publicado.para_json(registros) == (_json(publicado.dados_json(registros)) + "\n").encode("utf-8")


def test_a_field_it_does_not_write_falls_back_to_json() -> None:
    registro = publicado.Registro("a", "b", "c", "d", "e", "f", (("2026-10-01", "g"),), "h", "i")
    estranho = dataclasses.replace(registro, veredito=1)  # type: ignore[arg-type]
    esperado = _json(publicado.dados_json({"a": estranho})) + "\n"
    assert publicado.para_json({"a": estranho}) == esperado.encode("utf-8")


def test_the_record_file_is_json_s_text() -> None:
    import datetime as dt

    registros = {
        f"c-{i}": publicado.registro(
            f"c-{i}",
            Fonte(f"content/checagens/c-{i}.md", "ab" * 32),
            "falso",
            f"Afirmação “{i}”\n com \\ e \t",
            publicado.explicacao_sha256("corpo"),
            [Correcao(dt.datetime(2026, 10, i + 1, tzinfo=dt.UTC), "explicação")] * (i % 3),
            dt.datetime(2026, 10, 1, tzinfo=dt.UTC) if i % 2 else None,
        )
        for i in range(5)
    }
    dados = publicado.para_json(registros)
    assert dados == (_json(json.loads(dados)) + "\n").encode("utf-8")
    assert publicado.de_json(dados, "teste") == registros
