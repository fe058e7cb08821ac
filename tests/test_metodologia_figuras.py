"""The projection's published figures tell the truth (issue 23, items 3 to 6), and every figure of the
method page's generated sections is traced to the file it comes from.

Pure checks on content/metodologia/projecao.md, the calibration file, docs/BACKTEST.md, the shipped
baselines and the race page's error lines (rendered from the model's own output, no site build).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from model import VERSION
from model.backtest import pagina_metodologia as pm
from model.bands import expected_error, half_width
from model.baselines import load_baselines
from model.calibration import CALIBRATION_PATH, load_calibration
from model.criteria import GOVERNOR_RULES, PRESIDENT_RULES
from site_builder import br_format
from site_builder.projecao_dados import parse_saida
from site_builder.projecao_view import projection_block
from site_builder.render import make_environment
from tests.model.helpers import Part, baselines, president_files, run, snapshot_of, u_file
from tests.test_metodologia_calibracao import _backtest_rows, _band_rows

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "content" / "metodologia" / "projecao.md"
BACKTEST = ROOT / "docs" / "BACKTEST.md"
SEED = ROOT.parent / "shared" / "seeds" / "metodologia-projecao.txt"
CAL = load_calibration()
RESUMO = json.loads(CALIBRATION_PATH.read_bytes())["backtest"]["resumo"]


def _br(x: float, casas: int = 2) -> str:
    return f"{x:.{casas}f}".replace(".", ",")


def _mil(n: int) -> str:
    return f"{n:,d}".replace(",", ".")


def _points(cell: str) -> list[tuple[float, float]] | None:
    """The (% counted, value) points a cell of the expected-error column names, at the row's ends:
    '0,81' (constant), 'de 0,81 a 0,68', 'de 0,81 a 0,68, passando por 0,70 em 15,0%'."""
    if cell == "não publica":
        return None
    nums = [float(x.replace(",", ".")) for x in re.findall(r"\d+,\d+", cell)]
    if len(nums) == 1:
        return [(0.0, nums[0]), (1.0, nums[0])]
    pts = [(0.0, nums[0]), (1.0, nums[1])]
    if len(nums) == 4:
        pts.insert(1, (nums[3], nums[2]))  # absolute % counted: rescaled by the caller
    return pts


def _page_expected_error(pct: float) -> float:
    """The president's expected error the method page's table gives at `pct` % counted."""
    lim = CAL.limites_pct
    rows = _band_rows()
    i = next(k for k in range(len(lim) - 1) if lim[k] <= pct < lim[k + 1] or k == len(lim) - 2)
    lo, hi = lim[i], lim[i + 1]
    pts = _points(rows[i][2])
    assert pts is not None
    xs = [lo + t * (hi - lo) if t <= 1.0 else t for t, _ in pts]
    vs = [v for _, v in pts]
    for k in range(1, len(xs)):
        if pct <= xs[k] or k == len(xs) - 1:
            return vs[k - 1] + (vs[k] - vs[k - 1]) * (pct - xs[k - 1]) / (xs[k] - xs[k - 1])
    raise AssertionError(pct)


# --- item 5: "erro médio esperado" is the seed's (larger of observed mean and half the band) -----


def test_expected_error_column_is_the_number_the_race_page_shows() -> None:
    """The method page's column and the race page show the same number for the same % counted:
    both are `model.bands.expected_error` (the live page through `saida.json`)."""
    for tenth in range(100, 1001, 5):
        pct = tenth / 10
        want = expected_error(CAL, "presidente", pct)
        assert want >= half_width(CAL, "presidente", pct) / 2 - 1e-12
        assert _page_expected_error(pct) == pytest.approx(want, abs=0.0051), pct
    # The race page: the model's output and the line it renders, at a reading's own % counted.
    saida = run(snapshot_of(president_files(default=Part(est=300_000, votes={13: 140_000, 22: 130_000}))))
    erro = saida["forecast"]["erro_medio_esperado"]
    assert erro["projecao"] == round(expected_error(CAL, "presidente", saida["apurado_pct"]), 4)
    html = _rendered(saida)
    shown = f'data-campo="projecao-erro-projecao" data-valor="{erro["projecao"]!r}">'
    assert shown + "±" + br_format.pontos(erro["projecao"]) + "<" in html
    assert _page_expected_error(saida["apurado_pct"]) == pytest.approx(erro["projecao"], abs=0.0051)


# --- item 3: the drift check as the backtest measured it --------------------------------------


def test_drift_check_paragraph_gives_how_often_the_backtest_saw_it_fire() -> None:
    text = PAGE.read_text(encoding="utf-8")
    rows = _backtest_rows(BACKTEST.read_text(encoding="utf-8"))
    for grupo in ("2022_2t x1", "2022_2t x0.5", "2022_2t x1.75"):
        fora = RESUMO["com_verificacao"][grupo]["capturas_sem_correcao_pela_verificacao"]
        capturas = int(rows[grupo][2])
        assert int(rows[grupo][8]) == fora
        assert f"{_br(100 * fora / capturas, 1)}% ({_mil(fora)} de {_mil(capturas)})" in text, grupo
    real = RESUMO["com_verificacao"]["2022_2t x1"]["capturas_sem_correcao_pela_verificacao"]
    assert real > 0  # it does fire at the tested drift: the page may not say it only fires for others
    assert "só dispara diante de uma deriva muito diferente" not in text
    assert "drifts unlike any the band was fitted on" not in BACKTEST.read_text(encoding="utf-8")


# --- item 4: per race type, only the error figures it was tested for --------------------------

AC = baselines()["6260-governador-ac-municipio"]


def _ac_files(municipios: bool) -> dict[str, bytes]:
    a, b = AC.finalistas
    parts = {
        pid: Part(te=bp.eleitorado or 0, est=(bp.eleitorado or 0) // 2, votes={a: 1000, b: 900}, vb=0, vn=0)
        for pid, bp in AC.partes.items()
    }
    uf = Part(
        te=sum(p.te for p in parts.values()),
        est=sum(p.est for p in parts.values()),
        votes={a: 1000 * len(parts), b: 900 * len(parts)},
        vb=0,
        vn=0,
    )
    files = {"ac-c0003-e006260-u.json": u_file("ac", uf, cargo=3, ele="6260")}
    if municipios:
        for pid, p in parts.items():
            files[f"{pid}-c0003-e006260-u.json"] = u_file(pid[2:], p, cargo=3, ele="6260", tpabr="mu")
    return files


def _rendered(saida: dict[str, Any]) -> str:
    """The projection block of the race page for this output (the page's own template)."""
    leitura = parse_saida(json.dumps(saida, ensure_ascii=False).encode())
    ctx: Any = SimpleNamespace(config=SimpleNamespace(fuso_horario="America/Sao_Paulo"), candidatos={})
    captura: Any = SimpleNamespace(hora=leitura.agora, nome="2026-10-25T20-00-00Z")
    env = make_environment(ROOT, {}, "America/Sao_Paulo", [])
    template = env.from_string('{% import "_projecao.html" as pj %}{{ pj.projecao(p, "projecao") }}')
    return template.render(p=projection_block(ctx, leitura, captura))


@pytest.fixture(scope="module")
def paginas() -> dict[str, str]:
    return {
        "presidente": _rendered(run(snapshot_of(president_files()))),
        "governador_municipio": _rendered(run(snapshot_of(_ac_files(True)), cargo="governador", uf="ac")),
        "governador_degradado": _rendered(run(snapshot_of(_ac_files(False)), cargo="governador", uf="ac")),
    }


def test_president_page_shows_the_tested_figures(paginas: dict[str, str]) -> None:
    html = paginas["presidente"]
    assert "A projeção errou em média, nos testes," in html
    assert 'data-campo="projecao-erro-projecao"' in html and 'data-campo="projecao-erro-parcial"' in html
    assert "não medida aqui" not in html


@pytest.mark.parametrize("tabela", ["governador_municipio", "governador_degradado"])
def test_governor_pages_claim_no_tested_figure(paginas: dict[str, str], tabela: str) -> None:
    """The governor bands are the seed's, never re-measured; the partial's error curve is the national
    president's; in degraded mode the projection is the partial itself."""
    html = paginas[tabela]
    assert "Faixa do método original, não medida aqui" in html
    assert "errou em média, nos testes" not in html and "errou em média" not in html
    assert 'data-campo="projecao-erro-parcial"' not in html
    if tabela == "governador_degradado":
        assert "Modo degradado" in html and 'data-campo="projecao-erro-projecao"' not in html


def test_every_band_table_says_where_its_figures_come_from() -> None:
    """The model's output names the source of its error figures, one table for the model and the page."""
    from model.bands import FONTES_ERRO  # imported here: the other tests run against older code too

    saida = run(snapshot_of(_ac_files(True)), cargo="governador", uf="ac")
    fonte = saida["forecast"]["erro_medio_esperado"]["fonte"]
    assert fonte == FONTES_ERRO["governador_municipio"].to_json()
    assert fonte["faixa"] == "metodo_original" and fonte["parcial"] is None
    text = PAGE.read_text(encoding="utf-8")
    assert "\n".join(pm.tabela_fontes_erro()) in text
    assert set(FONTES_ERRO) == set(CAL.faixas)


# --- item 6: baselines as they are -------------------------------------------------------------


def test_each_baseline_is_named_with_its_recorded_source() -> None:
    text = PAGE.read_text(encoding="utf-8")
    bases = load_baselines()
    assert bases
    for b in bases.values():
        fonte = re.sub(r"<(\w+)>", r"{\1}", b.fonte)
        line = next(ln for ln in text.splitlines() if f"`model/baselines/{b.chave}.json`" in ln)
        assert f"fonte `{fonte}`" in line
        assert ("derivado por terceiros" in line) == ("derivado de terceiros" in b.fonte), b.chave
    assert "os arquivos com o resultado final das eleições 6257 e 6259" not in text  # the old claim
    df = next(ln for ln in text.splitlines() if "Distrito Federal, por zona" in ln)
    limite = next(r.limite for r in GOVERNOR_RULES if r.id == "eleitorado_sem_base")
    assert "não há base do 1º turno por zona" in df and f"no máximo {_br(limite, 0)}%" in df
    assert not any(b.uf == "df" for b in bases.values())  # if a DF base ships, the page must change


# --- the figure tie: every figure of the generated sections comes from a file -----------------


def _generated(text: str) -> str:
    """The parts of the page that pagina_metodologia writes (strata table, band section, baseline
    items, audit section), code spans removed (ids, hashes, file names)."""
    faixa = text.split(pm.INICIO_FAIXA, 1)[1].split(pm.FIM_FAIXA, 1)[0]
    estratos = text.split(pm.INICIO_ESTRATOS, 1)[1].split(pm.FIM_ESTRATOS, 1)[0]
    bases = text.split(pm.INICIO_BASES, 1)[1].split(pm.FIM_BASES, 1)[0]
    auditoria = text.split(pm.INICIO_AUDITORIA, 1)[1]
    return re.sub(r"`[^`]*`", " ", "\n".join((estratos, faixa, bases, auditoria)))


def _formats(x: float) -> set[str]:
    return (
        {_br(abs(x), casas) for casas in (0, 1, 2)} | {str(int(abs(x)))}
        if x == int(x)
        else {_br(abs(x), casas) for casas in (1, 2)}
    )


def _numbers(obj: Any) -> list[float]:
    if isinstance(obj, bool):
        return []
    if isinstance(obj, int | float):
        return [float(obj)]
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in _numbers(v)] + [
            float(k) for k in obj if re.fullmatch(r"\d+(\.\d+)?", str(k))
        ]
    if isinstance(obj, list):
        return [x for v in obj for x in _numbers(v)]
    return []


def _sources() -> set[str]:
    """Every figure the generated sections may hold, by the file it comes from."""
    ok: set[str] = set()
    for x in _numbers(json.loads(CALIBRATION_PATH.read_bytes())):  # the calibration file
        ok |= _formats(x) | _formats(100 * x)
    for lim in CAL.limites_pct:  # the expected-error column, computed from it (model/bands.py)
        ok |= _formats(round(expected_error(CAL, "presidente", lim), 2))
    for i, (e, f) in enumerate(zip(CAL.erro_medio_presidente, CAL.faixas["presidente"], strict=True)):
        if e is None or f is None:
            continue
        ok |= _formats(round(max(e[1], f[1] / 2), 2))
        d0, d1 = e[0] - f[0] / 2, e[1] - f[1] / 2
        if d0 * d1 < 0:  # where the mean error and half the band cross inside the row
            t = d0 / (d0 - d1)
            lo, hi = CAL.limites_pct[i], CAL.limites_pct[i + 1]
            ok |= {_br(e[0] + (e[1] - e[0]) * t), _br(lo + t * (hi - lo), 1)}
    rows = _backtest_rows(BACKTEST.read_text(encoding="utf-8"))  # the backtest report
    for grupo, cells in rows.items():
        ok |= _formats(float(cells[2])) | {_mil(int(cells[2]))}
        fora = RESUMO["com_verificacao"].get(grupo, {}).get("capturas_sem_correcao_pela_verificacao")
        if fora is not None:
            ok |= _formats(round(100 * fora / int(cells[2]), 1)) | _formats(float(fora)) | {_mil(fora)}
    for b in load_baselines().values():  # the baselines: parts per race
        ok |= _formats(float(len(b.partes)))
    ok |= _formats(float(pm.ZONAS_DF))
    for r in PRESIDENT_RULES + GOVERNOR_RULES:  # the publication criteria (model/criteria.py)
        ok |= _formats(r.limite)
    ok |= set(VERSION.split("."))
    return ok


# Figures the generated prose quotes from the seed (the earlier version, "não reproduzido aqui") or
# that name a fixed thing (years, rounds, the runoff date, the 5-point scoring bins, the 27 UFs +
# abroad, the 26 states, the six regions' count is spelled out): each is checked against the seed.
FROM_SEED_OR_FIXED = {"2022", "2026", "1", "2", "25", "10", "5", "27", "26", "85"}


def test_every_figure_of_the_generated_sections_is_traced_to_its_file() -> None:
    """A figure in the generated parts of the method page is in the calibration file, the backtest
    report, the baselines or the criteria; or it is one the seed itself states (quoted as the earlier
    version's, not reproduced here) or a fixed name (year, round, date)."""
    seed = SEED.read_text(encoding="utf-8")
    seed_figures = set(re.findall(r"\d+(?:,\d+)?", seed))
    allowed = _sources()
    found = re.findall(r"\d{1,3}(?:\.\d{3})+|\d+(?:,\d+)?", _generated(PAGE.read_text(encoding="utf-8")))
    untraced = sorted(
        {f for f in found if f not in allowed and f not in seed_figures and f not in FROM_SEED_OR_FIXED}
    )
    assert untraced == []
    assert FROM_SEED_OR_FIXED - {"85", "26"} <= seed_figures  # the fixed ones are the seed's too
    # A figure that is in no file fails: a made-up coverage figure is caught.
    fake = re.findall(r"\d+(?:,\d+)?", "a faixa cobriu 77,7% dos instantes")
    assert [f for f in fake if f not in allowed and f not in seed_figures] == ["77,7"]


def test_the_page_reads_the_calibration_and_report_it_names() -> None:
    """A calibration with another drift-check tally changes the page: the figure is generated."""
    raw = json.loads(CALIBRATION_PATH.read_bytes())
    raw["backtest"]["resumo"]["com_verificacao"]["2022_2t x1"]["capturas_sem_correcao_pela_verificacao"] = 264
    text = PAGE.read_text(encoding="utf-8")
    other = pm.pagina(text, json.dumps(raw).encode())
    assert "1,0% (264 de 26.400)" in other and "1,0% (264 de 26.400)" not in text


def test_replay_table_cells_are_the_calibration_summary() -> None:
    """Cell by cell, the method page's replay table is the calibration's `backtest.resumo`."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("| Reprodução | Noites |"))
    rows = {}
    for ln in lines[start + 2 :]:
        if not ln.startswith("|"):
            break
        cells = [c.strip() for c in ln.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    assert set(rows) == {pm.GRUPOS[g] for g in RESUMO["com_verificacao"]}
    for grupo, r in RESUMO["com_verificacao"].items():
        noites, cobertura, erradas, mediana = rows[pm.GRUPOS[grupo]]
        assert int(noites) == r["noites"] and int(erradas) == r["noites_tendencia_errada"]
        assert cobertura == f"{_br(r['cobertura_minima_pct'], 1)}%"
        med = r["mediana_apurado_tendencia_pct"]
        assert mediana == ("nunca" if med is None else f"{_br(med, 1)}%")


def test_president_by_municipality_names_the_figures_as_borrowed() -> None:
    """The municipal count has no calibration of its own: its page says the figures are the by-UF
    count's, measured for that count only."""
    from model.bands import FAIXA_EMPRESTADA, error_source

    saida = run(snapshot_of(president_files()))
    assert saida["forecast"]["erro_medio_esperado"]["fonte"]["faixa"] == "backtest"
    saida["modo"] = "presidente_municipio"
    saida["forecast"]["erro_medio_esperado"]["fonte"] = error_source("presidente", saida["modo"]).to_json()
    assert saida["forecast"]["erro_medio_esperado"]["fonte"]["faixa"] == FAIXA_EMPRESTADA
    html = _rendered(saida)
    assert "são os que os testes mediram para a conta por estado, não para esta" in html
    assert "A projeção errou em média, nos testes" not in html
