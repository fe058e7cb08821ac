"""Exact integer splits: fitting a real matrix to integer margins and rounding it without losing a vote."""

from __future__ import annotations

import math
from collections.abc import Sequence


def largest_remainder(weights: Sequence[float], total: int) -> list[int]:
    """Split `total` into integers proportional to `weights` (Hamilton's method; ties by index)."""
    s = sum(weights)
    if total == 0 or s <= 0:
        out = [0] * len(weights)
        if total and out:
            out[0] = total
        return out
    raw = [w * total / s for w in weights]
    out = [math.floor(x) for x in raw]
    rest = total - sum(out)
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - out[i]), i))
    for i in order[:rest]:
        out[i] += 1
    return out


def fit_margins(
    seed: list[list[float]], rows: Sequence[int], cols: Sequence[int], iterations: int = 200
) -> list[list[float]]:
    """Iterative proportional fitting of `seed` to row and column totals (both must sum equal)."""
    m = [list(r) for r in seed]
    for _ in range(iterations):
        for i, target in enumerate(rows):
            s = sum(m[i])
            if s > 0:
                f = target / s
                m[i] = [x * f for x in m[i]]
        worst = 0.0
        for j, target in enumerate(cols):
            s = sum(r[j] for r in m)
            if s > 0:
                f = target / s
                for r in m:
                    r[j] *= f
            worst = max(worst, abs(s - target))
        if worst < 1e-6:
            break
    return m


def controlled_round(real: list[list[float]], rows: Sequence[int], cols: Sequence[int]) -> list[list[int]]:
    """Integer matrix with exactly the given row and column totals, close to `real`.

    Floors every cell, then hands out the missing units to the cells with the largest fractional
    parts whose row and column still lack units; any unit left (rare) goes to the first cell whose
    row and column both lack one. Always terminates because the deficits sum equal.
    """
    if sum(rows) != sum(cols):
        raise ValueError("margens com totais diferentes")
    out = [[max(0, math.floor(x)) for x in r] for r in real]
    row_def = [rows[i] - sum(out[i]) for i in range(len(rows))]
    col_def = [cols[j] - sum(out[i][j] for i in range(len(rows))) for j in range(len(cols))]
    # Floors can overshoot a margin only through negative seeds; pull back if so.
    for i in range(len(rows)):
        for j in range(len(cols)):
            while row_def[i] < 0 and col_def[j] < 0 and out[i][j] > 0:
                out[i][j] -= 1
                row_def[i] += 1
                col_def[j] += 1
    cells = sorted(
        ((i, j) for i in range(len(rows)) for j in range(len(cols))),
        key=lambda ij: (-(real[ij[0]][ij[1]] - math.floor(real[ij[0]][ij[1]])), ij),
    )
    for i, j in cells:
        if row_def[i] > 0 and col_def[j] > 0:
            out[i][j] += 1
            row_def[i] -= 1
            col_def[j] -= 1
    for i in range(len(rows)):
        for j in range(len(cols)):
            k = min(row_def[i], col_def[j])
            if k > 0:
                out[i][j] += k
                row_def[i] -= k
                col_def[j] -= k
    if any(row_def) or any(col_def):
        raise ValueError("arredondamento controlado sem solução")
    return out
