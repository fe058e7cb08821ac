"""The projection method page is tested against the calibration the model actually uses."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from model import VERSION
from model.calibration import CALIBRATION_PATH, load_calibration

PAGE = Path(__file__).resolve().parents[1] / "content" / "metodologia" / "projecao.md"
# Columns of the page's band table, in order, and the calibration table each one shows.
BAND_COLUMNS = (
    "presidente",
    "presidente_erro_medio",
    "governador_municipio",
    "governador_zona",
    "governador_degradado",
)


def _number(text: str) -> float:
    return float(text.replace("±", "").replace(",", ".").strip())


def _cell(text: str) -> tuple[float, float] | None:
    """'±0,75' -> (0.75, 0.75); 'de ±0,75 a ±0,70' -> (0.75, 0.70); 'não publica' -> None."""
    text = text.strip()
    if text == "não publica":
        return None
    found = re.fullmatch(r"de (\S+) a (\S+)", text)
    if found:
        return _number(found.group(1)), _number(found.group(2))
    return _number(text), _number(text)


def _band_rows() -> list[list[str]]:
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| Eleitorado apurado | Presidente"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_band_table_on_page_matches_calibration() -> None:
    calibration = load_calibration()
    rows = _band_rows()
    assert len(rows) == 7
    for column, table in enumerate(BAND_COLUMNS, start=1):
        on_page = [_cell(row[column]) for row in rows]
        in_file = list(
            calibration.erro_medio_presidente
            if table == "presidente_erro_medio"
            else calibration.faixas[table]
        )
        assert on_page == in_file, table


def test_audit_section_names_the_calibration_in_force() -> None:
    text = PAGE.read_text(encoding="utf-8")
    calibration = load_calibration()
    digest = hashlib.sha256(CALIBRATION_PATH.read_bytes()).hexdigest()
    assert digest == calibration.sha256
    assert f"| Versão atual do modelo | {VERSION} |" in text
    assert f"| Calibração em vigor | `{calibration.id}` |" in text
    assert f"| SHA-256 do arquivo de calibração | `{digest}` |" in text
