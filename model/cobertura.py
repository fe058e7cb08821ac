"""Coverage files (`<uf>-e<ele>-ab.json`, EA15; TSE-FORMAT.md §3): one row per municipality.

A row's **stamp** (`and`, `dt`, `ht`, sections and electorate totalized) is what the poller
compares between cycles to learn which municipalities moved (`jobs/tse/coverage.py`), and what the
model compares to confirm that a municipal file held is still current (`confirmation`): the one
definition both sides share. Standard library only, like the rest of `model/`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from model.tse_files import TseFormatError, count_value, load_json, parse_brasilia

MUNICIPAL_TPABR = frozenset({"mu", "mun"})


class CoverageError(ValueError):
    """A coverage file that cannot be read (Portuguese message)."""


@dataclass(frozen=True)
class LinhaCobertura:
    """One municipal row of a coverage file."""

    carimbo: str  # "and|dt|ht|st|est"
    secoes_totalizadas: int | None
    eleitorado_totalizado: int | None


@dataclass(frozen=True)
class Cobertura:
    """A parsed coverage file: its generation time (`dg/hg`, Brasília) and rows by part id."""

    gerado_em: dt.datetime | None
    linhas: dict[str, LinhaCobertura]


def _field(row: dict[str, Any], bloco: str, chave: str) -> str:
    inner = row.get(bloco)
    if isinstance(inner, dict):
        return str(inner.get(chave, ""))
    return str(row.get(chave, ""))  # 2022 layout: flat fields


def parse_coverage_file(raw: bytes, uf: str) -> Cobertura:
    """The rows (`<uf><mun5>` → row) and `dg/hg` of one UF's coverage file; CoverageError when
    it is not a coverage file."""
    try:
        root = load_json(raw)
    except TseFormatError as exc:
        raise CoverageError(f"arquivo de acompanhamento de {uf} ilegível ({exc})") from exc
    if not isinstance(root, dict) or not isinstance(root.get("abr"), list):
        raise CoverageError(f"arquivo de acompanhamento de {uf} sem a lista 'abr'")
    linhas: dict[str, LinhaCobertura] = {}
    for row in root["abr"]:
        if not isinstance(row, dict) or str(row.get("tpabr", "")).lower() not in MUNICIPAL_TPABR:
            continue
        codigo = str(row.get("cdabr", ""))
        if not (codigo.isascii() and codigo.isdigit() and len(codigo) <= 5):
            continue
        st, est = _field(row, "s", "st"), _field(row, "e", "est")
        campos = (row.get("and", ""), row.get("dt", ""), row.get("ht", ""), st, est)
        carimbo = "|".join(str(c) for c in campos)
        linhas[uf + codigo.zfill(5)] = LinhaCobertura(carimbo, count_value(st), count_value(est))
    return Cobertura(parse_brasilia(root.get("dg"), root.get("hg")), linhas)


def coverage_name(uf: str, eleicao: str) -> str:
    """`<uf>-e<ele6>-ab.json`."""
    return f"{uf}-e{int(eleicao):06d}-ab.json"


def confirmation(
    cobertura: Cobertura | None, parte: str, carimbo: str | None, st: int, est: int
) -> dt.datetime | None:
    """The instant a coverage file proves a municipal reading current, or None.

    The poller records, with each municipal file it fetches, the stamp of the municipality's row
    in the coverage file it read in the same cycle (`carimbo`). When the coverage file held now
    still shows that stamp, nothing was totalized there since the fetch, and the file held is the
    municipality's state as of the coverage file's generation (`dg/hg`). Stamps are compared with
    stamps (a row's `ht` can differ from its file's, TSE-FORMAT.md §3), and the row's sections and
    electorate totalized must also be the file's own (a row can move before its file does)."""
    if cobertura is None or carimbo is None or cobertura.gerado_em is None:
        return None
    linha = cobertura.linhas.get(parte)
    if linha is None or linha.carimbo != carimbo:
        return None
    if linha.secoes_totalizadas != st or linha.eleitorado_totalizado != est:
        return None
    return cobertura.gerado_em
