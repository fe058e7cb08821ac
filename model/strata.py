"""Parts (strata) of a race and the mode they imply.

Seed: "Presidente: 27 estados + Distrito Federal + exterior (28 partes, um arquivo do TSE por parte).
Governador: os municípios do estado ... Distrito Federal: as 19 zonas eleitorais"; the president by
municipality "liga automaticamente se a coleta municipal for ativada" (here: when the snapshot holds
municipal president files); a governor without municipal files is the "modo degradado".
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from model.tse_files import BRASILIA, FileName, parse_file_name

CARGO_CODES = {"presidente": 1, "governador": 3}

# 26 states + DF + abroad (seed: "28 partes").
UFS_PRESIDENTE = (
    "ac", "al", "am", "ap", "ba", "ce", "df", "es", "go", "ma", "mg", "ms", "mt", "pa",
    "pb", "pe", "pi", "pr", "rj", "rn", "ro", "rr", "rs", "sc", "se", "sp", "to", "zz",
)  # fmt: skip


@dataclass(frozen=True)
class Election:
    """What an election code means: cargo, round and its 1st round (for runoffs)."""

    cargo: str
    turno: int
    primeiro_turno: str | None


# datasets/README.md "Code tables" (2026: 6257-6260; 2022: 544-547).
ELECTIONS = {
    "6257": Election("presidente", 1, None),
    "6258": Election("presidente", 2, "6257"),
    "6259": Election("governador", 1, None),
    "6260": Election("governador", 2, "6259"),
    "544": Election("presidente", 1, None),
    "545": Election("presidente", 2, "544"),
    "546": Election("governador", 1, None),
    "547": Election("governador", 2, "546"),
}

# Standard UTC offsets (hours) of each UF for `dt/ht` (local time; datasets README). Abroad: unknown.
UF_UTC_OFFSET = {"ac": -5, "am": -4, "mt": -4, "ms": -4, "ro": -4, "rr": -4}

MODE_PRESIDENT = "presidente"
MODE_PRESIDENT_MUN = "presidente_municipio"
MODE_GOV_MUN = "governador_municipio"
MODE_GOV_ZONE = "governador_zona"
MODE_GOV_DEGRADED = "governador_degradado"


# DF: municipality 97012 (Brasília) and its 19 zones, 0001-0021 without 0007 and 0012 (TSE-FORMAT.md §1.2).
DF_MUNICIPIO = "97012"
DF_ZONAS = tuple(f"{z:04d}" for z in range(1, 22) if z not in (7, 12))


@dataclass(frozen=True)
class PartSpec:
    """One expected part: its id, the file that should carry it, and how to read it.

    `nivel` overrides the plan's level for this part (the abroad UF file among municipal parts);
    `linha` selects the row (`cdabr`) of a multi-row 2022 `-v` file (a DF zone inside the
    municipal file).
    """

    id: str
    arquivo: str
    nivel: str | None = None
    linha: str | None = None


@dataclass(frozen=True)
class Plan:
    """The mode and parts of one projection; `referencia` is the governor's UF file."""

    modo: str
    nivel: str
    partes: tuple[PartSpec, ...]
    referencia: str | None
    agregado: str | None


def file_name_for(parte: str, cargo: int, eleicao: str, formato: str = "u") -> str:
    """TSE file name of a part id (`sp`, `sp71072`, `df97012-z0001`)."""
    return f"{parte}-c{cargo:04d}-e{int(eleicao):06d}-{formato}.json"


def infer_election(nomes: Iterable[str], cargo: str, uf: str | None) -> str | None:
    """The election code of the snapshot's files for `cargo` (the most frequent; ties: the highest)."""
    code = CARGO_CODES[cargo]
    counts: Counter[str] = Counter(
        f.eleicao
        for f in (parse_file_name(n) for n in nomes)
        if f is not None and f.cargo == code and (uf is None or cargo == "presidente" or f.uf == uf)
    )
    if not counts:
        return None
    return max(counts, key=lambda e: (counts[e], int(e)))


def plan_parts(
    nomes: Iterable[str], cargo: str, uf: str | None, eleicao: str, baseline_parts: Iterable[str]
) -> Plan:
    """Choose the mode and list the expected parts from the snapshot's file names and the baseline.

    Expected parts = the files present for the race ∪ the baseline's parts (∪ the 28 UFs for the
    president), so a part whose file is missing is still counted as "sem arquivo válido".
    """
    code = CARGO_CODES[cargo]
    files: list[FileName] = [
        f
        for f in (parse_file_name(n) for n in nomes)
        if f is not None and f.cargo == code and f.eleicao == eleicao
    ]
    by_part: dict[str, str] = {}
    for f in sorted(files, key=lambda f: (f.parte, f.formato != "u")):
        by_part.setdefault(f.parte, f.nome)
    base = set(baseline_parts)
    fmt = "v" if files and all(f.formato == "v" for f in files) else "u"

    def specs(ids: Iterable[str]) -> tuple[PartSpec, ...]:
        return tuple(
            PartSpec(p, by_part.get(p, file_name_for(p, code, eleicao, fmt))) for p in sorted(set(ids))
        )

    agregado = by_part.get("br") if cargo == "presidente" else None
    if cargo == "presidente":
        mun = {f.parte for f in files if f.municipio and not f.zona}
        if mun:
            # A UF with no municipal file and no municipal baseline part (abroad, when its cities
            # are not collected) is one part read from its UF file, so its votes are not lost.
            covered = {p[:2] for p in mun | base}
            uf_only = [
                PartSpec(f.parte, f.nome, nivel="uf")
                for f in sorted(files, key=lambda f: f.nome)
                if f.municipio is None and f.parte in UFS_PRESIDENTE and f.parte not in covered
            ]
            partes = tuple(sorted((*specs(mun | base), *uf_only), key=lambda p: p.id))
            return Plan(MODE_PRESIDENT_MUN, "municipio", partes, None, agregado)
        return Plan(MODE_PRESIDENT, "uf", specs(set(UFS_PRESIDENTE) | base), None, agregado)
    assert uf is not None
    ref = by_part.get(uf, file_name_for(uf, code, eleicao, fmt))
    own = [f for f in files if f.uf == uf]
    zones = {f.parte for f in own if f.zona}
    if zones:
        return Plan(MODE_GOV_ZONE, "zona", specs(zones | base), ref, ref)
    df_v = by_part.get(f"df{DF_MUNICIPIO}") if uf == "df" else None
    if df_v is not None and df_v.endswith("-v.json"):
        # 2022 legacy layout: the municipal -v file carries Brasília and each of its zones as rows.
        ids = {f"df{DF_MUNICIPIO}-z{z}" for z in DF_ZONAS} | base
        partes = tuple(PartSpec(p, df_v, linha=p[-4:]) for p in sorted(ids))
        return Plan(MODE_GOV_ZONE, "zona", partes, ref, ref)
    muns = {f.parte for f in own if f.municipio and not f.zona}
    if muns:
        return Plan(MODE_GOV_MUN, "municipio", specs(muns | base), ref, ref)
    return Plan(MODE_GOV_DEGRADED, "uf", (PartSpec(uf, ref),), ref, ref)


def file_time(gerado_em: dt.datetime | None, totalizado_local: str, uf: str) -> dt.datetime | None:
    """The file's time on the Brasília clock.

    `dg/hg` (generation, Brasília) when present; otherwise `dt/ht` (local time of the place)
    shifted by the UF's standard offset. `dt/ht` is not used when `hg` exists because a UF file's
    `ht` is the local time of whichever place totalized last (PE shows Fernando de Noronha time,
    abroad a far-east time; datasets README).
    """
    if gerado_em is not None:
        return gerado_em
    if not totalizado_local or uf == "zz":
        return None
    try:
        naive = dt.datetime.strptime(totalizado_local, "%d/%m/%Y %H:%M:%S")
    except ValueError:
        return None
    tz = dt.timezone(dt.timedelta(hours=UF_UTC_OFFSET.get(uf, -3)))
    return naive.replace(tzinfo=tz).astimezone(BRASILIA)
