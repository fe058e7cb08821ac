"""Property tests (hypothesis) of the projection."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from model.bands import half_width
from model.strata import UFS_PRESIDENTE
from tests.model.helpers import Part, calibration, president_files, president_name, run, snapshot_of, u_file


@st.composite
def parts(draw: st.DrawFn, everything_counted: bool = False) -> dict[str, Part]:
    out: dict[str, Part] = {}
    for uf in UFS_PRESIDENTE:
        te = draw(st.integers(1_000, 5_000_000))
        est = te if everything_counted else draw(st.integers(0, te))
        turnout = draw(st.floats(0.5, 0.9))
        valid = int(est * turnout)
        a = draw(st.integers(0, valid))
        out[uf] = Part(
            te=te, est=est, votes={13: a, 22: valid - a}, vb=0, vn=0, ts=1000, st=1000 if est == te else 0
        )
    return out


def files_of(p: dict[str, Part]) -> dict[str, bytes]:
    return {president_name(uf): u_file(uf, part) for uf, part in p.items()}


@settings(max_examples=40, deadline=None)
@given(parts(), st.booleans())
def test_a_plus_b_is_100_and_projection_never_below_counted(p: dict[str, Part], corrigir: bool) -> None:
    out = run(snapshot_of(files_of(p)), corrigir_deriva=corrigir)
    cands = out["forecast"]["candidatos"]
    if out["forecast"]["validos_projetados"] > 0:
        assert abs(cands[0]["pct"] + cands[1]["pct"] - 100.0) < 1e-9
        assert abs(cands[0]["sem_correcao"] + cands[1]["sem_correcao"] - 100.0) < 1e-9
    counted = {c["numero"]: c["votos"] for c in out["parcial"]["candidatos"]}
    for c in cands:
        assert c["votos_projetados"] >= counted[c["numero"]]
    for s, (_uf, part) in zip(out["estratos"], sorted(p.items()), strict=True):
        for n, v in part.votes.items():
            assert s["candidatos"][str(n)] >= v


@settings(max_examples=30, deadline=None)
@given(parts(everything_counted=True))
def test_everything_counted_projection_equals_partial(p: dict[str, Part]) -> None:
    out = run(snapshot_of(files_of(p)))
    assert out["apurado_pct"] == 100.0
    partial = {c["numero"]: c for c in out["parcial"]["candidatos"]}
    for c in out["forecast"]["candidatos"]:
        assert c["votos_projetados"] == partial[c["numero"]]["votos"]
        if out["parcial"]["validos"] > 0:
            assert abs(c["pct"] - partial[c["numero"]]["pct"]) < 1e-9
            assert c["faixa"] == round(half_width(calibration(), "presidente", 100.0), 4)  # last row's end
    assert out["forecast"]["correcao_pp"] == 0.0


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(
        [
            "presidente",
            "presidente_sem_correcao",
            "governador_municipio",
            "governador_zona",
            "governador_degradado",
        ]
    ),
    st.floats(0, 100),
    st.floats(0, 100),
)
def test_band_never_grows_as_counting_grows(tabela: str, x: float, y: float) -> None:
    lo, hi = min(x, y), max(x, y)
    assert half_width(calibration(), tabela, hi) <= half_width(calibration(), tabela, lo) + 1e-12


def test_band_is_monotone_on_a_fine_grid() -> None:
    for tabela in calibration().faixas:
        values = [half_width(calibration(), tabela, i / 4) for i in range(401)]
        assert all(b <= a + 1e-12 for a, b in itertools.pairwise(values)), tabela


def test_default_president_files_helper_covers_28_parts() -> None:
    assert len(president_files()) == 28
