"""Property-based tests of the TSE file reader (issue 22): any bytes in give a valid reading or a
clear refusal (`TseFormatError`), never another exception, and never a reading that breaks an identity.

Derandomized with modest example counts so CI is reproducible and fast.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from model.forecast import read_file
from model.snapshot import CaptureEntry, Snapshot
from model.tse_files import TseFormatError, consistency_problems, parse_result
from tests.model.helpers import NOW, Part, u_file

PROPS = settings(
    max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
NOME = "sp-c0001-e006258-u.json"
BASE = json.loads(u_file("sp", Part()))

# Values a hostile or broken file could carry where a count is expected.
valores = st.one_of(
    st.integers(min_value=-(10**15), max_value=10**15).map(str),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.text(max_size=8),
    st.sampled_from(["²", "٣", "1" * 5000, "", " ", "-", "1e9", "0x10", "1_000", "NaN", "１２"]),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.lists(st.integers(), max_size=2),
)
campos = st.sampled_from(
    [("s", "ts"), ("s", "st"), ("s", "snt"), ("e", "te"), ("e", "est"), ("e", "esnt"), ("e", "c")]
    + [("v", k) for k in ("tv", "vvc", "vv", "van", "vansj", "vb", "vn", "vnt")]
    + [("cand", "vap"), ("cand", "n"), ("raiz", "ele"), ("raiz", "t"), ("raiz", "carg")]
)


def _check(raw: bytes, formato: str = "u") -> None:
    """The property: records that break no identity or a TseFormatError; nothing else."""
    try:
        records = parse_result(raw, formato)
    except TseFormatError as exc:
        assert str(exc)  # a clear Portuguese message
        return
    assert records
    snap = Snapshot({NOME: raw}, {NOME: CaptureEntry(NOW, 200, False, None)})
    leitura = read_file(snap, NOME, "uf", "sp", ("6258", 2, 1), None)
    assert leitura.categoria in ("ok", "inconsistente")
    if leitura.valido:
        assert leitura.record is not None and consistency_problems(leitura.record) == []


@PROPS
@given(st.binary(max_size=400))
def test_any_bytes_give_a_reading_or_a_refusal(raw: bytes) -> None:
    _check(raw)
    _check(raw, "v")


@PROPS
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=4),
        lambda x: st.lists(x, max_size=3) | st.dictionaries(st.text(max_size=3), x, max_size=3),
        max_leaves=20,
    )
)
def test_any_json_value_gives_a_reading_or_a_refusal(value: Any) -> None:
    _check(json.dumps(value).encode())
    _check(json.dumps({"abr": [value], "ele": "6258", "t": "2"}).encode(), "v")


@PROPS
@given(st.lists(st.tuples(campos, valores), min_size=1, max_size=4))
@example([(("s", "ts"), "²")])
@example([(("cand", "vap"), "1" * 5000)])
@example([(("v", "vv"), "٣")])
def test_a_real_layout_with_any_field_changed_never_escapes_nor_breaks_an_identity(
    trocas: list[tuple[tuple[str, str], Any]],
) -> None:
    d = json.loads(json.dumps(BASE))
    for (bloco, chave), valor in trocas:
        if bloco == "raiz":
            d[chave] = valor
        elif bloco == "cand":
            d["carg"][0]["agr"][0]["par"][0]["cand"][0][chave] = valor
        else:
            d[bloco][chave] = valor
    _check(json.dumps(d, allow_nan=True).encode())


@settings(PROPS, max_examples=20)
@given(st.integers(min_value=1, max_value=200_000), st.sampled_from(["[", '{"a":', '[{"b":']))
def test_deep_nesting_is_a_refusal(depth: int, opening: str) -> None:
    _check((opening * depth).encode())
