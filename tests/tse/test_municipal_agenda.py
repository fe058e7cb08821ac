"""The municipal scheduling rules of the president by municipality (issue 25, item 2).

Pure tests of `jobs/tse/agenda_municipal.py`, then a replayed night through the replay server
whose UF coverage files are missing (the agenda's fallback; with them, see
`test_agenda_municipal_cobertura.py`): what each cycle fetches (the UF files first;
municipalities never read; counting ones of a UF whose file advanced; counting ones whose file is
about to age out), what it never fetches again (finished municipalities), and what a reading may
mix (fresh files with older finished ones, yes; a counting file older than 5 minutes, no: the
criteria say so).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from jobs.tse.agenda_municipal import (
    FRACAO_DO_PRAZO,
    SEGUNDOS_POR_CICLO,
    ParteMunicipal,
    advanced_ufs,
    budget,
    plan_fetch,
)
from jobs.tse.config import ConfigTse, Corrida
from jobs.tse.cycle import REFRESH_AFTER
from tests.tse.conftest import DATASETS, START, Job, Replay, captura, job_config, saida, snapshots

T = dt.datetime(2026, 10, 25, 21, 0, tzinfo=dt.UTC)
MIN = dt.timedelta(minutes=1)
PRESIDENT_MUN = Corrida("presidente", "6258", "br", "municipio")
STEP = dt.timedelta(seconds=50)


def _plan(partes: list[ParteMunicipal], **kw: object) -> tuple[str, ...]:
    args: dict[str, object] = {
        "ufs_avancaram": (),
        "pendentes": frozenset(),
        "agora": T,
        "orcamento": 100,
        "renovar_apos": REFRESH_AFTER,
        "sondar_ausentes_s": 600.0,
    }
    args.update(kw)
    return plan_fetch(partes, **args).buscar  # type: ignore[arg-type]


def counting(parte: str, idade: dt.timedelta = MIN, restante: int = 100) -> ParteMunicipal:
    return ParteMunicipal(parte, lido=True, gerado_em=T - idade, restante=restante)


def test_finished_municipalities_are_never_asked_again() -> None:
    done = ParteMunicipal("sp71072", lido=True, final=True, gerado_em=T - 60 * MIN)
    assert _plan([done], ufs_avancaram={"sp"}) == ()
    # ... unless its last answer failed (its reading is preserved: the seed allows 0 %).
    failed = ParteMunicipal("sp71072", lido=True, final=True, falhou=True, gerado_em=T - MIN)
    assert _plan([failed]) == ("sp71072",)


def test_counting_municipalities_of_a_uf_that_advanced_most_uncounted_first() -> None:
    partes = [counting("sp00001", restante=10), counting("sp00002", restante=900), counting("rj00001")]
    assert _plan(partes, ufs_avancaram={"sp"}) == ("sp00002", "sp00001")
    assert _plan(partes) == ()  # no UF moved and no file about to age out: nothing to ask


def test_rule_order_and_budget() -> None:
    never = ParteMunicipal("ac00001", lido=False)
    failed = ParteMunicipal("ac00002", lido=True, falhou=True, gerado_em=T - MIN)
    stale_old = counting("ac00003", idade=4 * MIN)
    stale = counting("ac00004", idade=REFRESH_AFTER)
    advanced = counting("ac00005", restante=10**6)
    partes = [advanced, stale, stale_old, failed, never]
    agenda = plan_fetch(partes, {"ac"}, frozenset(), T, 100, REFRESH_AFTER, 600.0)
    assert agenda.buscar == ("ac00001", "ac00002", "ac00003", "ac00004", "ac00005")
    assert agenda.por_regra == (1, 1, 2, 1) and agenda.adiados == 0
    cut = plan_fetch(partes, {"ac"}, frozenset(), T, 3, REFRESH_AFTER, 600.0)
    assert cut.buscar == ("ac00001", "ac00002", "ac00003") and cut.adiados == 2
    # Counting municipalities of the advanced UF left out stay owed until fetched, even if the UF
    # stops moving.
    assert cut.pendentes == frozenset({"ac00004", "ac00005"})
    later = plan_fetch([advanced], (), cut.pendentes, T, 100, REFRESH_AFTER, 600.0)
    assert later.buscar == ("ac00005",) and later.pendentes == frozenset()


def test_a_municipal_file_that_answered_404_is_asked_again_only_sparsely() -> None:
    ausente = ParteMunicipal("ac00001", lido=False, ausente=True, tentado_em=T - 5 * MIN)
    assert _plan([ausente]) == ()
    assert _plan([ausente], agora=T + 5 * MIN) == ("ac00001",)


def test_advanced_ufs_and_budget() -> None:
    assert advanced_ufs({"ac": "a", "sp": "b", "rj": "c"}, {"ac": "a", "sp": "x", "rj": None}) == {"sp", "rj"}
    assert advanced_ufs({}, {"ac": "a"}) == {"ac"}  # first reading
    # The default 20 requests/s over 45 s, plus the bucket, minus what was sent.
    assert budget(20.0, 240.0, 20, 29) == int(20 * SEGUNDOS_POR_CICLO) + 20 - 29 == 891
    # Never more than half a short deadline.
    assert budget(20.0, 10.0, 20, 0) == int(20 * 10 * FRACAO_DO_PRAZO) + 20 == 120
    assert budget(1.0, 1.0, 0, 10) == 0


# ------------------------------------------------------------------------------ replayed night


@pytest.fixture(scope="module")
def night_mun(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """President by municipality in AC (22), AP (16) and RR (15), captures 50 s apart:
    AC moves at capture 1 (and 6), AP at 2, RR is finished from the start."""
    from jobs.tse.synthetic import totals_from_csv, write_president_municipal_night

    partes = totals_from_csv(DATASETS / "results" / "pres_2t_2022_mun.csv", ["ac", "ap", "rr"])
    niveis: list[dict[str, float]] = [{"ac": 0.3, "ap": 0.3, "rr": 1.2}, {"ac": 0.6}, {"ap": 0.5}]
    niveis += [{}, {}, {}, {"ac": 0.7}, {}, {}]
    dest = tmp_path_factory.mktemp("noite") / "municipal"
    instantes = [(START + STEP * k, n) for k, n in enumerate(niveis)]
    return write_president_municipal_night(dest, partes, instantes)


def _asked(replay: Replay, antes: dict[str, int]) -> dict[str, set[str]]:
    """Municipal files asked since `antes`, by UF; and the UF files asked under key "uf"."""
    out: dict[str, set[str]] = {"ac": set(), "ap": set(), "rr": set(), "uf": set()}
    for nome, n in replay.estado()["pedidos_por_arquivo"].items():
        if n > antes.get(nome, 0) and (m := re.fullmatch(r"([a-z]{2})(\d{5})?-c0001-e006258-u\.json", nome)):
            out[m[1] if m[2] else "uf"].add(nome)
    return out


def test_the_scheduling_rules_on_a_replayed_night(
    night_mun: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(night_mun)
    # Without the UF coverage files (404) the agenda falls back on the UF files and each file's own
    # age; with them it asks only the rows that moved (tests/tse/test_agenda_municipal_cobertura.py).
    sem_cobertura = ["*-e006258-ab"]
    replay.falhas(ausente=sem_cobertura)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, PRESIDENT_MUN, jws="ignorar"))
    race = dados / "tse" / "6258" / "presidente"
    every_uf = {f"{uf}-c0001-e006258-u.json" for uf in ("ac", "ap", "rr", "br")}

    def cycle() -> dict[str, set[str]]:
        antes = replay.estado()["pedidos_por_arquivo"]
        [r] = job.ciclo()
        assert r.erro is None and r.agenda is not None, r.linha()
        asked = _asked(replay, antes)
        assert asked["uf"] == every_uf  # the UF files and br first, every cycle
        return {k: {n[:7] for n in v} for k, v in asked.items() if k != "uf"}

    c0 = cycle()  # never read: every municipality
    assert (len(c0["ac"]), len(c0["ap"]), len(c0["rr"])) == (22, 16, 15)
    replay.avancar()
    c1 = cycle()  # AC advanced: its counting municipalities, nothing else
    assert (len(c1["ac"]), c1["ap"], c1["rr"]) == (22, set(), set())
    replay.avancar()
    c2 = cycle()  # AP advanced; AC's files are 70 s old (under REFRESH_AFTER): not asked
    assert (c2["ac"], len(c2["ap"]), c2["rr"]) == (set(), 16, set())
    replay.avancar()
    assert cycle() == {"ac": set(), "ap": set(), "rr": set()}  # nothing moved, nothing old
    replay.avancar()
    c4 = cycle()  # AC's files from capture 1 are now 170 s old: refreshed though AC did not move
    assert (len(c4["ac"]), c4["ap"], c4["rr"]) == (22, set(), set())
    replay.avancar()
    c5 = cycle()
    assert (c5["ac"], len(c5["ap"]), c5["rr"]) == (set(), 16, set())
    replay.avancar()
    assert len(cycle()["ac"]) == 22  # AC moved again: a snapshot is written
    # What a reading may mix: RR's finished files, last fetched at capture 0, are over 5 minutes
    # old and never asked again; the reading stays publishable (they are final), with the counting
    # ones all under 5 minutes.
    snap = snapshots(race)[-1]
    out = saida(snap)
    assert out["publicavel"] is True, out["criterios_nao_atendidos"]
    agora = dt.datetime.fromisoformat(out["agora"])
    rr = [e for e in out["estratos"] if e["id"].startswith("rr")]
    assert len(rr) == 15 and all(agora - dt.datetime.fromisoformat(e["hora"]) > 5 * MIN for e in rr)
    assert all(captura(snap)["arquivos"][e["arquivo"]]["status"] == 200 for e in rr)

    # A counting municipality whose file stops being regenerated (stuck at capture 2): when its
    # turn to be refreshed comes, the TSE serves it with the old `hg`, and the reading held is
    # then over 5 minutes old: the criteria say so.
    preso = sorted(c5["ap"])[0]
    replay.falhas(congelado={f"{preso}-c0001-e006258-u": 2}, ausente=sem_cobertura)
    replay.avancar()
    assert cycle()["ap"] == set()  # AP's files from capture 5 are 120 s old
    replay.avancar()
    assert preso in cycle()["ap"]  # 170 s: refreshed; the answer is stuck at capture 2
    out = saida(snapshots(race)[-1])
    assert out["publicavel"] is False
    assert "idade_arquivo_referencia" in out["criterios_nao_atendidos"]


def test_model_age_of_the_president_by_municipality_skips_finished_parts() -> None:
    """The model side of "never again a finished municipality": its old file does not age the
    reading out; a counting one as old does."""
    from model.strata import UFS_PRESIDENTE
    from tests.model.helpers import NOW, Part, criterion, run, snapshot_of, u_file

    velho = NOW - dt.timedelta(minutes=20)

    def files(velha: Part) -> dict[str, bytes]:
        out = {
            f"{uf}{i:05d}-c0001-e006258-u.json": u_file(f"{i:05d}", Part(), tpabr="mu")
            for uf in UFS_PRESIDENTE
            for i in (1, 2)
        }
        out["sp00003-c0001-e006258-u.json"] = u_file("00003", velha, tpabr="mu")
        return out

    final = Part(est=1_000_000, st=3000, votes={13: 400_000, 22: 400_000}, hg=velho)
    idade = criterion(run(snapshot_of(files(final))), "idade_arquivo_referencia")
    assert idade["ok"] is True, idade
    contando = Part(hg=velho)
    idade = criterion(run(snapshot_of(files(contando))), "idade_arquivo_referencia")
    assert idade["ok"] is False and idade["valor"] >= 20


def test_municipalities_left_for_later_count_as_without_a_valid_file(
    night_mun: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(night_mun)
    dados = tmp_path / "data"
    # A budget of 5 × min(45, 6 × ½) + 10 = 25 requests: the catalogue, the config, 4 files first,
    # 19 municipal.
    cfg = job_config(
        replay.url,
        dados,
        PRESIDENT_MUN,
        jws="ignorar",
        requisicoes_por_segundo=5.0,
        rajada=10,
        prazo_ciclo_s=6.0,
    )
    job = job_factory(cfg)
    [r] = job.ciclo()
    assert r.agenda is not None and 0 < len(r.agenda.buscar) < 53, r.linha()
    snap = snapshots(dados / "tse" / "6258" / "presidente")[-1]
    municipais = {n: e for n, e in captura(snap)["arquivos"].items() if re.match(r"[a-z]{2}\d{5}-", n)}
    assert len(municipais) == 53
    sem = [n for n, e in municipais.items() if e["status"] is None]
    assert len(sem) == 53 - len(r.agenda.buscar)
    out = saida(snap)
    assert "eleitorado_sem_arquivo_valido" in out["criterios_nao_atendidos"]
    [r2] = job.ciclo()  # the next cycle asks the ones left, never those already read
    assert r2.agenda is not None and set(r2.agenda.buscar) <= {n[:7] for n in sem}
