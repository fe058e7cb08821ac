"""The projection method page is tested against the calibration the model actually uses."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from pathlib import Path

from model import VERSION
from model.backtest import pagina_metodologia
from model.calibration import CALIBRATION_PATH, load_calibration

PAGE = Path(__file__).resolve().parents[1] / "content" / "metodologia" / "projecao.md"
BACKTEST = Path(__file__).resolve().parents[1] / "docs" / "BACKTEST.md"
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
    """Band columns are the calibration's rows; the expected-error column is checked against
    `model.bands.expected_error` in tests/test_metodologia_figuras.py."""
    calibration = load_calibration()
    rows = _band_rows()
    assert len(rows) == 7
    for column, table in enumerate(BAND_COLUMNS, start=1):
        if table == "presidente_erro_medio":
            continue
        on_page = [_cell(row[column]) for row in rows]
        assert on_page == list(calibration.faixas[table]), table


def test_audit_section_names_the_calibration_in_force() -> None:
    text = PAGE.read_text(encoding="utf-8")
    calibration = load_calibration()
    digest = hashlib.sha256(CALIBRATION_PATH.read_bytes()).hexdigest()
    assert digest == calibration.sha256
    assert f"| Versão atual do modelo | {VERSION} |" in text
    assert f"| Calibração em vigor | `{calibration.id}` |" in text
    assert f"| SHA-256 do arquivo de calibração | `{digest}` |" in text


def test_generated_sections_are_up_to_date() -> None:
    """The band section and the audit section are generated from the calibration file: a changed
    calibration fails here until `eleicoes backtest-regional --instalar` (or
    `model.backtest.pagina_metodologia.regenerar()`) rewrites the page."""
    text = PAGE.read_text(encoding="utf-8")
    assert pagina_metodologia.pagina(text, CALIBRATION_PATH.read_bytes()) == text


def test_regenerating_a_changed_page_dates_it(tmp_path: Path) -> None:
    """The page says when its text last changed (`atualizado_em`, in the sitemap too): rewriting
    the generated sections dates it; a rewrite that changes nothing keeps the old date."""
    copia = tmp_path / "projecao.md"
    atual = PAGE.read_text(encoding="utf-8")
    copia.write_text(atual, encoding="utf-8")
    assert not pagina_metodologia.regenerar(copia, CALIBRATION_PATH, hoje=dt.date(2027, 1, 2))
    assert copia.read_text(encoding="utf-8") == atual
    copia.write_text(atual.replace("| Calibração em vigor |", "| Calibração antiga |"), encoding="utf-8")
    assert pagina_metodologia.regenerar(copia, CALIBRATION_PATH, hoje=dt.date(2027, 1, 2))
    novo = copia.read_text(encoding="utf-8")
    assert "\natualizado_em = 2027-01-02\n" in novo
    assert pagina_metodologia.com_data(novo, dt.date(2027, 1, 2)) == novo
    assert novo.replace("atualizado_em = 2027-01-02", "") == re.sub(r"atualizado_em = \S+", "", atual)


def _backtest_rows(md: str) -> dict[str, list[str]]:
    """Rows of the first results table of the regional block of docs/BACKTEST.md, by replay group."""
    block = md.split("### Results under the chosen calibration", 1)[1]
    rows: dict[str, list[str]] = {}
    for line in block.splitlines():
        if line.startswith("| 20") and "|---" not in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows.setdefault(cells[0], cells)
        elif rows and not line.startswith("|"):
            break
    return rows


def test_page_figures_match_backtest_report() -> None:
    """The figures the page quotes (from the calibration file) are the ones docs/BACKTEST.md reports for
    the same calibration."""
    raw = CALIBRATION_PATH.read_bytes()
    cal = load_calibration()
    md = BACKTEST.read_text(encoding="utf-8")
    assert f"Calibration fitted here: `{cal.id}` (SHA-256 `{cal.sha256}`)" in md
    assert "**It is the calibration in force**" in md
    resumo = json.loads(raw)["backtest"]["resumo"]["com_verificacao"]
    rows = _backtest_rows(md)
    assert set(resumo) == set(rows)
    for group, r in resumo.items():
        cells = rows[group]
        assert int(cells[1]) == r["noites"]
        assert float(cells[4]) == r["cobertura_minima_pct"]
        assert int(cells[5]) == r["noites_tendencia_errada"]
        med = r["mediana_apurado_tendencia_pct"]
        assert cells[6] == ("–" if med is None else f"{med:.1f}")
        assert int(cells[8]) == r["capturas_sem_correcao_pela_verificacao"]
    page = PAGE.read_text(encoding="utf-8")
    worst = resumo["2022_2t x1"]["cobertura_minima_pct"]
    assert f"{worst:.1f}%".replace(".", ",") in page
