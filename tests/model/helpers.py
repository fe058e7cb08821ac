"""Builders of synthetic TSE files and snapshots for the model tests."""

from __future__ import annotations

import datetime as dt
import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.baselines import Baseline, load_baselines
from model.calibration import Calibration, load_calibration
from model.forecast import project
from model.snapshot import CaptureEntry, Snapshot
from model.strata import UFS_PRESIDENTE

DATASETS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
CAPTURES = DATASETS / "tse" / "2026-1t-parcial"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
UTC = dt.UTC
NOW = dt.datetime(2026, 10, 25, 20, 0, 0, tzinfo=UTC)  # 17:00 Brasília
NAMES = {13: "LULA", 22: "FLAVIO BOLSONARO"}


@dataclass
class Part:
    """Numbers of one synthetic part."""

    te: int = 1_000_000
    est: int = 500_000
    votes: dict[int, int] = field(default_factory=lambda: {13: 200_000, 22: 200_000})
    vb: int = 10_000
    vn: int = 20_000
    ts: int = 3000
    st: int | None = None
    hg: dt.datetime | None = None  # UTC; default NOW - 1 min
    dt_ht_empty: bool = False


def u_file(
    cdabr: str,
    part: Part,
    *,
    ele: str = "6258",
    turno: str = "2",
    tpabr: str = "uf",
    cargo: int = 1,
    extra_tv: int = 0,
) -> bytes:
    """A minimal EA20 `-u.json` consistent with the TSE identities (unless `extra_tv`)."""
    vv = sum(part.votes.values())
    tv = vv + part.vb + part.vn + extra_tv
    hg = (part.hg or NOW - dt.timedelta(minutes=1)).astimezone(dt.timezone(dt.timedelta(hours=-3)))
    st = part.st if part.st is not None else (part.ts * part.est // part.te if part.te else 0)
    root: dict[str, Any] = {
        "ele": ele,
        "t": turno,
        "f": "o",
        "tpabr": tpabr,
        "cdabr": cdabr,
        "dg": hg.strftime("%d/%m/%Y"),
        "hg": hg.strftime("%H:%M:%S"),
        "dt": "" if part.dt_ht_empty else hg.strftime("%d/%m/%Y"),
        "ht": "" if part.dt_ht_empty else hg.strftime("%H:%M:%S"),
        "tf": "n",
        "and": "p",
        "carg": [
            {
                "cd": str(cargo),
                "agr": [
                    {
                        "par": [
                            {
                                "cand": [
                                    {
                                        "n": str(n),
                                        "nmu": NAMES.get(n, f"C{n}"),
                                        "vap": str(v),
                                        "dvt": "Válido",
                                    }
                                    for n, v in sorted(part.votes.items())
                                ]
                            }
                        ]
                    }
                ],
            }
        ],
        "s": {"ts": str(part.ts), "st": str(st)},
        "e": {"te": str(part.te), "est": str(part.est)},
        "v": {
            "tv": str(tv),
            "vvc": str(vv),
            "vv": str(vv),
            "van": "0",
            "vansj": "0",
            "vb": str(part.vb),
            "vn": str(part.vn),
            "vnt": "0",
        },
    }
    return json.dumps(root, ensure_ascii=False).encode("utf-8")


def president_name(uf: str, ele: str = "6258") -> str:
    """TSE name of a president UF file."""
    return f"{uf}-c0001-e{int(ele):06d}-u.json"


def snapshot_of(files: dict[str, bytes], entries: dict[str, CaptureEntry] | None = None) -> Snapshot:
    """An in-memory snapshot; every file 200 at NOW unless `entries` says otherwise."""
    captura = {n: CaptureEntry(NOW, 200, False, None) for n in files}
    captura.update(entries or {})
    return Snapshot(arquivos=dict(files), captura=captura)


def president_files(parts: dict[str, Part] | None = None, default: Part | None = None) -> dict[str, bytes]:
    """28 UF files; `parts` overrides single UFs."""
    parts = parts or {}
    return {president_name(uf): u_file(uf, parts.get(uf, default or Part())) for uf in UFS_PRESIDENTE}


def write_snapshot(folder: Path, snap: Snapshot) -> Path:
    """Write a snapshot to disk (files + captura.json)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in snap.arquivos.items():
        (folder / name).write_bytes(raw)
    arquivos: dict[str, Any] = {}
    for name, e in snap.captura.items():
        info: dict[str, Any] = {"status": e.status}
        if e.baixado_em is not None:
            info["baixado_em"] = e.baixado_em.isoformat().replace("+00:00", "Z")
        if e.preservado:
            info["preservado"] = True
        arquivos[name] = info
    (folder / "captura.json").write_text(json.dumps({"arquivos": arquivos}), encoding="utf-8")
    return folder


@functools.cache
def calibration() -> Calibration:
    """The shipped calibration (read once per test session)."""
    return load_calibration()


@functools.cache
def baselines() -> dict[str, Baseline]:
    """The shipped baselines (read once per test session)."""
    return load_baselines()


def run(snap: Snapshot, **kwargs: Any) -> dict[str, Any]:
    """Project with the shipped calibration and baselines, 'now' = NOW unless given."""
    kwargs.setdefault("agora", NOW)
    kwargs.setdefault("baselines", baselines())
    return project(snap, calibracao=calibration(), **kwargs)


def criterion(out: dict[str, Any], cid: str) -> dict[str, Any]:
    """One criterion of an output by id."""
    return next(c for c in out["criterios"] if c["id"] == cid)


def stratum(out: dict[str, Any], sid: str) -> dict[str, Any]:
    """One stratum of an output by id."""
    return next(s for s in out["estratos"] if s["id"] == sid)
