"""Coverage files (`<uf>-e<ele>-ab.json`, EA15): one row per municipality with its last totalization.

Municipal mode reads these first and fetches only the `-u` files of parts whose row changed
(TSE-FORMAT.md §3). A row's stamp is its `and`, `dt`, `ht`, sections and electorate totalized
(`model/cobertura.py`: the model checks the same stamps when a coverage file confirms a file held).
"""

from __future__ import annotations

from model.cobertura import MUNICIPAL_TPABR, Cobertura, CoverageError, parse_coverage_file

__all__ = ["MUNICIPAL_TPABR", "Cobertura", "CoverageError", "parse_coverage", "parse_coverage_file"]


def parse_coverage(raw: bytes, uf: str) -> dict[str, str]:
    """{part id (`<uf><mun5>`): stamp} for every municipal row of one UF's coverage file."""
    return {parte: linha.carimbo for parte, linha in parse_coverage_file(raw, uf).linhas.items()}
