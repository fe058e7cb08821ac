"""Issue-3 leftovers: abroad among municipal parts, DF zones inside a 2022 `-v` file, zone baselines;
and the backtest's building blocks (exact splits, band rows, bweb files)."""

from __future__ import annotations

import argparse
import csv
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model import cli as model_cli
from model.backtest.arredondamento import controlled_round, fit_margins, largest_remainder
from model.backtest.bweb import COLUNAS, BwebError, ler_secoes, noite_bweb
from model.backtest.calibrar import linhas_tabela
from model.backtest.replay import preparar, replay_simulado
from model.forecast import project
from model.snapshot import CaptureEntry, Snapshot
from model.strata import DF_ZONAS, MODE_GOV_ZONE, plan_parts
from tests.model.helpers import DATASETS, NOW, Part, calibration, snapshot_of, u_file

DF_V = DATASETS / "tse/2022/ele2022_544/df97012-c0001-e000544-v.json"


def test_abroad_uf_file_is_a_part_of_the_municipal_president() -> None:
    names = ["sp71072-c0001-e006258-u.json", "zz-c0001-e006258-u.json", "sp-c0001-e006258-u.json"]
    plan = plan_parts(names, "presidente", None, "6258", ())
    assert plan.modo == "presidente_municipio"
    zz = next(p for p in plan.partes if p.id == "zz")
    assert zz.nivel == "uf" and [p.id for p in plan.partes] == ["sp71072", "zz"]
    files = {
        "sp71072-c0001-e006258-u.json": u_file("71072", Part(), tpabr="mu"),
        "zz-c0001-e006258-u.json": u_file(
            "zz", Part(te=10_000, est=5_000, votes={13: 2_000, 22: 1_000}, vb=100, vn=100)
        ),
    }
    out = project(snapshot_of(files), calibracao=calibration(), baselines={}, agora=NOW)
    assert {s["id"]: s["valido"] for s in out["estratos"]} == {"sp71072": True, "zz": True}
    assert out["forecast"]["candidatos"][0]["votos_projetados"] == 400_000 + 4_000


def test_df_zones_inside_the_2022_municipal_v_file() -> None:
    raw = DF_V.read_bytes().replace(b'"carper": "1"', b'"carper": "3"').replace(b'"544"', b'"546"')
    name = "df97012-c0003-e000546-v.json"
    plan = plan_parts([name], "governador", "df", "546", ())
    assert plan.modo == MODE_GOV_ZONE and len(plan.partes) == len(DF_ZONAS) == 19
    assert all(p.arquivo == name and p.linha == p.id[-4:] for p in plan.partes)
    snap = Snapshot({name: raw}, {name: CaptureEntry(NOW, 200, False, None)})
    out = project(snap, calibracao=calibration(), baselines={}, cargo="governador", uf="df", agora=NOW)
    assert out["modo"] == "governador_zona" and out["apurado_pct"] == 100.0
    assert all(s["valido"] for s in out["estratos"])
    z1 = next(s for s in out["estratos"] if s["id"] == "df97012-z0001")
    assert z1["eleitorado"] == 76126  # zone 1's own row, not the municipality's
    totals = {c["numero"]: c["votos_projetados"] for c in out["forecast"]["candidatos"]}
    mu = json.loads(DF_V.read_bytes())["abr"][0]
    assert totals[13] == next(int(c["vap"]) for c in mu["cand"] if c["n"] == "13")


def test_baseline_command_reads_zone_rows_of_a_municipal_v_file(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser(prog="eleicoes")
    sub = parser.add_subparsers(dest="comando", required=True)
    model_cli.register(sub)
    argv = [
        "baseline",
        "--eleicao",
        "547",
        "--cargo",
        "governador",
        "--uf",
        "df",
        "--nivel",
        "zona",
        "--saida",
        str(tmp_path),
        str(DF_V),
    ]
    args = parser.parse_args(argv)
    assert args.func(args) == 0
    base = json.loads((tmp_path / "547-governador-df-zona.json").read_text(encoding="utf-8"))
    assert base["nivel"] == "zona" and len(base["partes"]) == 19
    assert base["partes"]["df97012-z0001"]["eleitorado"] == 76126
    args = parser.parse_args(["baseline", "--eleicao", "545", "--saida", str(tmp_path), str(DF_V)])
    assert args.func(args) == 0
    mun = json.loads((tmp_path / "545-presidente-br-municipio.json").read_text(encoding="utf-8"))
    assert list(mun["partes"]) == ["df97012"] and mun["partes"]["df97012"]["eleitorado"] == 2206996


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 400), min_size=1, max_size=8),
    st.lists(st.floats(0.05, 5.0), min_size=2, max_size=6),
)
def test_exact_splits_keep_both_margins(rows: list[int], weights: list[float]) -> None:
    total = sum(rows)
    cols = largest_remainder(weights, total)
    assert sum(cols) == total and all(c >= 0 for c in cols)
    seed = [[r * w for w in weights] for r in rows]
    table = controlled_round(fit_margins(seed, rows, cols), rows, cols)
    assert [sum(r) for r in table] == rows
    assert [sum(r[j] for r in table) for j in range(len(cols))] == cols
    assert all(x >= 0 for r in table for x in r)


def test_band_rows_cover_the_requirement_and_never_grow() -> None:
    required = {b: 3.0 - 0.025 * b for b in range(10, 100)} | {25: 2.9}  # a bump at 25 %
    rows = linhas_tabela(required, [10, 20, 30, 50, 70, 90, 98, 100], 20, 0.05)
    assert rows[0] is None
    flat = [x for r in rows if r is not None for x in r]
    assert flat == sorted(flat, reverse=True)
    lims = [10, 20, 30, 50, 70, 90, 98, 100]
    for i, r in enumerate(rows):
        if r is None:
            continue
        lo, hi = lims[i], lims[i + 1]
        for b in range(lo, hi):
            line = r[0] + (r[1] - r[0]) * (b + 1 - lo) / (hi - lo)
            assert line >= required[b] - 1e-9
    assert rows[-1] is not None and rows[-1][1] >= 0.05


def _bweb_csv(path: Path) -> list[dict[str, str]]:
    rows = []
    for i in range(12):  # fictional sections of two municipalities, arriving a minute apart
        mun = "00035" if i % 3 else "00078"
        base = {
            "SG_UF": "RO",
            "CD_MUNICIPIO": str(int(mun)),
            "NR_ZONA": "1",
            "NR_SECAO": str(i + 1),
            "CD_CARGO_PERGUNTA": "1",
            "QT_APTOS": "300",
            "QT_COMPARECIMENTO": "240",
            "DT_BU_RECEBIDO": f"30/10/2022 17:{10 + i:02d}:00",
        }
        votes = {"13": 100 + 5 * i, "22": 120 - 5 * i, "95": 8, "96": 12, "97": 0}
        for n, v in votes.items():
            rows.append(base | {"NR_VOTAVEL": n, "QT_VOTOS": str(v)})
        rows.append(base | {"CD_CARGO_PERGUNTA": "3", "NR_VOTAVEL": "44", "QT_VOTOS": "200"})
    with path.open("w", encoding="latin-1", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(COLUNAS), delimiter=";", quoting=csv.QUOTE_ALL)
        w.writeheader()
        w.writerows(rows)
    return rows


def test_bweb_files_replay_the_real_order(tmp_path: Path) -> None:
    path = tmp_path / "bweb_2t_RO_311020221535.csv"
    _bweb_csv(path)
    zpath = tmp_path / "bweb_2t_RO_311020221535.zip"
    with zipfile.ZipFile(zpath, "w") as z:
        z.write(path, path.name)
    secoes = ler_secoes([zpath])
    assert len(secoes) == 12 and secoes == ler_secoes([path])
    noite, aloc = noite_bweb(secoes, 6)
    assert [lo.minuto for lo in noite.lotes] == sorted(lo.minuto for lo in noite.lotes)
    assert aloc.disputa.total() == (
        sum(100 + 5 * i for i in range(12)),
        sum(120 - 5 * i for i in range(12)),
        96,
        144,
        720,
    )
    c = preparar(
        noite,
        aloc,
        chave="presidente",
        variante="uf",
        nivel="uf",
        cargo="presidente",
        eleicao="545",
        turno=2,
        uf=None,
        baselines={},
    )
    lines = replay_simulado("bweb", noite, c, range(6), calibration())
    assert lines[-1].apurado == 100.0 and abs(lines[-1].parcial - lines[-1].final) < 1e-4
    assert lines[0].apurado < lines[-1].apurado


def test_bweb_without_the_columns_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bweb.csv"
    bad.write_text('"SG_UF";"QT_VOTOS"\n"RO";"1"\n', encoding="latin-1")
    with pytest.raises(BwebError, match="colunas ausentes"):
        ler_secoes([bad])
