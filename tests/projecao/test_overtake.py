"""'What it takes': the overtaking arithmetic over the strata of a model output."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.forecast import to_json_bytes
from model.strata import UFS_PRESIDENTE
from site_builder.overtake import StratumVotes, counted_votes, what_it_takes
from site_builder.projecao_dados import parse_saida
from tests.model.helpers import Part, president_files, run, snapshot_of


def test_two_candidates_by_hand() -> None:
    # Counted 60 x 40 of 100 valid; 100 more expected, split 60/40 as counted.
    result = what_it_takes([StratumVotes(validos=100, restantes=100, projetados={13: 120, 22: 80})])
    assert result is not None
    assert (result.lider, result.segundo, result.vantagem, result.restantes) == (13, 22, 20, 100)
    assert result.necessario_pct == pytest.approx(60.0)  # (1 + 20/100) / 2
    assert result.esperado_pct == pytest.approx(40.0)
    assert result.outros_pct == 0.0
    assert result.possivel


def test_uncounted_part_adds_only_remaining_votes() -> None:
    strata = [
        StratumVotes(validos=1000, restantes=0, projetados={13: 400, 22: 600}),
        StratumVotes(validos=0, restantes=500, projetados={13: 300, 22: 200}),  # swing estimate
    ]
    assert counted_votes(strata[1]) == {13: 0.0, 22: 0.0}
    result = what_it_takes(strata)
    assert result is not None
    assert (result.lider, result.segundo, result.vantagem, result.restantes) == (22, 13, 200, 500)
    assert result.necessario_pct == pytest.approx(70.0)  # (200 + 500) / 1000
    assert result.esperado_pct == pytest.approx(60.0)


def test_other_candidates_take_their_expected_share() -> None:
    # Counted 50 / 30 / 20; the remaining 100 split the same way: 20 go to the third candidate.
    result = what_it_takes([StratumVotes(validos=100, restantes=100, projetados={1: 100, 2: 60, 3: 40})])
    assert result is not None
    assert (result.lider, result.segundo) == (1, 2)
    assert result.outros_pct == pytest.approx(20.0)
    # 30 + x*100 > 50 + (100 - 20 - x*100)  <=>  x > 0.5
    assert result.necessario_pct == pytest.approx(50.0)
    assert result.esperado_pct == pytest.approx(30.0)


def test_out_of_reach_and_nothing_left() -> None:
    far = what_it_takes([StratumVotes(validos=1000, restantes=100, projetados={1: 880, 2: 220})])
    assert far is not None and not far.possivel and far.necessario_pct is not None
    assert far.necessario_pct > 100
    done = what_it_takes([StratumVotes(validos=1000, restantes=0, projetados={1: 600, 2: 400})])
    assert done is not None and done.necessario_pct is None and done.esperado_pct is None
    assert what_it_takes([StratumVotes(validos=10, restantes=5, projetados={1: 15})]) is None


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 10**6), st.integers(0, 10**6), st.floats(0.05, 0.95)), min_size=1, max_size=8
    ),
    st.floats(0.001, 0.05),
)
def test_needed_share_is_the_threshold(parts: list[tuple[int, int, float]], eps: float) -> None:
    """With the needed share (+eps) the trailer ends ahead; with it (-eps) they end behind."""
    strata = [
        StratumVotes(v, r, {1: round(share * (v + r)), 2: (v + r) - round(share * (v + r))})
        for v, r, share in parts
    ]
    result = what_it_takes(strata)
    assert result is not None
    if result.restantes == 0 or result.necessario_pct is None:
        return
    counted = {1: 0.0, 2: 0.0}
    for s in strata:
        for n, v in counted_votes(s).items():
            counted[n] += v
    lead, trail = counted[result.lider], counted[result.segundo]
    for delta, ahead in ((eps, True), (-eps, False)):
        x = result.necessario_pct / 100 + delta
        if not 0 <= x <= 1:
            continue
        final_trail = trail + x * result.restantes
        final_lead = lead + (1 - x) * result.restantes
        assert (final_trail > final_lead) is ahead


def test_counted_votes_from_strata_match_the_files() -> None:
    """The strata of a real model run give back the votes counted in the TSE files (±1 per part)."""
    parts = {
        uf: Part(te=1_000_000, est=200_000 + 20_000 * i, votes={13: 70_000 + 1000 * i, 22: 90_000 - 500 * i})
        for i, uf in enumerate(UFS_PRESIDENTE)
    }
    saida = run(snapshot_of(president_files(parts)))
    leitura = parse_saida(to_json_bytes(saida))
    sums = {13: 0.0, 22: 0.0}
    for stratum in leitura.votos_por_estrato():
        for n, v in counted_votes(stratum).items():
            sums[n] += v
    for n in (13, 22):
        assert sums[n] == pytest.approx(sum(p.votes[n] for p in parts.values()), abs=len(parts))
