"""Swing fallback for parts with nothing counted.

Seed: "usa a proporção que os dois finalistas tiveram no 1º turno de 2026 naquela mesma parte,
deslocada pelo movimento médio ("swing") já observado nas partes apuradas (comparação 2º turno ×
1º turno, em escala logit, ponderada por votos)".
Shares here are the first finalist's share of the two finalists' votes (two-party share); the
weight of a counted part is its valid votes counted so far. Parts where either share is 0 or 1
have an infinite logit and are left out of the mean.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class SwingObservation:
    """One counted part: 1st-round and 2nd-round two-party share of the first finalist, and its weight."""

    share_1t: float
    share_2t: float
    weight: float


def logit(p: float) -> float:
    """log(p / (1 - p)) for 0 < p < 1."""
    return math.log(p / (1.0 - p))


def expit(x: float) -> float:
    """Inverse of logit."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def two_party_share(a: float, b: float) -> float | None:
    """a / (a + b), None when both are zero."""
    total = a + b
    return a / total if total > 0 else None


def mean_swing(observations: list[SwingObservation]) -> float:
    """Vote-weighted mean of logit(2nd round) - logit(1st round); 0 when nothing qualifies."""
    num = den = 0.0
    for o in observations:
        if 0.0 < o.share_1t < 1.0 and 0.0 < o.share_2t < 1.0 and o.weight > 0:
            num += o.weight * (logit(o.share_2t) - logit(o.share_1t))
            den += o.weight
    return num / den if den > 0 else 0.0


def apply_swing(share_1t: float, swing: float) -> float:
    """1st-round two-party share shifted by `swing` on the logit scale (0 and 1 stay put)."""
    if not 0.0 < share_1t < 1.0:
        return share_1t
    return expit(logit(share_1t) + swing)
