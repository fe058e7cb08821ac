"""Fixtures: synthetic and real nights, a replay server on loopback, a job configuration."""

from __future__ import annotations

import datetime as dt
import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from jobs.tse.config import ConfigTse, Corrida
from jobs.tse.cycle import PollState, RaceResult, run_cycle
from jobs.tse.night import make_partial_night
from jobs.tse.replay import Falhas, ReplayServer, make_server
from jobs.tse.store import parse_capture_name
from jobs.tse.synthetic import schedule, totals_from_baseline, write_night
from model.baselines import load_baselines
from model.calibration import load_calibration

REPO = Path(__file__).resolve().parents[2]
DATASETS = REPO.parent / "shared" / "datasets"
START = dt.datetime(2026, 10, 25, 20, 30, tzinfo=dt.UTC)  # 17:30 Brasília
PRESIDENT = Corrida("presidente", "6258", "br", "uf")
GOVERNOR_AC = Corrida("governador", "6260", "ac", "municipio")


def night_levels() -> list[float]:
    """Counted levels of the synthetic night: 30 %, 45 %, 60 %, 75 % at 10-minute steps."""
    return [0.3, 0.45, 0.6, 0.75]


@pytest.fixture(scope="session")
def synthetic_night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """President 6258 (28 UFs + br) and governor AC 6260 (22 municipalities), 4 captures."""
    dest = tmp_path_factory.mktemp("noite") / "sintetica"
    bases = load_baselines()
    instantes = schedule(START, night_levels())
    write_night(dest, totals_from_baseline(bases["6258-presidente-br-uf"]), instantes, eleicao="6258")
    write_night(
        dest,
        totals_from_baseline(bases["6260-governador-ac-municipio"]),
        schedule(START, [0.3, 0.95, 1.2, 1.2]),
        eleicao="6260",
        cargo=3,
        agregado="ac",
    )
    return dest


@pytest.fixture(scope="session")
def real_night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real 1st-round captures (6257) plus the signed final files."""
    return make_partial_night(tmp_path_factory.mktemp("noite") / "real", DATASETS / "tse")


class Replay:
    """A running replay server and helpers to drive it over HTTP, as a test would by hand."""

    def __init__(self, server: ReplayServer) -> None:
        self.server = server
        self.url = server.url_base

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        with urllib.request.urlopen(req, timeout=60) as r:
            out: dict[str, Any] = json.loads(r.read())
        return out

    def avancar(self, para: int | None = None) -> dict[str, Any]:
        """POST /_replay/avancar."""
        return self._call("POST", "/_replay/avancar" + (f"?para={para}" if para is not None else ""))

    def falhas(self, **falhas: Any) -> dict[str, Any]:
        """POST /_replay/falhas (replaces the faults)."""
        return self._call("POST", "/_replay/falhas", falhas)

    def limpar(self) -> dict[str, Any]:
        """DELETE /_replay/falhas."""
        return self._call("DELETE", "/_replay/falhas")

    def estado(self) -> dict[str, Any]:
        """GET /_replay/estado."""
        return self._call("GET", "/_replay/estado")


@pytest.fixture
def replay_factory() -> Iterator[Callable[[Path], Replay]]:
    """Start replay servers on free loopback ports; all stopped at teardown."""
    servers: list[ReplayServer] = []

    def start(night: Path, falhas: Falhas | None = None) -> Replay:
        server = make_server(night, 0, None, falhas)
        server.iniciar()
        servers.append(server)
        return Replay(server)

    yield start
    for s in servers:
        s.parar()


def job_config(url: str, dados: Path, *corridas: Corrida, **extra: Any) -> ConfigTse:
    """A fast job configuration against a loopback server (calibration pin = the shipped file)."""
    base: dict[str, Any] = {
        "url_base": url,
        "corridas": corridas or (PRESIDENT,),
        "requisicoes_por_segundo": 1000.0,
        "rajada": 1000,
        "tempo_limite_s": 10.0,  # generous: a loaded machine must not turn a clean answer into a fault
        "tentativas": 1,
        "espera_inicial_s": 0.0,
        "relogio": "servidor",
        "git": False,
        "pasta_dados": dados,
        "repositorio_git": dados,
        "calibracao_sha256": load_calibration().sha256,
        "raiz": dados.parent,
    }
    base.update(extra)
    return ConfigTse(**base)


class Job:
    """A job state bound to its configuration: `ciclo()` runs one cycle and returns per-race results."""

    def __init__(self, config: ConfigTse) -> None:
        self.config = config
        self.state = PollState.criar(config)

    def ciclo(self) -> list[RaceResult]:
        res = run_cycle(self.config, self.state)
        assert res.erro is None, res.erro
        return res.corridas

    def close(self) -> None:
        self.state.fechar()


@pytest.fixture
def job_factory() -> Iterator[Callable[[ConfigTse], Job]]:
    """Jobs closed at teardown."""
    jobs: list[Job] = []

    def make(config: ConfigTse) -> Job:
        job = Job(config)
        jobs.append(job)
        return job

    yield make
    for j in jobs:
        j.close()


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes, keyed by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def saida(snapshot: Path) -> dict[str, Any]:
    """The stored model output of a snapshot."""
    out: dict[str, Any] = json.loads((snapshot / "saida.json").read_bytes())
    return out


def captura(snapshot: Path) -> dict[str, Any]:
    """The stored captura.json of a snapshot."""
    out: dict[str, Any] = json.loads((snapshot / "captura.json").read_bytes())
    return out


def snapshots(race: Path) -> list[Path]:
    """The snapshot folders of a race, oldest first (not `latest`, staging or rejected files)."""
    return sorted(p for p in race.iterdir() if parse_capture_name(p.name) is not None)
