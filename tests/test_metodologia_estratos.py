"""The projection method page lists every configured race in its strata table and cites only
sources that exist (issue 23, point 8)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from model.baselines import load_baselines

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "content" / "metodologia" / "projecao.md"


def _strata_rows() -> dict[str, str]:
    """'Governador do Rio de Janeiro' -> '92' from the table of "### Passo 1"."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = lines.index("| Disputa | Como é dividida | Número de partes |")
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[2]
    return rows


def test_strata_table_lists_every_configured_governor_race() -> None:
    config = tomllib.loads((ROOT / "eleicoes.toml").read_text(encoding="utf-8"))
    ufs = set()
    for corrida in config["tse"]["corridas"]:
        if corrida["cargo"] == "governador":
            ufs.update(corrida.get("ufs", [corrida.get("uf")]))
    bases = {b.uf: b for b in load_baselines().values() if b.cargo == "governador"}
    rows = _strata_rows()
    assert "rj" in ufs and len(rows) == 1 + len(ufs)
    assert rows["Governador do Rio de Janeiro"] == str(len(bases["rj"].partes))
    for uf, base in bases.items():
        assert str(len(base.partes)) in rows.values(), uf


def test_method_page_cites_only_files_that_exist() -> None:
    text = PAGE.read_text(encoding="utf-8")
    cited = set(re.findall(r"`((?:docs|model|content|jobs|site_builder)/[^`\s]+)`", text))
    missing = sorted(p for p in cited if not (ROOT / p).exists())
    assert missing == []
