"""Derive the drift curve and raw-partial error curve of the earlier provisional calibration.

Those curves are the ones of `bt2022h26-v31-provisoria` (kept as
`tests/fixtures/calibracao/bt2022h26-v31-provisoria.json`); the calibration in force was fitted by
`eleicoes backtest-regional` instead. Not part of the projection; run by hand
(`python -m model.drift_fit DATASETS_DIR`) to reproduce them. `series_2022`/`series_2026` also give
the backtest its real national series. Standard library only.

Why provisional: the seed's curve is the mean error of the state-stratified projection measured by
replaying 2022 ballot-box arrival order (docs/BACKTEST.md). That replay data is not available here.
What is available: the national 2022 runoff partial every 10 minutes (`timeseries/2022/apuracao.txt`),
the 2022 final (`results/545/br/br.json`) and the national 2026 1st-round partial points
(`timeseries/2026/pres_br_1t_2026_points.csv`). So:

* drift: shape = error of the raw national 2022-runoff partial of Lula (13) in two-party share
  (partial - final), scaled by 0.8 / 2.7, the seed's own statement that stratifying by state cut the
  2022 mid-count error from 2.7 to ~0.8 point. Flat below the first point, 0 at 100 %.
* raw-partial error (erro_medio_esperado.parcial): at each grid point, the larger of the absolute
  Lula error of the two national series (2022 runoff, 2026 1st round), linearly interpolated, 0 at
  100 %; it gives 4.4-4.5 at 10-20 %, the seed's own example ("4,4 pontos a 10-20%").

The x axis of both series is % of sections counted, used as a proxy for % of electorate counted.
"""

from __future__ import annotations

import ast
import csv
import itertools
import json
import sys
from pathlib import Path

GRID = [float(x) for x in range(0, 101, 5)]  # seed 4b: "curva de 5 em 5 pontos"
STRATIFICATION_RATIO = 0.8 / 2.7  # seed: "dividir por estado reduz esse erro para ~0,8 ponto" (from 2,7)


def interpolate(points: list[tuple[float, float]], x: float) -> float:
    """Piecewise-linear through sorted points; flat outside them."""
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def series_2022(datasets: Path) -> list[tuple[float, float]]:
    """(% sections, Lula two-party share - final) for the 2022 runoff national partial."""
    final = json.loads((datasets / "results/545/br/br.json").read_text(encoding="utf-8"))
    votes = {str(c["n"]): int(c["vap"]) for c in final["values"]}
    lula_final = 100.0 * votes["13"] / (votes["13"] + votes["22"])
    out: list[tuple[float, float]] = []
    for line in (datasets / "timeseries/2022/apuracao.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        _, counts, pst, _ = line.split(";")
        d = ast.literal_eval(counts)
        lula, bolso = int(d["LULA"]), int(d["JAIR BOLSONARO"])
        out.append((float(pst.replace(",", ".")), 100.0 * lula / (lula + bolso) - lula_final))
    out.append((100.0, 0.0))
    return out


def series_2026(datasets: Path) -> list[tuple[float, float]]:
    """(% sections, Lula share - final) for the 2026 1st-round national partial."""
    path = datasets / "timeseries/2026/pres_br_1t_2026_points.csv"
    rows = [r for r in path.read_text(encoding="utf-8").splitlines() if not r.startswith("#")]
    data = list(csv.DictReader(rows))
    final = float(data[-1]["lula_13_pct"])
    return [(float(r["pct_secoes"]), float(r["lula_13_pct"]) - final) for r in data]


def fit(datasets: Path) -> dict[str, list[float]]:
    """The two curves on the 5-point grid, rounded to 2 decimals."""
    s22, s26 = series_2022(datasets), series_2026(datasets)
    drift = [round(interpolate(s22, x) * STRATIFICATION_RATIO, 2) for x in GRID]
    partial = [round(max(abs(interpolate(s22, x)), abs(interpolate(s26, x))), 2) for x in GRID]
    drift[-1] = 0.0
    partial[-1] = 0.0
    return {"grade_pct": GRID, "deriva_pp": drift, "erro_parcial_pp": partial}


def main(argv: list[str] | None = None) -> int:
    """Print the fitted curves as JSON."""
    args = sys.argv[1:] if argv is None else argv
    datasets = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "shared" / "datasets"
    print(json.dumps(fit(datasets), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
