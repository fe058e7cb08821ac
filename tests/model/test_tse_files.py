"""Parsing of real TSE files: every 2026 partial capture, the 2026 finals and the 2022 legacy files."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path

import pytest

from model.snapshot import read_snapshot
from model.tse_files import (
    TseFormatError,
    consistency_problems,
    parse_brasilia,
    parse_decimal,
    parse_file_name,
    parse_result,
)
from tests.model.helpers import CAPTURES, DATASETS

PARTIAL_FILES = sorted(CAPTURES.glob("*/*-u.json"))
FINAL_FILES = sorted((DATASETS / "tse" / "2026-1t-final").rglob("*-u.json"))
LEGACY_V = sorted((DATASETS / "tse" / "2022").rglob("*-v.json"))


def test_real_files_are_there() -> None:
    # Every capture file the datasets' manifest lists (141 in six captures when this was written).
    with (CAPTURES / "manifest.csv").open(encoding="utf-8") as fh:
        listed = list(csv.DictReader(fh))
    assert len(PARTIAL_FILES) == len(listed) >= 59
    assert len(FINAL_FILES) >= 31
    assert len(LEGACY_V) == 6


@pytest.mark.parametrize("path", PARTIAL_FILES + FINAL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_2026_file_parses_and_adds_up(path: Path) -> None:
    [rec] = parse_result(path.read_bytes())
    fname = parse_file_name(path.name)
    assert fname is not None
    assert rec.eleicao == fname.eleicao
    assert rec.cargo == fname.cargo
    assert consistency_problems(rec) == []
    assert rec.eleitorado_totalizado <= rec.eleitorado


def test_partial_values_match_manifest() -> None:
    with (CAPTURES / "manifest.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    folders = {p.name[:19]: p for p in CAPTURES.iterdir() if p.is_dir()}
    for row in rows:
        folder = folders[row["capture"][:19]]
        name = {
            "presidente.json": "br-c0001-e006257-u.json",
            "governador.json": "pa-c0003-e006259-u.json",
        }.get(row["file"], row["file"].replace("pres-", "").replace(".json", "-c0001-e006257-u.json"))
        [rec] = parse_result((folder / name).read_bytes())
        assert (rec.secoes_totalizadas, rec.secoes) == (int(row["st"]), int(row["ts"]))
        assert (rec.eleitorado, rec.eleitorado_totalizado) == (int(row["te"]), int(row["est"]))
        votes = {c.numero: c.votos for c in rec.candidatos}
        assert votes[int(row["cand1_n"])] == int(row["cand1_vap"])
        assert votes[int(row["cand2_n"])] == int(row["cand2_vap"])
        assert rec.vvc == int(row["vvc"])


def test_pa_governor_sub_judice_votes_are_not_valid() -> None:
    [rec] = parse_result((CAPTURES / "2026-10-04T21-36-05Z" / "pa-c0003-e006259-u.json").read_bytes())
    invalid = [c for c in rec.candidatos if not c.valido]
    assert [c.numero for c in invalid] == [35]  # Ruth Reis, "Anulado sub judice"
    assert rec.vansj == sum(c.votos for c in invalid)
    assert sum(c.votos for c in rec.candidatos if c.valido) == rec.vv


def test_brasilia_clock_of_acre_file() -> None:
    [rec] = parse_result((CAPTURES / "2026-10-04T21-36-05Z" / "ac-c0001-e006257-u.json").read_bytes())
    assert rec.gerado_em is not None
    assert rec.gerado_em.isoformat() == "2026-10-04T18:34:32-03:00"
    assert rec.totalizado_local == "04/10/2026 16:33:50"  # Acre local time, not Brasília


def test_capture_folders_read_as_snapshots() -> None:
    first = read_snapshot(CAPTURES / "2026-10-04T21-36-05Z")
    second = read_snapshot(CAPTURES / "2026-10-04T21-39-46Z")
    assert first.erro_captura is None and second.erro_captura is None
    assert len(first.arquivos) == 30 and len(second.arquivos) == 29
    assert "rs-c0001-e006257-u.json" not in second.arquivos
    latest = second.latest_download()
    assert latest is not None and latest.isoformat() == "2026-10-04T21:39:46.908000+00:00"


@pytest.mark.parametrize("path", LEGACY_V, ids=lambda p: p.name)
def test_2022_v_files_parse(path: Path) -> None:
    recs = parse_result(path.read_bytes(), "v")
    assert recs
    if "simulado" in path.parent.name:
        # The 2022 simulation file does not add up (sum of candidates != vv): it must be flagged.
        assert any(consistency_problems(r) for r in recs)
        return
    for rec in recs:
        assert consistency_problems(rec) == []
    raw = json.loads(path.read_bytes())
    for row, rec in zip(raw["abr"], recs, strict=True):
        # 2022: electorate = apurado + não apurado + não instaladas.
        assert int(row["e"]) == int(row["ea"]) + int(row["ena"]) + int(row["esni"])
        assert rec.eleitorado_totalizado == int(row["e"]) - int(row["ena"])


def test_2022_municipal_v_carries_one_row_per_zone() -> None:
    path = DATASETS / "tse" / "2022" / "ele2022_544" / "df97012-c0001-e000544-v.json"
    recs = parse_result(path.read_bytes(), "v")
    assert [r.tpabr for r in recs].count("mu") == 1
    zones = [r for r in recs if r.tpabr == "zona"]
    assert len(zones) == 19
    assert all(len(z.cdabr) == 4 for z in zones)  # "6" -> "0006"
    mun = next(r for r in recs if r.tpabr == "mu")
    assert sum(z.vv for z in zones) == mun.vv
    assert sum(z.eleitorado for z in zones) == mun.eleitorado


def test_file_names() -> None:
    f = parse_file_name("df97012-z0001-c0003-e006260-u.json")
    assert f is not None and f.parte == "df97012-z0001" and f.cargo == 3 and f.eleicao == "6260"
    g = parse_file_name("sp71072-c0001-e000544-v.json")
    assert g is not None and g.parte == "sp71072" and g.formato == "v" and g.eleicao == "544"
    assert parse_file_name("br-e006257-ab.json") is None
    assert parse_file_name("captura.json") is None


def test_exact_number_parsing() -> None:
    assert parse_decimal("46,580693503", "x") == Decimal("46.580693503")
    assert parse_decimal("100", "x") == Decimal(100)
    with pytest.raises(TseFormatError):
        parse_decimal("abc", "x")
    assert parse_brasilia("", "") is None
    assert parse_brasilia("31/02/2026", "10:00:00") is None


@pytest.mark.parametrize(
    "raw",
    [b"{not json", b"[]", b'{"ele": "6258"}', b'{"ele": "6258", "t": "2", "s": {}, "e": {}, "v": {}}'],
)
def test_malformed_files_raise_format_error(raw: bytes) -> None:
    with pytest.raises(TseFormatError):
        parse_result(raw)
