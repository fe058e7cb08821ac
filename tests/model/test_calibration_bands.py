"""Band table interpretation, drift curve and the calibration hash.

The table-reading tests use the previous calibration (`bt2022h26-v31-provisoria`, the seed's tables,
kept as a fixture) because its hand-checkable values are the seed's; the file in force is checked for
its metadata and hash."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from model import VERSION, drift_fit
from model.bands import expected_error, half_width, margin_half_width, partial_error
from model.calibration import CALIBRATION_PATH, CalibrationError, load_calibration, parse_calibration
from model.drift import corrected_shares, drift_at
from tests.model.helpers import DATASETS, FIXTURES, calibration

CAL = load_calibration(FIXTURES / "calibracao" / "bt2022h26-v31-provisoria.json")


@pytest.mark.parametrize(
    ("tabela", "pct", "expected"),
    [
        ("presidente", 5.0, 0.75),  # below the lowest range: first row
        ("presidente", 15.0, 0.75),
        ("presidente", 40.0, 0.725),  # "±0,75 a ±0,70" over 30-50 %
        ("presidente", 50.0, 0.60),  # a new range starts at its lower bound
        ("presidente", 60.0, 0.555),
        ("presidente", 94.0, 0.15),
        ("presidente", 100.0, 0.05),  # last row's end
        ("governador_municipio", 10.0, 1.7),
        ("governador_municipio", 80.0, 0.525),
        ("governador_zona", 30.0, 0.3),
        ("governador_degradado", 99.0, 0.25),
        ("presidente_sem_correcao", 15.0, 2.3),
        ("presidente_sem_correcao", 55.0, 1.4),  # seed: "±1,4 a 50-60%"
    ],
)
def test_half_width_table(tabela: str, pct: float, expected: float) -> None:
    assert half_width(CAL, tabela, pct) == pytest.approx(expected)


def test_margin_band_is_twice_the_candidate_band() -> None:
    assert margin_half_width(0.6) == 1.2


def test_expected_errors() -> None:
    assert expected_error(CAL, "presidente", 15.0) == pytest.approx(0.38)
    assert expected_error(CAL, "presidente", 60.0) == pytest.approx(0.30 - 0.02)
    assert expected_error(CAL, "governador_municipio", 25.0) == pytest.approx(0.85)  # half the band
    assert 4.4 <= partial_error(CAL, 15.0) <= 4.5  # seed: "4,4 pontos a 10-20%"


def test_drift_curve_grid_and_correction() -> None:
    assert CAL.deriva_grade == tuple(float(x) for x in range(0, 101, 5))
    assert drift_at(CAL, 100.0) == 0.0
    mid = (CAL.deriva_pp[4] + CAL.deriva_pp[5]) / 2
    assert drift_at(CAL, 22.5) == pytest.approx(mid)
    shares, corr = corrected_shares(CAL, {13: 48.0, 22: 52.0}, 22.5)
    assert corr == pytest.approx(-mid) and shares[13] + shares[22] == pytest.approx(100.0)
    same, zero = corrected_shares(CAL, {11: 48.0, 22: 52.0}, 22.5)  # reference candidate absent
    assert zero == 0.0 and same == {11: 48.0, 22: 52.0}


def test_drift_curve_is_reproducible_from_the_datasets() -> None:
    fit = drift_fit.fit(DATASETS)
    assert tuple(fit["deriva_pp"]) == CAL.deriva_pp
    assert tuple(fit["erro_parcial_pp"]) == CAL.erro_parcial_pp


def test_calibration_file_metadata() -> None:
    raw = CALIBRATION_PATH.read_bytes()
    root = json.loads(raw)
    in_force = calibration()
    assert root["id"] == in_force.id and in_force.id.endswith("-provisoria")
    assert root["versao_modelo"] == VERSION == "3.1.0"
    assert in_force.sha256 == hashlib.sha256(raw).hexdigest()
    assert "PROVISÓRIA" in root["nota"]
    assert in_force.verificacao_deriva is not None


def test_one_byte_changes_the_hash(tmp_path: Path) -> None:
    raw = CALIBRATION_PATH.read_bytes()
    ident = calibration().id.encode()
    changed = raw.replace(b'"id": "' + ident + b'"', b'"id": "' + ident[:-1] + b'A"')
    assert len(changed) == len(raw) and changed != raw
    assert parse_calibration(changed).sha256 != parse_calibration(raw).sha256
    assert parse_calibration(raw + b" ").sha256 != calibration().sha256  # even whitespace


def test_bad_calibration_raises() -> None:
    with pytest.raises(CalibrationError):
        parse_calibration(b"{}")


def test_docs_name_the_calibration_in_force() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "MODELO.md").read_text(encoding="utf-8")
    assert calibration().sha256 in doc and calibration().id in doc
