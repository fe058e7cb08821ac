"""What it takes: the share of the votes still to be counted that the trailing candidate needs to
overtake the leader, beside the share the model expects them to get.

Computed only from the strata of one model output (`saida.json`: `estratos[]` with `validos`,
`validos_restantes_estimados` and `candidatos{numero: votos_projetados}`), so it agrees with the
projection shown beside it:

* Counted votes of a candidate in a part. The model splits a counted part's remaining valid votes
  as the votes already counted there (seed), so projected = counted x (valid + remaining) / valid,
  hence counted = projected x valid / (valid + remaining). A part with no valid vote counted has
  nothing counted (its projected votes are all estimate).
* Leader and trailing candidate: the two with most counted votes in the sum of the parts.
* Needed share x of the remaining valid votes R, the others (a 1st round has more than two
  candidates) taking the share the model expects for them (O votes):
  trailer_counted + x R > leader_counted + (R - O - x R)  <=>  x > (lead + R - O) / (2 R).
  With two candidates (O = 0) this is the familiar (1 + lead / R) / 2.
* Expected share: the trailing candidate's projected minus counted votes, over R.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class StratumVotes:
    """The numbers of one part that the computation needs."""

    validos: int  # valid votes already counted in the part
    restantes: int  # valid votes the model estimates are still to be counted there
    projetados: Mapping[int, int]  # candidate number -> projected total votes (counted + estimated)


@dataclass(frozen=True)
class Overtake:
    """The answer, in votes and in percent of the remaining valid votes."""

    lider: int  # candidate ahead in the votes counted
    segundo: int  # the trailing candidate
    vantagem: int  # counted-vote lead of `lider` over `segundo`
    restantes: int  # valid votes still to be counted (model estimate)
    necessario_pct: float | None  # share of `restantes` `segundo` needs; None when nothing is left
    esperado_pct: float | None  # share of `restantes` the model expects `segundo` to get
    outros_pct: float  # share of `restantes` the model expects the other candidates to get
    possivel: bool  # False when even every remaining vote not going to others would not suffice


def counted_votes(stratum: StratumVotes) -> dict[int, float]:
    """Votes already counted per candidate in one part (see the module docstring)."""
    total = stratum.validos + stratum.restantes
    if stratum.validos <= 0 or total <= 0:
        return dict.fromkeys(stratum.projetados, 0.0)
    return {n: v * stratum.validos / total for n, v in stratum.projetados.items()}


def what_it_takes(strata: Sequence[StratumVotes]) -> Overtake | None:
    """The overtaking arithmetic over every part; None with fewer than two candidates."""
    counted: dict[int, float] = {}
    projected: dict[int, float] = {}
    for stratum in strata:
        for n, v in counted_votes(stratum).items():
            counted[n] = counted.get(n, 0.0) + v
        for n, v in stratum.projetados.items():
            projected[n] = projected.get(n, 0.0) + v
    if len(counted) < 2:
        return None
    lider, segundo = sorted(counted, key=lambda n: (-counted[n], n))[:2]
    vantagem = counted[lider] - counted[segundo]
    restantes = sum(s.restantes for s in strata)
    others = sum(max(projected[n] - counted[n], 0.0) for n in counted if n not in (lider, segundo))
    if restantes <= 0:
        return Overtake(lider, segundo, round(vantagem), 0, None, None, 0.0, False)
    needed = (vantagem + restantes - others) / (2 * restantes)
    expected = max(projected[segundo] - counted[segundo], 0.0) / restantes
    return Overtake(
        lider=lider,
        segundo=segundo,
        vantagem=round(vantagem),
        restantes=restantes,
        necessario_pct=100.0 * needed,
        esperado_pct=100.0 * expected,
        outros_pct=100.0 * others / restantes,
        possivel=vantagem < restantes - others,
    )
