"""A race whose cycle cannot complete is never shown as current (issue 22, item 4).

After a publishable reading the TSE stops answering (503 to everything) while the night's clock
runs on: once the held files are older than the seed's 5 minutes, the race's published output is
"não publicável" with `idade_arquivo_referencia` among the failed criteria.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jobs.tse.audit import audit_snapshot
from jobs.tse.client import Pedido, ServerClock, TseClient
from jobs.tse.config import ConfigTse
from jobs.tse.cycle import withhold_after_crash
from tests.tse.conftest import PRESIDENT, START, Job, Replay, job_config

AGE = "idade_arquivo_referencia"


def _iso(t: dt.datetime) -> str:
    return t.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _published(dados: Path) -> dict[str, Any]:
    pasta = dados / "tse" / "6258" / "presidente"
    latest = (pasta / "latest").read_text(encoding="utf-8").strip()
    out: dict[str, Any] = json.loads((pasta / latest / "saida.json").read_bytes())
    assert audit_snapshot(pasta / latest).ok  # every published output is reproducible
    return out


def test_tse_down_six_minutes_withholds_the_race(
    synthetic_night: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, PRESIDENT))
    [r] = job.ciclo()
    assert r.publicavel is True and _published(dados)["publicavel"] is True
    replay.falhas(erro_5xx=["*"], avanco_min=6.0)  # TSE down; 6 minutes of the night go by
    [r] = job.ciclo()
    assert r.falhas > 0 and r.publicavel is False, r.linha()
    saida = _published(dados)
    assert saida["publicavel"] is False
    assert AGE in saida["criterios_nao_atendidos"]


class _Clock:
    """The machine's monotonic clock, moved forward by the test (no real waiting)."""

    def __init__(self) -> None:
        self.adiante = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.adiante


def test_frozen_date_header_does_not_keep_a_stalled_night_fresh(
    synthetic_night: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    relogio = _Clock()
    config = job_config(replay.url, dados, PRESIDENT)
    job = job_factory(config)
    job.state.cliente.close()
    job.state.cliente = TseClient(config, relogio_servidor=ServerClock(relogio))
    [r] = job.ciclo()
    assert r.publicavel is True
    # A CDN keeps answering cached responses: the `Date` stops at the night's first capture while
    # the count stalls (same files) and 6 minutes go by on the machine's clock.
    replay.falhas(data_congelada=_iso(START))
    relogio.adiante = 6 * 60.0
    [r] = job.ciclo()
    assert r.publicavel is False, r.linha()
    saida = _published(dados)
    assert saida["publicavel"] is False and AGE in saida["criterios_nao_atendidos"]


def test_server_clock_follows_a_server_ahead_and_estimates_a_frozen_one() -> None:
    relogio = _Clock()
    clock = ServerClock(relogio)
    assert clock.corrigir(None) is None
    assert clock.corrigir(START) is not None
    relogio.adiante = 60.0
    frozen = clock.corrigir(START)
    assert frozen is not None and frozen >= START + dt.timedelta(seconds=60)
    ahead = START + dt.timedelta(minutes=10)
    assert clock.corrigir(ahead) == ahead  # a server clock that jumps ahead is followed


def test_a_race_whose_cycle_raises_is_withheld_on_the_current_clock(
    synthetic_night: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, PRESIDENT, catalogo_intervalo_s=0.0))
    [r] = job.ciclo()
    assert r.publicavel is True
    # The catalogue stops listing the race: its cycle raises (CatalogError) before any file is
    # asked, while the night's clock runs 6 minutes on.
    replay.falhas(catalogo_sem=["6258"], avanco_min=6.0)
    [r] = job.ciclo()
    assert r.erro is not None and "não está no catálogo" in r.erro
    assert r.publicavel is False and AGE in r.nao_atendidos, r.linha()
    saida = _published(dados)
    assert saida["publicavel"] is False and AGE in saida["criterios_nao_atendidos"]
    # Nothing more changes while the race stays broken: no snapshot per cycle.
    antes = sorted(p.name for p in (dados / "tse" / "6258" / "presidente").iterdir())
    [r] = job.ciclo()
    assert sorted(p.name for p in (dados / "tse" / "6258" / "presidente").iterdir()) == antes


def test_scheduler_wrapper_withholds_after_a_crashed_cycle(
    synthetic_night: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    config = job_config(replay.url, dados, PRESIDENT)
    job = job_factory(config)
    [r] = job.ciclo()
    assert r.publicavel is True
    replay.falhas(avanco_min=6.0)
    job.state.cliente.get(Pedido(replay.url + "/_replay/estado"))  # the last `Date` seen: +6 min
    [res] = withhold_after_crash(config, job.state)
    assert res.publicavel is False and AGE in res.nao_atendidos, res.linha()
    assert AGE in _published(dados)["criterios_nao_atendidos"]
