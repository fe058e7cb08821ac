"""Coverage files (`<uf>-e<ele>-ab.json`, EA15): one row per municipality with its last totalization.

Municipal mode reads these first and fetches only the `-u` files of parts whose row changed
(TSE-FORMAT.md §3). A row's stamp is its `dt`, `ht`, sections and electorate totalized and status.
"""

from __future__ import annotations

from typing import Any

from model.tse_files import TseFormatError, load_json

MUNICIPAL_TPABR = frozenset({"mu", "mun"})


class CoverageError(ValueError):
    """A coverage file that cannot be read (Portuguese message)."""


def _field(row: dict[str, Any], bloco: str, chave: str) -> str:
    inner = row.get(bloco)
    if isinstance(inner, dict):
        return str(inner.get(chave, ""))
    return str(row.get(chave, ""))  # 2022 layout: flat fields


def parse_coverage(raw: bytes, uf: str) -> dict[str, str]:
    """{part id (`<uf><mun5>`): stamp} for every municipal row of one UF's coverage file."""
    try:
        root = load_json(raw)
    except TseFormatError as exc:
        raise CoverageError(f"arquivo de acompanhamento de {uf} ilegível ({exc})") from exc
    if not isinstance(root, dict) or not isinstance(root.get("abr"), list):
        raise CoverageError(f"arquivo de acompanhamento de {uf} sem a lista 'abr'")
    out: dict[str, str] = {}
    for row in root["abr"]:
        if not isinstance(row, dict) or str(row.get("tpabr", "")).lower() not in MUNICIPAL_TPABR:
            continue
        codigo = str(row.get("cdabr", ""))
        if not (codigo.isascii() and codigo.isdigit() and len(codigo) <= 5):
            continue
        carimbo = (
            row.get("and", ""),
            row.get("dt", ""),
            row.get("ht", ""),
            _field(row, "s", "st"),
            _field(row, "e", "est"),
        )
        out[uf + codigo.zfill(5)] = "|".join(str(c) for c in carimbo)
    return out
