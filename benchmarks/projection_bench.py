"""Benchmark of the projection model: read + parse + project one snapshot.

* president (28 UF files): the real 2026 1st-round capture `2026-10-04T21-36-05Z` (30 files in the
  folder: 28 parts + the national file + one governor file);
* president by municipality: one `-u.json` per municipality (5,570) built from
  `datasets/results/pres_2t_2022_mun.csv` (2022 runoff, election 545), each partially counted
  (a deterministic fraction of its electorate) so every step of the projection runs.

Targets (issue 3): president under 20 ms, president by municipality under 1 s.
Run from the repo root: `python benchmarks/projection_bench.py`.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.report import median, write_section  # noqa: E402
from model.baselines import load_baselines  # noqa: E402
from model.calibration import load_calibration  # noqa: E402
from model.forecast import project, to_json_bytes  # noqa: E402
from model.snapshot import read_snapshot  # noqa: E402

DATASETS = ROOT.parent / "shared" / "datasets"
CAPTURE = DATASETS / "tse" / "2026-1t-parcial" / "2026-10-04T21-36-05Z"
MUN_CSV = DATASETS / "results" / "pres_2t_2022_mun.csv"
HG = dt.datetime(2022, 10, 30, 18, 30, tzinfo=dt.timezone(dt.timedelta(hours=-3)))


def municipal_file(uf: str, cd: str, votes: dict[int, int], vb: int, vn: int, abst: int) -> tuple[str, bytes]:
    """One EA20 municipal file, counted up to a deterministic fraction of its electorate."""
    te = sum(votes.values()) + vb + vn + abst
    frac = (zlib.crc32(cd.encode()) % 1001) / 1000
    part = {n: int(v * frac) for n, v in votes.items()}
    pvb, pvn, pab = int(vb * frac), int(vn * frac), int(abst * frac)
    vv = sum(part.values())
    est = vv + pvb + pvn + pab
    root = {
        "ele": "545",
        "t": "2",
        "f": "o",
        "tpabr": "mu",
        "cdabr": cd,
        "dg": HG.strftime("%d/%m/%Y"),
        "hg": HG.strftime("%H:%M:%S"),
        "dt": HG.strftime("%d/%m/%Y"),
        "ht": HG.strftime("%H:%M:%S"),
        "carg": [
            {
                "cd": "1",
                "agr": [
                    {"par": [{"cand": [{"n": str(n), "nmu": f"C{n}", "vap": str(v), "dvt": "Válido"}]}]}
                    for n, v in sorted(part.items())
                ],
            }
        ],
        "s": {"ts": "100", "st": str(int(100 * frac))},
        "e": {"te": str(te), "est": str(est)},
        "v": {
            "tv": str(vv + pvb + pvn),
            "vvc": str(vv),
            "vv": str(vv),
            "van": "0",
            "vansj": "0",
            "vb": str(pvb),
            "vn": str(pvn),
            "vnt": "0",
        },
    }
    return f"{uf.lower()}{cd}-c0001-e000545-u.json", json.dumps(root, ensure_ascii=False).encode("utf-8")


def build_municipal_snapshot(folder: Path) -> int:
    """Write the 5,570-file municipal snapshot; returns the number of files."""
    rows: dict[tuple[str, str], dict[str, object]] = {}
    with MUN_CSV.open(encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            key = (r["uf"], r["cd_tse"])
            entry = rows.setdefault(
                key, {"votes": {}, "vb": int(r["brancos"]), "vn": int(r["nulos"]), "a": int(r["abstencoes"])}
            )
            votes = entry["votes"]
            assert isinstance(votes, dict)
            votes[int(r["nr"])] = int(r["votos"])
    captura = {}
    for (uf, cd), e in sorted(rows.items()):
        votes, vb, vn, a = e["votes"], e["vb"], e["vn"], e["a"]
        assert isinstance(votes, dict) and isinstance(vb, int) and isinstance(vn, int) and isinstance(a, int)
        name, raw = municipal_file(uf, cd, votes, vb, vn, a)
        (folder / name).write_bytes(raw)
        captura[name] = {"baixado_em": "2022-10-30T21:31:00Z", "status": 200}
    (folder / "captura.json").write_text(json.dumps({"arquivos": captura}), encoding="utf-8")
    return len(captura)


def time_runs(folder: Path, runs: int, **kwargs: object) -> tuple[list[float], dict[str, object]]:
    """Milliseconds of read + parse + project + serialize, `runs` times."""
    cal, base = load_calibration(), load_baselines()
    out: dict[str, object] = {}
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        snap = read_snapshot(folder)
        out = project(snap, calibracao=cal, baselines=base, **kwargs)  # type: ignore[arg-type]
        to_json_bytes(out)
        times.append((time.perf_counter() - t0) * 1000)
    return times, out


def main() -> int:
    """Run both benchmarks, print and record the figures."""
    pres, out = time_runs(CAPTURE, 50, anterior=None)
    assert out["modo"] == "presidente_sem_correcao"
    with tempfile.TemporaryDirectory() as tmp:
        n_files = build_municipal_snapshot(Path(tmp))
        mun, out_mun = time_runs(Path(tmp), 7)
    assert out_mun["modo"] == "presidente_municipio_sem_correcao" or out_mun["modo"] == "presidente_municipio"
    lines = [
        "| case | files | runs | median | min | max | target |",
        "|---|---:|---:|---:|---:|---:|---|",
        f"| president by UF (real capture 2026-10-04T21-36-05Z) | 30 (28 parts) | {len(pres)} | "
        f"{median(pres):.2f} ms | {min(pres):.2f} ms | {max(pres):.2f} ms | < 20 ms |",
        f"| president by municipality (built from pres_2t_2022_mun.csv) | {n_files} | {len(mun)} | "
        f"{median(mun):.0f} ms | {min(mun):.0f} ms | {max(mun):.0f} ms | < 1 s |",
        "",
        "Each run = read the snapshot folder (files + captura.json), parse every file, project, "
        "evaluate the criteria and serialize the output JSON, in one process (warm file cache).",
    ]
    body = "\n".join(lines)
    print(body)
    write_section("Projection model", "python benchmarks/projection_bench.py", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
