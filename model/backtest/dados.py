"""Final 2022 results by arrival unit, read from `shared/datasets` (README there describes each file).

Arrival units are the municipalities (5-digit TSE code), the 19 DF zones instead of Brasília, and
abroad (`zz`) as one unit. For each unit and race the final counts are exact integers in the layout
`(candidate votes in ballot-number order..., blank, null, abstentions)`; their sum is the unit's
electorate (`te` = turnout + abstentions), so a file built from them satisfies every TSE identity.

Sources (all in datasets/):
* president runoff 2022 (545) by municipality: `results/pres_2t_2022_mun.csv`; abroad = the national
  `results/545/br/br.json` minus the 27 UFs of `results/545/br/states.json` (the CSV has no abroad);
* governor runoffs 2022 (547), 12 UFs: `results/gov_2t_2022_mun.csv`;
* capital flags, IBGE codes and zones: `tse/2022/ele2022_544/mun-e000544-cm.json`;
* DF by zone (DERIVED here): the 1st-round file `tse/2022/ele2022_544/df97012-c0001-e000544-v.json`
  gives each zone's electorate, sections, turnout, blank/null rates and Lula-Bolsonaro split; the
  runoff DF totals are spread over the zones in those proportions by iterative proportional fitting
  and rounded exactly to the runoff totals (zone-level runoff data is not in datasets/);
* 1st-round baselines (545): `results/votos_presidente_1t_2022.csv` (G1 shares by municipality,
  not counts): votes = share x (electors x national 1st-round valid/electorate ratio of
  `br-c0001-e000544-v.json`), an ESTIMATE; DF zones from the real 1st-round zone counts.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.backtest.arredondamento import controlled_round, fit_margins, largest_remainder
from model.baselines import Baseline, BasePart, baseline_key
from model.strata import DF_MUNICIPIO

DATASETS_PADRAO = Path(__file__).resolve().parents[3] / "shared" / "datasets"

REGIOES = {
    "N": ("ac", "am", "ap", "pa", "ro", "rr", "to"),
    "NE": ("al", "ba", "ce", "ma", "pb", "pe", "pi", "rn", "se"),
    "CO": ("df", "go", "ms", "mt"),
    "SE": ("es", "mg", "rj", "sp"),
    "S": ("pr", "rs", "sc"),
    "ZZ": ("zz",),
}
REGIAO_DA_UF = {uf: r for r, ufs in REGIOES.items() for uf in ufs}

# Electors per section: 2022 1st round, 156,454,011 electors in 472,075 sections (br-c0001-e000544-v.json).
ELEITORES_POR_SECAO = 156_454_011 / 472_075

ELEICAO_PRESIDENTE = "545"
ELEICAO_GOVERNADOR = "547"
ELEICAO_PRESIDENTE_1T = "544"


class DadosError(ValueError):
    """A dataset file is missing or does not add up (Portuguese message)."""


@dataclass(frozen=True)
class Unidade:
    """One arrival unit: a municipality, a DF zone or abroad."""

    id: str  # "ac01120", "df97012-z0001", "zz"
    uf: str
    municipio: str  # 5-digit TSE code; "" for abroad
    zona: str  # 4-digit zone for DF zones, else ""
    nome: str
    capital: bool
    regiao: str
    eleitorado_municipio: int  # size covariate of the arrival model (whole municipality)
    secoes: int

    @property
    def parte_municipio(self) -> str:
        """Id of the municipality part this unit belongs to (`df97012` for a DF zone)."""
        return self.id if not self.zona else f"{self.uf}{self.municipio}"


@dataclass(frozen=True)
class Disputa:
    """Final result of one race by arrival unit."""

    chave: str  # "presidente", "governador-sp"
    cargo: int
    eleicao: str
    uf: str | None  # None for the president
    candidatos: tuple[int, ...]  # ballot numbers, ascending
    nomes: dict[int, str]
    votos: dict[str, tuple[int, ...]]  # unit id -> (candidates..., vb, vn, abst)
    partidos: dict[int, str] = field(default_factory=dict)

    def total(self, unidades: list[str] | None = None) -> tuple[int, ...]:
        """Column sums over `unidades` (default: all units of the race)."""
        ids = self.votos if unidades is None else unidades
        n = len(self.candidatos) + 3
        out = [0] * n
        for u in ids:
            for i, v in enumerate(self.votos[u]):
                out[i] += v
        return tuple(out)


@dataclass(frozen=True)
class Dados2022:
    """Everything the simulator and the backtest read from datasets/."""

    unidades: tuple[Unidade, ...]
    presidente: Disputa
    governadores: dict[str, Disputa]
    bases: dict[str, Baseline]
    presidente_1t: Disputa
    config_municipios: dict[str, Any] = field(repr=False)
    fontes: dict[str, str] = field(default_factory=dict)

    def unidades_da_uf(self, uf: str) -> list[Unidade]:
        """Units of one UF, in id order."""
        return [u for u in self.unidades if u.uf == uf]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise DadosError(f"não foi possível ler {path}: {exc}") from exc


def _csv_rows(path: Path, delimiter: str = ",") -> list[dict[str, str]]:
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            return list(csv.DictReader(fh, delimiter=delimiter))
    except OSError as exc:
        raise DadosError(f"não foi possível ler {path}: {exc}") from exc


def _municipal_race(
    rows: list[dict[str, str]], chave: str, cargo: int, eleicao: str, uf: str | None
) -> Disputa:
    """A race from the derived per-municipality CSV (one row per municipality x candidate)."""
    by_mun: dict[str, dict[str, Any]] = {}
    nomes: dict[int, str] = {}
    partidos: dict[int, str] = {}
    for r in rows:
        mid = r["uf"].lower() + r["cd_tse"].zfill(5)
        entry = by_mun.setdefault(
            mid, {"votos": {}, "vb": int(r["brancos"]), "vn": int(r["nulos"]), "a": int(r["abstencoes"])}
        )
        nr = int(r["nr"])
        entry["votos"][nr] = int(r["votos"])
        nomes.setdefault(nr, r["nm_urna"])
        partidos.setdefault(nr, r["partido"])
    if cargo == 1 and 22 in partidos:
        partidos[22] = "PL"  # datasets README: the source's "REPUBLICANOS" for 22 is a known defect
    cands = tuple(sorted(nomes))
    votos = {
        mid: (*(e["votos"].get(n, 0) for n in cands), e["vb"], e["vn"], e["a"])
        for mid, e in sorted(by_mun.items())
    }
    return Disputa(chave, cargo, eleicao, uf, cands, dict(sorted(nomes.items())), votos, partidos)


def _abroad(datasets: Path, pres: Disputa) -> tuple[int, ...]:
    """Abroad = national total minus the 27 UFs (the municipal CSV has no abroad)."""
    br = _read_json(datasets / "results/545/br/br.json")
    states = _read_json(datasets / "results/545/br/states.json")
    nat = {int(c["n"]): int(c["vap"]) for c in br["values"]}
    out = []
    for n in pres.candidatos:
        out.append(nat[n] - sum(int(c["vap"]) for s in states.values() for c in s["c"] if int(c["n"]) == n))
    for key in ("vb", "vn", "a"):
        out.append(int(br["brief"][key]) - sum(int(s[key]) for s in states.values()))
    if min(out) < 0:
        raise DadosError("exterior com votos negativos: br.json e states.json não batem")
    return tuple(out)


def _df_zones_1t(datasets: Path) -> list[dict[str, Any]]:
    """Zone rows of the real 1st-round DF file (544): electorate, sections, turnout, votes."""
    raw = _read_json(datasets / "tse/2022/ele2022_544/df97012-c0001-e000544-v.json")
    out = []
    for a in raw["abr"]:
        if str(a["tpabr"]).upper() != "ZONA":
            continue
        votes = {int(c["n"]): int(c["vap"]) for c in a["cand"]}
        out.append(
            {
                "zona": str(a["cdabr"]).zfill(4),
                "e": int(a["e"]),
                "s": int(a["s"]),
                "c": int(a["c"]),
                "vb": int(a["vb"]),
                "vn": int(a["vn"]) + int(a["vnt"]),
                "vv": int(a["vv"]),
                "13": votes.get(13, 0),
                "22": votes.get(22, 0),
            }
        )
    return sorted(out, key=lambda z: z["zona"])


def _split_df(
    zones: list[dict[str, Any]], df_total: tuple[int, ...], cands: tuple[int, ...]
) -> dict[str, tuple[int, ...]]:
    """Spread the DF runoff totals over the zones (IPF on 1st-round zone profiles, exact rounding)."""
    te2 = sum(df_total)
    rows = largest_remainder([float(z["e"]) for z in zones], te2)
    seed = []
    for z in zones:
        turnout = z["c"] / z["e"]
        valid = turnout * z["vv"] / z["c"]
        two = z["13"] + z["22"]
        share = {13: z["13"] / two, 22: z["22"] / two}
        cells = [z["e"] * valid * share.get(n, 0.5) for n in cands]
        cells += [z["e"] * turnout * z["vb"] / z["c"], z["e"] * turnout * z["vn"] / z["c"]]
        cells.append(z["e"] * (1 - turnout))
        seed.append(cells)
    fitted = fit_margins(seed, rows, list(df_total))
    table = controlled_round(fitted, rows, list(df_total))
    return {f"df{DF_MUNICIPIO}-z{z['zona']}": tuple(r) for z, r in zip(zones, table, strict=True)}


Shares1T = tuple[dict[str, dict[int, float]], dict[str, int]]  # shares by municipality, electorate


def _shares_1t(datasets: Path, ibge_to_tse: dict[str, str]) -> Shares1T:
    """G1's 1st-round 2022 president shares (% of valid votes) and electorate, by TSE municipality id."""
    shares: dict[str, dict[int, float]] = {}
    electors: dict[str, int] = {}
    for r in _csv_rows(datasets / "results/votos_presidente_1t_2022.csv", ";"):
        cd = ibge_to_tse.get(r["cod_ibge"])
        if cd is None:
            raise DadosError(f"município IBGE {r['cod_ibge']} sem código TSE")
        mid = r["uf"].lower() + cd
        shares.setdefault(mid, {})[int(r["numero_candidato"])] = float(r["votos_validos"].replace(",", "."))
        electors[mid] = int(r["eleitores"])
    return shares, electors


def _baselines_1t(
    datasets: Path, shares_1t: Shares1T, zones: list[dict[str, Any]], ufs: set[str] | None
) -> dict[str, Baseline]:
    """1st-round 2022 baselines for the 545 replays: by UF, by municipality, DF by zone.

    President by municipality/UF and the presidential race inside each state use G1's shares x an
    estimated valid-vote count (ESTIMATE, see module docstring); DF zones use real counts.
    """
    br1 = _read_json(datasets / "tse/2022/ele2022_544/br-c0001-e000544-v.json")
    row = br1["abr"][0]
    rate = int(row["vv"]) / int(row["e"])
    shares, electors = shares_1t
    mun_parts: dict[str, BasePart] = {}
    for mid in sorted(shares):
        if ufs is not None and mid[:2] not in ufs:
            continue
        validos = round(electors[mid] * rate)
        votos = {n: round(shares[mid].get(n, 0.0) * validos) for n in (13, 22)}
        mun_parts[mid] = BasePart(eleitorado=electors[mid], validos=validos, votos=votos)
    uf_parts: dict[str, BasePart] = {}
    for mid, p in mun_parts.items():
        q = uf_parts.get(mid[:2])
        uf_parts[mid[:2]] = BasePart(
            eleitorado=(q.eleitorado if q and q.eleitorado else 0) + (p.eleitorado or 0),
            validos=(q.validos if q and q.validos else 0) + (p.validos or 0),
            votos={n: (q.votos[n] if q else 0) + p.votos[n] for n in (13, 22)},
        )
    fonte = (
        "ESTIMATIVA: participação por município de results/votos_presidente_1t_2022.csv (G1) x "
        f"eleitores x {rate:.6f} (válidos/eleitorado do 1º turno 2022, br-c0001-e000544-v.json)"
    )
    fin = (22, 13)  # 1st round 2022: Lula 48.4 %, Bolsonaro 43.2 % of valid votes; order irrelevant
    ele, out = ELEICAO_PRESIDENTE, {}
    for nivel, partes in (("uf", uf_parts), ("municipio", mun_parts)):
        k = baseline_key(ele, "presidente", "br", nivel)
        out[k] = Baseline(k, ele, "presidente", "br", nivel, fin, fonte, dict(sorted(partes.items())))
    # The presidential race inside each state, run as a governor race (seed: "26 simulações da
    # disputa presidencial dentro de cada estado"): same municipal baseline, one per UF.
    for uf in sorted({m[:2] for m in mun_parts}):
        k = baseline_key(ele, "governador", uf, "municipio")
        partes = {m: p for m, p in mun_parts.items() if m[:2] == uf}
        out[k] = Baseline(k, ele, "governador", uf, "municipio", fin, fonte, partes)
    if ufs is None or "df" in ufs:
        zparts = {
            f"df{DF_MUNICIPIO}-z{z['zona']}": BasePart(
                eleitorado=z["e"], validos=z["vv"], votos={13: z["13"], 22: z["22"]}
            )
            for z in zones
        }
        k = baseline_key(ele, "governador", "df", "zona")
        out[k] = Baseline(
            k, ele, "governador", "df", "zona", fin, "TSE 544 df97012-c0001-e000544-v.json (zonas)", zparts
        )
    return out


def _first_round(datasets: Path, shares_1t: Shares1T, ufs: set[str] | None) -> Disputa:
    """President 1st round 2022 (544) by unit, ESTIMATED counts (for the independent 2026 test).

    Municipalities: G1's shares of valid votes (`results/votos_presidente_1t_2022.csv`) x electors x
    the national rates of `br-c0001-e000544-v.json` (valid, blank, null, abstention), rounded
    exactly; DF zones: the real 1st-round zone rows; abroad is not in the sources and is left out.
    """
    br1 = _read_json(datasets / "tse/2022/ele2022_544/br-c0001-e000544-v.json")["abr"][0]
    e, vv, vb, vn = int(br1["esi"]), int(br1["vv"]), int(br1["vb"]), int(br1["vn"]) + int(br1["vnt"])
    fixed = _read_json(datasets / "tse/2022/ele2022_544/br-c0001-e000544-001-f.json")
    nomes: dict[int, str] = {}
    partidos: dict[int, str] = {}
    for agr in fixed["carg"]["agr"]:
        for par in agr["par"]:
            for c in par["cand"]:
                nomes[int(c["n"])] = str(c["nmu"])
                partidos[int(c["n"])] = str(par["sg"])
    shares, electors = shares_1t
    cands = tuple(sorted({n for v in shares.values() for n in v}))
    votos: dict[str, tuple[int, ...]] = {}
    for mid in sorted(shares):
        if (ufs is not None and mid[:2] not in ufs) or mid == f"df{DF_MUNICIPIO}":
            continue
        el = electors[mid]
        valid, blank, null = round(el * vv / e), round(el * vb / e), round(el * vn / e)
        votes = largest_remainder([shares[mid].get(n, 0.0) for n in cands], valid)
        votos[mid] = (*votes, blank, null, el - valid - blank - null)
    if ufs is None or "df" in ufs:
        raw = _read_json(datasets / "tse/2022/ele2022_544/df97012-c0001-e000544-v.json")
        for a in raw["abr"]:
            if str(a["tpabr"]).upper() != "ZONA":
                continue
            cv = {int(c["n"]): int(c["vap"]) for c in a["cand"]}
            zid = f"df{DF_MUNICIPIO}-z{str(a['cdabr']).zfill(4)}"
            votes = [cv.get(n, 0) for n in cands]
            blank, null = int(a["vb"]), int(a["vn"]) + int(a["vnt"])
            votos[zid] = (*votes, blank, null, int(a["e"]) - sum(votes) - blank - null)
    return Disputa("presidente-1t", 1, ELEICAO_PRESIDENTE_1T, None, cands, nomes, votos, partidos)


def carregar(datasets: Path = DATASETS_PADRAO, ufs: set[str] | None = None) -> Dados2022:
    """Read every input of the 2022 simulation; `ufs` restricts it to some UFs (lower case)."""
    cm = _read_json(datasets / "tse/2022/ele2022_544/mun-e000544-cm.json")
    capital: dict[str, bool] = {}
    nomes: dict[str, str] = {}
    ibge_to_tse: dict[str, str] = {}
    for g in cm["abr"]:
        for m in g["mu"]:
            mid = str(g["cd"]).lower() + str(m["cd"])
            capital[mid] = str(m["c"]).upper() == "S"
            nomes[mid] = str(m["nm"])
            if m.get("cdi"):
                ibge_to_tse[str(m["cdi"])] = str(m["cd"])
    pres_rows = _csv_rows(datasets / "results/pres_2t_2022_mun.csv")
    gov_rows = _csv_rows(datasets / "results/gov_2t_2022_mun.csv")
    pres_all = _municipal_race(pres_rows, "presidente", 1, ELEICAO_PRESIDENTE, None)
    zones = _df_zones_1t(datasets)
    df_id = f"df{DF_MUNICIPIO}"
    votos = dict(pres_all.votos)
    df_total = votos.pop(df_id)
    votos.update(_split_df(zones, df_total, pres_all.candidatos))
    votos["zz"] = _abroad(datasets, pres_all)
    if ufs is not None:
        votos = {k: v for k, v in votos.items() if k[:2] in ufs}
    pres = Disputa(
        "presidente",
        1,
        ELEICAO_PRESIDENTE,
        None,
        pres_all.candidatos,
        pres_all.nomes,
        votos,
        pres_all.partidos,
    )

    mun_size = {mid: sum(v) for mid, v in pres_all.votos.items()}
    zone_sections = {f"{df_id}-z{z['zona']}": z["s"] for z in zones}
    unidades = []
    for uid in sorted(votos):
        uf = uid[:2]
        zona = uid.split("-z")[1] if "-z" in uid else ""
        mid = uid.split("-z")[0]
        te = sum(votos[uid])
        size = mun_size.get(mid, te)
        secoes = zone_sections.get(uid) or max(1, round(te / ELEITORES_POR_SECAO))
        unidades.append(
            Unidade(
                id=uid,
                uf=uf,
                municipio=mid[2:],
                zona=zona,
                nome="EXTERIOR" if uid == "zz" else nomes.get(mid, mid),
                capital=capital.get(mid, False),
                regiao=REGIAO_DA_UF[uf],
                eleitorado_municipio=size,
                secoes=secoes,
            )
        )
    govs: dict[str, Disputa] = {}
    by_uf: dict[str, list[dict[str, str]]] = {}
    for r in gov_rows:
        by_uf.setdefault(r["uf"].lower(), []).append(r)
    unit_ids = set(votos)
    for uf, rows in sorted(by_uf.items()):
        if ufs is not None and uf not in ufs:
            continue
        race = _municipal_race(rows, f"governador-{uf}", 3, ELEICAO_GOVERNADOR, uf)
        missing = set(race.votos) - unit_ids
        if missing:
            raise DadosError(f"governador {uf}: municípios sem dados de presidente: {sorted(missing)[:3]}")
        govs[uf] = race
    shares_1t = _shares_1t(datasets, ibge_to_tse)  # read once: both the baselines and the 1st round use it
    bases = _baselines_1t(datasets, shares_1t, zones, ufs)
    primeiro = _first_round(datasets, shares_1t, ufs)
    fontes = {
        "presidente": "results/pres_2t_2022_mun.csv + exterior (results/545/br/br.json − states.json)",
        "governador": "results/gov_2t_2022_mun.csv",
        "df_zonas": "DERIVADO: totais do DF no 2º turno distribuídos pelas zonas com o perfil de cada zona "
        "no 1º turno (tse/2022/ele2022_544/df97012-c0001-e000544-v.json)",
        "base_1t": "results/votos_presidente_1t_2022.csv (estimativa) e zonas do DF (544)",
    }
    fontes["presidente_1t"] = (
        "ESTIMATIVA: participações do G1 (results/votos_presidente_1t_2022.csv) x eleitores x taxas "
        "nacionais do 1º turno (br-c0001-e000544-v.json); zonas do DF reais (544); sem exterior"
    )
    return Dados2022(tuple(unidades), pres, govs, bases, primeiro, cm, fontes)


def logit_dispersion_df_zones(datasets: Path = DATASETS_PADRAO) -> float:
    """Electorate-weighted s.d. of the zones' Lula-Bolsonaro logit in DF, 1st round 2022 (≈ 0.13)."""
    zones = _df_zones_1t(datasets)
    w = [z["e"] for z in zones]
    x = [math.log(z["13"] / z["22"]) for z in zones]
    mean = sum(a * b for a, b in zip(w, x, strict=True)) / sum(w)
    return math.sqrt(sum(a * (b - mean) ** 2 for a, b in zip(w, x, strict=True)) / sum(w))
