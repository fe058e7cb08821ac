"""A night of stored readings for the projection pages, made by running the real model.

Three races, laid out as the polling job writes them (PINS.md):

* `6257/presidente`: the two real 2026 1st-round captures from `../shared/datasets/` (12
  candidates). The second one misses the RS file upstream, so it is NOT publishable: the page
  must show only the partial and the first capture's projection with its time stamp.
* `6259/governador-pa`: the Pará governor file of the same captures (degraded mode, one part).
* `6258/presidente`: a synthetic runoff between two fictional candidates (demonstration numbers,
  drift correction on), three captures: 5 % counted (not publishable), 40 % and 97 % (publishable,
  the last one arithmetically decided). `runoff_capture` makes more of them for incremental tests.

`saida.json` is always the stdout of `python -m model.cli projetar` on the folder, as the job stores it.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from model.strata import UFS_PRESIDENTE
from tests.model.helpers import CAPTURES, Part, u_file

REPO = Path(__file__).resolve().parents[2]
BRASILIA = dt.timezone(dt.timedelta(hours=-3))
FICTIONAL = {13: "HELENA PRADO", 22: "RUI AMARAL"}  # the site's demonstration candidates
RUNOFF_START = dt.datetime(2026, 10, 25, 20, 0, 0, tzinfo=dt.UTC)  # 17:00 in Brasília
RUNOFF_STEPS = (5.0, 40.0, 97.0)  # % of the electorate counted in each synthetic capture
# The two real 1st-round captures the fixture night uses, pinned: the dataset folder holds more
# captures of that night now, and the tests describe these two (the second one misses RS).
REAL_CAPTURES = ("2026-10-04T21-36-05Z", "2026-10-04T21-39-46Z")


def capture_name(when: dt.datetime) -> str:
    """Folder name of a capture (UTC)."""
    return when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H-%M-%SZ")


def project(folder: Path, *args: str) -> bytes:
    """Run the model CLI on a snapshot folder and store its stdout as `saida.json`."""
    done = subprocess.run(
        [sys.executable, "-m", "model.cli", "projetar", str(folder), *args],
        capture_output=True,
        check=True,
        cwd=REPO,
    )
    (folder / "saida.json").write_bytes(done.stdout)
    return done.stdout


def set_latest(race: Path, name: str) -> None:
    """Point the race's `latest` at a capture, as the job does after writing it."""
    (race / "latest").write_text(name + "\n", encoding="utf-8")


def real_president(data: Path) -> Path:
    """`6257/presidente` from the real 1st-round captures."""
    race = data / "tse" / "6257" / "presidente"
    for capture in (CAPTURES / n for n in REAL_CAPTURES):
        target = race / capture.name
        shutil.copytree(capture, target)
        project(target)
        set_latest(race, capture.name)
    return race


def real_governor(data: Path) -> Path:
    """`6259/governador-pa`: only the Pará governor file of each real capture."""
    race = data / "tse" / "6259" / "governador-pa"
    name = "pa-c0003-e006259-u.json"
    for capture in (CAPTURES / n for n in REAL_CAPTURES):
        target = race / capture.name
        target.mkdir(parents=True)
        shutil.copy2(capture / name, target / name)
        entries = json.loads((capture / "captura.json").read_text(encoding="utf-8"))["arquivos"]
        (target / "captura.json").write_text(
            json.dumps({"arquivos": {name: entries[name]}}), encoding="utf-8"
        )
        project(target, "--cargo", "governador", "--uf", "pa")
        set_latest(race, capture.name)
    return race


def _fictional(raw: bytes) -> bytes:
    root: dict[str, Any] = json.loads(raw)
    for cand in root["carg"][0]["agr"][0]["par"][0]["cand"]:
        cand["nmu"] = FICTIONAL[int(cand["n"])]
    return json.dumps(root, ensure_ascii=False).encode("utf-8")


def _uf_part(index: int, pct: float, when: dt.datetime) -> Part:
    te = 400_000 + 97_000 * index
    est = int(te * pct / 100)
    vv = int(est * 0.82)
    share = 0.38 + 0.01 * (index % 25) + 0.0002 * pct  # late votes lean slightly towards 13
    v13 = int(vv * share)
    return Part(
        te=te,
        est=est,
        votes={13: v13, 22: vv - v13},
        vb=int(est * 0.03),
        vn=int(est * 0.05),
        ts=te // 300,
        hg=when - dt.timedelta(minutes=1),
    )


def runoff_capture(race: Path, step: int, pct: float, *, skip: tuple[str, ...] = ()) -> str:
    """One synthetic runoff capture `step` (10 minutes apart) at `pct` % counted; returns its name."""
    when = RUNOFF_START + dt.timedelta(minutes=10 * step)
    folder = race / capture_name(when)
    folder.mkdir(parents=True)
    parts = {uf: _uf_part(i, pct, when) for i, uf in enumerate(UFS_PRESIDENTE)}
    files = {f"{uf}-c0001-e006258-u.json": u_file(uf, part) for uf, part in parts.items() if uf not in skip}
    total = Part(
        te=sum(p.te for p in parts.values()),
        est=sum(p.est for p in parts.values()),
        votes={n: sum(p.votes[n] for p in parts.values()) for n in (13, 22)},
        vb=sum(p.vb for p in parts.values()),
        vn=sum(p.vn for p in parts.values()),
        ts=sum(p.ts for p in parts.values()),
        hg=when - dt.timedelta(minutes=2),
    )
    files["br-c0001-e006258-u.json"] = u_file("br", total, tpabr="br")
    stamp = when.isoformat().replace("+00:00", "Z")
    for name, data in files.items():
        (folder / name).write_bytes(_fictional(data))
    captura = {"arquivos": {name: {"baixado_em": stamp, "status": 200} for name in sorted(files)}}
    (folder / "captura.json").write_text(json.dumps(captura, indent=1), encoding="utf-8")
    project(folder)
    return folder.name


def runoff(data: Path) -> Path:
    """`6258/presidente`: the synthetic runoff captures of RUNOFF_STEPS."""
    race = data / "tse" / "6258" / "presidente"
    for step, pct in enumerate(RUNOFF_STEPS):
        set_latest(race, runoff_capture(race, step, pct))
    return race


def make_night(data: Path) -> None:
    """Every race of the fixture night under `data/`."""
    real_president(data)
    real_governor(data)
    runoff(data)
