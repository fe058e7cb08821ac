"""Late-ballot drift correction (president only).

Seed 4b: "A projeção publicada subtrai esse erro médio, medido no 2º turno de 2022 no mesmo nível de
apuração (curva de 5 em 5 pontos, interpolada)". The curve is the mean error (projected - final) of
the reference candidate's share in pp; the correction moves the reference candidate by -curve and,
in a two-candidate race, the other by +curve, so A + B stays 100.
"""

from __future__ import annotations

from model.bands import interpolate_grid
from model.calibration import Calibration


def drift_at(cal: Calibration, pct: float) -> float:
    """Curve value (pp, reference candidate) at `pct` % of electorate counted."""
    return interpolate_grid(cal.deriva_grade, cal.deriva_pp, pct)


def corrected_shares(
    cal: Calibration, shares: dict[int, float], pct: float
) -> tuple[dict[int, float], float]:
    """Apply the drift correction; returns (corrected shares, correcao_pp for the reference candidate).

    Only a two-candidate race that includes the reference candidate is corrected (the curve was
    measured for that pair); otherwise the shares are returned unchanged with correction 0.
    """
    ref = cal.deriva_candidato
    if len(shares) != 2 or ref not in shares:
        return dict(shares), 0.0
    correction = -drift_at(cal, pct)
    other = next(n for n in shares if n != ref)
    new_ref = min(max(shares[ref] + correction, 0.0), 100.0)
    correction = new_ref - shares[ref]
    return {ref: new_ref, other: 100.0 - new_ref}, correction
