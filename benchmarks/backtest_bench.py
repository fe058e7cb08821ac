"""Benchmark of the backtest (issue 5).

* one night, president by UF, 200 captures: simulate the night (arrival order, exact vote splits,
  cumulative series) and run the model at every capture; 5 nights (seeds 0-4), one timing each;
* 100 nights of the president by UF on 2 processes (what `eleicoes backtest --sem-municipio
  --sementes-governador 0 --sementes-1t 0` replays), wall time;
* with `--completo`: the default `eleicoes backtest` replays (100 nights, municipal variant,
  governors, 1st round, real 2026 captures, fit and scoring; no file written), wall time.

Targets: one night under 2 s; 100 nights under 5 minutes on 2 cores.
Run from the repo root: `python benchmarks/backtest_bench.py [--completo]`.

With `--regional` (issue 14) it instead times the one command that produces the published regional
backtest and calibration, `eleicoes backtest-regional --ajustar --instalar --comparar
tests/fixtures/calibracao/bt2022h26-v31-provisoria.json` (100 runoff nights at
each of 3 drift scales in the real regional order, twice, plus 20 nights of each real 1st round, the
within-region fit, the choice of calibration; it writes model/calibracao.json, the calibration file
and docs/BACKTEST.md), and records it in its own section. Target: under 15 minutes on 2 cores.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import eleicoes  # noqa: E402
from benchmarks.report import median, write_section  # noqa: E402
from model.backtest.chegada import carregar_parametros  # noqa: E402
from model.backtest.dados import DATASETS_PADRAO  # noqa: E402
from model.backtest.executar import ConfigBacktest, dados_de, rodar_semente, rodar_sementes  # noqa: E402
from model.backtest.pipeline import executar, noite_2026_1t  # noqa: E402
from model.baselines import load_baselines  # noqa: E402
from model.calibration import load_calibration  # noqa: E402

# The calibration the published regional backtest compares with (the one it replaced).
ANTERIOR = ROOT / "tests" / "fixtures" / "calibracao" / "bt2022h26-v31-provisoria.json"
SO_UF = {"municipio": False, "sementes_governador": 0, "sementes_1t": 0}


def regional() -> int:
    """Time `eleicoes backtest-regional --ajustar --instalar` in this checkout and record it."""
    cmd = [
        "eleicoes",
        "backtest-regional",
        "--ajustar",
        "--instalar",
        "--comparar",
        str(ANTERIOR.relative_to(ROOT)),
    ]
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    os.chdir(ROOT)  # the relative path above
    rc = eleicoes.main(cmd[1:])
    wall = time.perf_counter() - t0
    if rc != 0:
        print(f"{' '.join(cmd)} falhou ({rc})", file=sys.stderr)
        return rc
    body = "\n".join(
        [
            "| case | runs | wall time | target |",
            "|---|---:|---:|---|",
            f"| `{' '.join(cmd)}`: 3 drift scales x 100 runoff nights (two passes) + 2 x 20 real 1st-round "
            f"nights, every real minute, 2 processes | 1 | {wall / 60:.1f} min | < 15 min |",
            "",
            f"1-minute load average at the start: {load0:.1f} (the machine is shared; other jobs ran).",
        ]
    )
    print(body)
    write_section("Regional backtest", "python benchmarks/backtest_bench.py --regional", body)
    return 0


def main(argv: list[str]) -> int:
    """Run the benchmarks, print and record the figures."""
    if "--regional" in argv:
        return regional()
    params, cal = carregar_parametros(), load_calibration()
    cfg1 = ConfigBacktest(DATASETS_PADRAO, sementes=1, capturas=200, **SO_UF)  # type: ignore[arg-type]
    dados_de(cfg1.datasets, None)  # datasets read once per process, outside the timings
    nights = []
    for seed in range(5):
        t0 = time.perf_counter()
        lines = rodar_semente(cfg1, params, cal, seed)
        nights.append(time.perf_counter() - t0)
        assert len(lines) == 200
    cfg100 = ConfigBacktest(DATASETS_PADRAO, sementes=100, capturas=200, **SO_UF)  # type: ignore[arg-type]
    t0 = time.perf_counter()
    lines = rodar_sementes(cfg100, params, cal, processos=2)
    many = time.perf_counter() - t0
    assert len(lines) == 100 * 200
    rows = [
        "| case | runs | median | min | max | target |",
        "|---|---:|---:|---:|---:|---|",
        f"| one night, president by UF, 200 captures (simulate + model at every capture) | {len(nights)} | "
        f"{median(nights):.2f} s | {min(nights):.2f} s | {max(nights):.2f} s | < 2 s |",
        f"| 100 nights, president by UF, 200 captures each, 2 processes | 1 | {many:.1f} s | | | < 300 s |",
    ]
    if "--completo" in argv:
        cfg = ConfigBacktest(DATASETS_PADRAO)
        t0 = time.perf_counter()
        reais = [noite_2026_1t(DATASETS_PADRAO)]
        executar(cfg, params, cal, load_baselines(), noites_reais=reais, processos=2)
        full = time.perf_counter() - t0
        rows.append(
            "| default `eleicoes backtest` replays + fit + scores (100 nights; municipal variant every 20th "
            f"capture; governors and 1st round on 20 nights), 2 processes | 1 | {full:.1f} s | | | – |"
        )
    rows += [
        "",
        "Timings in one process except the 2-process rows (`concurrent.futures.ProcessPoolExecutor`); the "
        "datasets are read once per process before timing the single nights.",
    ]
    body = "\n".join(rows)
    print(body)
    write_section("Backtest", "python benchmarks/backtest_bench.py --completo", body)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
