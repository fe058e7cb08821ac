"""1st-round baselines: the two finalists' votes per part (UF, municipality or zone).

Seed, "Fontes": "Base do 1º turno 2026 (participação dos finalistas por UF/município/zona): arquivos
finais das eleições 6257 e 6259, pré-processados em model/baselines/". One JSON file per
(runoff election, cargo, UF, level): `<eleicao>-<cargo>-<uf>-<nivel>.json`, e.g.
`6258-presidente-br-uf.json`, `6260-governador-ac-municipio.json`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.tse_files import ResultRecord

BASELINES_DIR = Path(__file__).resolve().parent / "baselines"


@dataclass(frozen=True)
class BasePart:
    """1st-round numbers of one part: electorate, valid votes, finalists' votes."""

    eleitorado: int | None
    validos: int | None
    votos: dict[int, int]


@dataclass(frozen=True)
class Baseline:
    """Baseline of one race at one level."""

    chave: str
    eleicao: str
    cargo: str
    uf: str
    nivel: str
    finalistas: tuple[int, int]
    fonte: str
    partes: dict[str, BasePart]


def baseline_key(eleicao: str, cargo: str, uf: str, nivel: str) -> str:
    """File stem of a baseline: `6258-presidente-br-uf`."""
    return f"{eleicao}-{cargo}-{uf}-{nivel}"


def parse_baseline(root: Any, chave: str) -> Baseline:
    """Build a Baseline from its JSON object (ValueError when malformed)."""
    try:
        fin = tuple(int(x) for x in root["finalistas"])
        if len(fin) != 2:
            raise ValueError("finalistas deve ter 2 números")
        partes = {
            str(pid): BasePart(
                eleitorado=int(p["eleitorado"]) if p.get("eleitorado") is not None else None,
                validos=int(p["validos"]) if p.get("validos") is not None else None,
                votos={int(k): int(v) for k, v in p["votos"].items()},
            )
            for pid, p in root["partes"].items()
        }
        return Baseline(
            chave=chave,
            eleicao=str(root["eleicao"]),
            cargo=str(root["cargo"]),
            uf=str(root["uf"]),
            nivel=str(root["nivel"]),
            finalistas=(fin[0], fin[1]),
            fonte=str(root.get("fonte", "")),
            partes=partes,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"baseline {chave} inválida: {exc}") from exc


def load_baselines(pasta: Path = BASELINES_DIR) -> dict[str, Baseline]:
    """Every baseline file in `pasta`, by key (file stem)."""
    out: dict[str, Baseline] = {}
    if not pasta.is_dir():
        return out
    for path in sorted(pasta.glob("*.json")):
        out[path.stem] = parse_baseline(json.loads(path.read_bytes()), path.stem)
    return out


def baseline_to_json(b: Baseline) -> dict[str, Any]:
    """The JSON object stored in `model/baselines/` (sorted keys when dumped)."""
    return {
        "eleicao": b.eleicao,
        "cargo": b.cargo,
        "uf": b.uf,
        "nivel": b.nivel,
        "finalistas": list(b.finalistas),
        "fonte": b.fonte,
        "partes": {
            pid: {
                "eleitorado": p.eleitorado,
                "validos": p.validos,
                "votos": {str(k): v for k, v in sorted(p.votos.items())},
            }
            for pid, p in sorted(b.partes.items())
        },
    }


def finalists_of(records: list[ResultRecord]) -> tuple[int, int]:
    """The two most voted valid candidates over all records (the runoff finalists)."""
    totals: dict[int, int] = {}
    for r in records:
        for c in r.candidatos:
            if c.valido:
                totals[c.numero] = totals.get(c.numero, 0) + c.votos
    ranked = sorted(totals, key=lambda n: (-totals[n], n))
    if len(ranked) < 2:
        raise ValueError("menos de dois candidatos com votos válidos")
    return ranked[0], ranked[1]


def baseline_from_records(
    eleicao: str, cargo: str, uf: str, nivel: str, parts: dict[str, ResultRecord], fonte: str
) -> Baseline:
    """Baseline from 1st-round final records keyed by part id."""
    fin = finalists_of(list(parts.values()))
    partes = {
        pid: BasePart(
            eleitorado=r.eleitorado,
            validos=r.vv,
            votos={c.numero: c.votos for c in r.candidatos if c.numero in fin},
        )
        for pid, r in parts.items()
    }
    return Baseline(baseline_key(eleicao, cargo, uf, nivel), eleicao, cargo, uf, nivel, fin, fonte, partes)


def baseline_from_derived_governor(
    eleicao: str, uf: str, derived: dict[str, Any], ibge_to_tse: dict[str, str], fonte: str
) -> Baseline:
    """Governor baseline from the third-party normalized municipal file (datasets README).

    Layout: fields = [apuradoPct, eleitorado, comparecimento, validos, brancos, nulos,
    anuladosSubJudice, ...votes in `candidates` order], m = {IBGE code: values}.
    The finalists are the two most voted candidates of the state.
    """
    cands = [int(c) for c in derived["candidates"]]
    totals = dict.fromkeys(cands, 0)
    for values in derived["m"].values():
        for n, v in zip(cands, values[7:], strict=False):
            totals[n] += int(v)
    ranked = sorted(cands, key=lambda n: (-totals[n], n))
    fin = (ranked[0], ranked[1])
    uf_l = uf.lower()
    partes: dict[str, BasePart] = {}
    for ibge, values in derived["m"].items():
        tse = ibge_to_tse.get(str(ibge))
        if tse is None:
            raise ValueError(f"município IBGE {ibge} sem código TSE")
        votos = {n: int(v) for n, v in zip(cands, values[7:], strict=False) if n in fin}
        partes[f"{uf_l}{tse}"] = BasePart(eleitorado=int(values[1]), validos=int(values[3]), votos=votos)
    return Baseline(
        baseline_key(eleicao, "governador", uf_l, "municipio"),
        eleicao,
        "governador",
        uf_l,
        "municipio",
        fin,
        fonte,
        partes,
    )
