"""The president by municipality read through the UF coverage files (issue 25, item 2).

The scheduling rules on a replayed night through the real replay server: what is fetched (the
municipalities whose coverage row moved, and only those), what is not (finished ones; counting ones
a coverage file read this cycle proves unchanged), and what a reading may mix (a counting file
confirmed by a fresh coverage file counts as current; by a stale or unreadable one it does not;
finished files are exempt). Pure tests first (the agenda's order and budget, the model's rule).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from jobs.tse.agenda_municipal import ParteMunicipal, plan_fetch
from jobs.tse.audit import audit_snapshot
from jobs.tse.config import ConfigTse, Corrida
from jobs.tse.coverage import parse_coverage
from jobs.tse.cycle import REFRESH_AFTER
from model.snapshot import CaptureEntry
from model.strata import UFS_PRESIDENTE
from tests.model.helpers import NOW, Part, criterion, run, snapshot_of, stratum, u_file
from tests.tse.conftest import DATASETS, START, Job, Replay, captura, job_config, saida, snapshots

T = dt.datetime(2026, 10, 25, 21, 0, tzinfo=dt.UTC)
MIN = dt.timedelta(minutes=1)
PRESIDENT_MUN = Corrida("presidente", "6258", "br", "municipio")
STEP = dt.timedelta(seconds=50)
BRT = dt.timezone(dt.timedelta(hours=-3))


# ------------------------------------------------------------------------------- the agenda


def covered(parte: str, movido: bool, idade: dt.timedelta = MIN, restante: int = 100) -> ParteMunicipal:
    return ParteMunicipal(
        parte, lido=True, gerado_em=T - idade, restante=restante, cobertura=True, movido=movido
    )


def test_with_a_coverage_file_only_moved_rows_are_asked_most_uncounted_first_within_budget() -> None:
    partes = [
        covered("sp00001", movido=True, restante=10),
        covered("sp00002", movido=True, restante=900),
        covered("sp00003", movido=False, idade=30 * MIN, restante=10**6),  # unchanged: confirmed
        covered("sp00004", movido=True, idade=3 * MIN, restante=1),  # moved and about to age out
        ParteMunicipal("sp00005", lido=True, final=True, gerado_em=T - 60 * MIN, cobertura=True, movido=True),
    ]
    agenda = plan_fetch(partes, {"sp"}, frozenset(), T, 100, REFRESH_AFTER, 600.0)
    assert agenda.buscar == ("sp00004", "sp00002", "sp00001")
    assert agenda.por_regra == (0, 0, 1, 2) and agenda.confirmados == 1
    assert agenda.pendentes == frozenset()  # a moved row stays moved until fetched: nothing owed
    cut = plan_fetch(partes, {"sp"}, frozenset(), T, 2, REFRESH_AFTER, 600.0)
    assert cut.buscar == ("sp00004", "sp00002") and cut.adiados == 1
    # The UF file advancing changes nothing where the coverage file says which rows moved.
    assert plan_fetch(partes[2:3], {"sp"}, frozenset(), T, 100, REFRESH_AFTER, 600.0).buscar == ()


# -------------------------------------------------------------------------- the model's rule


def _coverage(uf: str, rows: dict[str, Part], hg: dt.datetime) -> bytes:
    b = hg.astimezone(BRT)
    abr = []
    for cd, p in rows.items():
        st = p.st if p.st is not None else p.ts * p.est // p.te
        abr.append(
            {
                "and": "p",
                "tpabr": "mu",
                "cdabr": cd,
                "dt": b.strftime("%d/%m/%Y"),
                "ht": "10:00:00",
                "s": {"ts": str(p.ts), "st": str(st)},
                "e": {"te": str(p.te), "est": str(p.est)},
            }
        )
    root = {"ele": "6258", "t": "2", "dg": b.strftime("%d/%m/%Y"), "hg": b.strftime("%H:%M:%S"), "abr": abr}
    return json.dumps(root).encode()


def _run_with_coverage(
    cobertura: bytes | None, carimbo_de: bytes | None = None, velha: Part | None = None
) -> dict[str, object]:
    """Every UF with two fresh counting municipalities, plus sp00003 counting with a file 20 min
    old whose entry records the stamp of its row in `carimbo_de` (default: `cobertura`), and
    rr00009 finished 40 min ago (never asked again, exempt)."""
    from model.cobertura import parse_coverage_file

    velho = NOW - 20 * MIN
    files = {
        f"{uf}{i:05d}-c0001-e006258-u.json": u_file(f"{i:05d}", Part(), tpabr="mu")
        for uf in UFS_PRESIDENTE
        for i in (1, 2)
    }
    parte = velha or Part(hg=velho)
    files["sp00003-c0001-e006258-u.json"] = u_file("00003", parte, tpabr="mu")
    final = Part(est=1_000_000, st=3000, votes={13: 400_000, 22: 400_000}, hg=NOW - 40 * MIN)
    files["rr00009-c0001-e006258-u.json"] = u_file("00009", final, tpabr="mu")
    base = carimbo_de if carimbo_de is not None else cobertura
    carimbo = parse_coverage_file(base, "sp").linhas["sp00003"].carimbo if base is not None else None
    entries = {
        "sp00003-c0001-e006258-u.json": CaptureEntry(
            NOW, 200, False, None, cobertura=("sp-e006258-ab.json", carimbo) if carimbo else None
        )
    }
    snap = snapshot_of(files, entries)
    if cobertura is not None:
        snap.cobertura["sp-e006258-ab.json"] = cobertura
    return run(snap)


def test_a_counting_file_confirmed_by_a_fresh_coverage_counts_as_current() -> None:
    out = _run_with_coverage(_coverage("sp", {"00003": Part()}, NOW - dt.timedelta(seconds=30)))
    assert out["publicavel"] is True, out["criterios_nao_atendidos"]
    sp = stratum(out, "sp00003")
    # Both times in the output: the file's own `hg` and the coverage file's that confirmed it.
    assert sp["hora"].startswith("2026-10-25T16:40") and sp["confirmado"] == {
        "cobertura": "sp-e006258-ab.json",
        "hora": "2026-10-25T16:59:30-03:00",
    }
    assert "confirmado" not in stratum(out, "rr00009")


@pytest.mark.parametrize(
    "caso",
    ["sem cobertura", "cobertura velha", "cobertura ilegível", "linha mudou", "linha à frente do arquivo"],
)
def test_a_counting_file_is_not_current_by_a_stale_unreadable_or_moved_coverage(caso: str) -> None:
    fresca = NOW - dt.timedelta(seconds=30)
    if caso == "sem cobertura":
        out = _run_with_coverage(None)
    elif caso == "cobertura velha":
        out = _run_with_coverage(_coverage("sp", {"00003": Part()}, NOW - 10 * MIN))
    elif caso == "cobertura ilegível":
        out = _run_with_coverage(b'{"abr": [', _coverage("sp", {"00003": Part()}, fresca))
    elif caso == "linha mudou":  # totalized since the file was fetched: the stamp recorded differs
        out = _run_with_coverage(
            _coverage("sp", {"00003": Part(est=600_000)}, fresca), _coverage("sp", {"00003": Part()}, fresca)
        )
    else:  # the row moved before its file (TSE-FORMAT.md §3): same stamp recorded, counts differ
        out = _run_with_coverage(_coverage("sp", {"00003": Part(est=600_000)}, fresca))
    assert out["publicavel"] is False
    idade = criterion(out, "idade_arquivo_referencia")
    assert idade["ok"] is False and idade["valor"] >= 10, idade  # never fresher than the coverage
    # A stale coverage file still says "unchanged", but only as of its own (old) time.
    confirmado = stratum(out, "sp00003").get("confirmado")
    if caso == "cobertura velha":
        assert confirmado is not None and confirmado["hora"] == "2026-10-25T16:50:00-03:00"
    else:
        assert confirmado is None


# ---------------------------------------------------------------------------- replayed night


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """President by municipality in AC (22), AP (16) and RR (15), captures 50 s apart: AC moves at
    captures 1 and 8, AP at 2, RR is finished from the start; the replay serves each UF's coverage
    file generated from the municipal files, as the TSE regenerates it every cycle."""
    from jobs.tse.synthetic import totals_from_csv, write_president_municipal_night

    partes = totals_from_csv(DATASETS / "results" / "pres_2t_2022_mun.csv", ["ac", "ap", "rr"])
    niveis: list[dict[str, float]] = [{"ac": 0.3, "ap": 0.3, "rr": 1.2}, {"ac": 0.6}, {"ap": 0.5}]
    niveis += [{}, {}, {}, {}, {}, {"ac": 0.7}]
    dest = tmp_path_factory.mktemp("noite") / "cobertura"
    return write_president_municipal_night(
        dest, partes, [(START + STEP * k, n) for k, n in enumerate(niveis)]
    )


def _asked(replay: Replay, antes: dict[str, int]) -> tuple[set[str], set[str]]:
    """(municipalities asked since `antes`, coverage files asked since `antes`)."""
    muns, cobs = set(), set()
    for nome, n in replay.estado()["pedidos_por_arquivo"].items():
        if n <= antes.get(nome, 0):
            continue
        if m := re.fullmatch(r"([a-z]{2}\d{5})-c0001-e006258-u\.json", nome):
            muns.add(m[1])
        elif re.fullmatch(r"[a-z]{2}-e006258-ab\.json", nome):
            cobs.add(nome[:2])
    return muns, cobs


def _moved(replay: Replay, k: int) -> set[str]:
    """Municipalities whose coverage row differs between captures k-1 and k (the server's files)."""
    noite = replay.server.estado.noite
    out: set[str] = set()
    for uf in ("ac", "ap", "rr"):
        antes, depois = (parse_coverage(noite.cobertura(j, uf, "6258") or b"", uf) for j in (k - 1, k))
        out |= {p for p, s in depois.items() if antes.get(p) != s}
    return out


def test_the_scheduling_rules_with_coverage_files_on_a_replayed_night(
    night: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, PRESIDENT_MUN, jws="ignorar"))
    race = dados / "tse" / "6258" / "presidente"

    def cycle() -> set[str]:
        antes = replay.estado()["pedidos_por_arquivo"]
        [r] = job.ciclo()
        assert r.erro is None and r.agenda is not None, r.linha()
        muns, cobs = _asked(replay, antes)
        assert cobs == {"ac", "ap", "rr"}  # every UF's coverage file, every cycle
        return muns

    assert len(cycle()) == 53  # never read: every municipality
    replay.avancar()
    c1 = cycle()  # only the rows that moved: AC's
    assert c1 == _moved(replay, 1) and len(c1) == 22 and all(p.startswith("ac") for p in c1)
    replay.avancar()
    c2 = cycle()
    assert c2 == _moved(replay, 2) and len(c2) == 16 and all(p.startswith("ap") for p in c2)
    # Nothing moves at captures 3 to 7. AC's files (capture 1) reach 170 s, 220 s, 270 s, 320 s,
    # AP's 5 minutes as well: the coverage files prove them current, so none is asked again (the
    # rule without coverage would refresh them at 2.5 min); RR, finished, never.
    for _ in range(3, 8):
        replay.avancar()
        assert cycle() == set()
    replay.avancar()
    assert cycle() == _moved(replay, 8) and len(_moved(replay, 8)) == 22  # AC moved: a snapshot
    # What the reading mixes: AP's counting files are 6 minutes old, confirmed by AP's coverage file
    # of this cycle; RR's finished ones are older still. Publishable, and the basis is recorded.
    snap = snapshots(race)[-1]
    out = saida(snap)
    assert out["publicavel"] is True, out["criterios_nao_atendidos"]
    agora = dt.datetime.fromisoformat(out["agora"])
    ap = [e for e in out["estratos"] if e["id"].startswith("ap")]
    assert len(ap) == 16
    for e in ap:
        assert agora - dt.datetime.fromisoformat(e["hora"]) > 5 * MIN
        assert e["confirmado"]["cobertura"] == "ap-e006258-ab.json"
        assert agora - dt.datetime.fromisoformat(e["confirmado"]["hora"]) < MIN
        entrada = captura(snap)["arquivos"][e["arquivo"]]
        assert entrada["cobertura"]["arquivo"] == "ap-e006258-ab.json" and entrada["cobertura"]["carimbo"]
    assert (snap / "ap-e006258-ab.json").is_file()  # the coverage file travels with the snapshot
    auditoria = audit_snapshot(snap)  # and `eleicoes auditar` reproduces the confirmed reading
    assert auditoria.ok, (auditoria.problemas, auditoria.diff[:2000])
    assert not any("confirmado" in e for e in out["estratos"] if e["id"].startswith("rr"))


def test_an_unreadable_coverage_file_falls_back_to_the_files_own_age(
    night: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(night)
    job = job_factory(job_config(replay.url, tmp_path / "data", PRESIDENT_MUN, jws="ignorar"))
    for _ in range(4):  # captures 0-3: everything read; AC's files from capture 1, AP's from 2
        job.ciclo()
        replay.avancar()
    replay.falhas(truncado=["ap-e006258-ab"])
    antes = replay.estado()["pedidos_por_arquivo"]
    [r] = job.ciclo()  # capture 4: AP's files 120 s old, AC's 170 s but confirmed
    assert _asked(replay, antes)[0] == set()
    assert any("acompanhamento" in a and "ap" in a for a in r.avisos), r.avisos
    replay.avancar()
    antes = replay.estado()["pedidos_por_arquivo"]
    [r] = job.ciclo()  # capture 5: AP's 170 s old, refreshed by age; AC (220 s) still confirmed
    muns = _asked(replay, antes)[0]
    assert len(muns) == 16 and all(p.startswith("ap") for p in muns), muns
    assert r.agenda is not None and r.agenda.por_regra[2] == 16
