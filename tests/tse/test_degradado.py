"""The degraded governor mode on a live night (issue 23, item 1; issue 22 leftover).

A replayed runoff night where the TSE publishes no municipal file of AM (every one answers 404):
the poller switches the race to the seed's "modo degradado" by itself (the UF file's % counted,
the wide band of the last column, flagged), stops asking for the 62 municipal files (one probe per
`catalogo_intervalo_s`), and switches back when they appear. A UF that no valid municipality
config ever listed gets the same mode instead of an error.
"""

from __future__ import annotations

import datetime as dt
import html
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from jobs.tse.config import ConfigTse, Corrida
from jobs.tse.degradado import degraded_capture, none_published, probe_due
from model.bands import half_width
from model.baselines import load_baselines
from model.calibration import load_calibration
from tests.tse.conftest import START, Job, Replay, captura, job_config, saida, snapshots

GOVERNOR_AM = Corrida("governador", "6260", "am", "municipio")
MUNICIPAIS_AM = "am[0-9]*-c0003-e006260-u"  # every AM municipal file (not the UF file am-c0003-…)
UF_AM = "am-c0003-e006260-u.json"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def night_am(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Governor AM (62 municipalities) and AC (22), 6260, four captures from 30 % to 90 %."""
    from jobs.tse.synthetic import schedule, totals_from_baseline, write_night

    dest = tmp_path_factory.mktemp("noite") / "am"
    bases = load_baselines()
    for uf in ("am", "ac"):
        write_night(
            dest,
            totals_from_baseline(bases[f"6260-governador-{uf}-municipio"]),
            schedule(START, [0.3, 0.5, 0.7, 0.9]),
            eleicao="6260",
            cargo=3,
            agregado=uf,
        )
    return dest


def _municipal_requests(replay: Replay) -> int:
    por = replay.estado()["pedidos_por_arquivo"]
    return sum(n for nome, n in por.items() if re.fullmatch(r"am\d{5}-c0003-e006260-u\.(json|jws)", nome))


def _uf_pct(night: Path, k: int) -> float:
    import json

    caps = sorted((night / "capturas").iterdir())
    d = json.loads((caps[k] / UF_AM).read_bytes())
    return round(100 * int(d["e"]["est"]) / int(d["e"]["te"]), 4)


def _build_page(data: Path, tmp: Path) -> str:
    """The AM governor page of a throw-away project built on `data` (the reader's view)."""
    from site_builder.build import build_site
    from tests.projecao.conftest import FIXTURE_CONTENT, METHOD_PAGE

    root = tmp / "projeto"
    shutil.copytree(FIXTURE_CONTENT, root / "content")
    (root / "content" / "metodologia" / "projecao.md").write_text(METHOD_PAGE, encoding="utf-8")
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(data, root / "data")
    build_site(root, root / "public")
    page = (root / "public" / "projecao" / "6260-governador-am" / "index.html").read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_all_municipal_files_404_switches_to_degraded_and_back(
    night_am: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(night_am)
    replay.falhas(ausente=[MUNICIPAIS_AM])
    dados = tmp_path / "data"
    # catalogo_intervalo_s = 0: a probe at every cycle, to see that a probe is one file.
    job = job_factory(job_config(replay.url, dados, GOVERNOR_AM, catalogo_intervalo_s=0.0))
    [r] = job.ciclo()
    assert r.erro is None and r.degradado, r.linha()
    assert "modo degradado" in r.linha()
    snap = snapshots(dados / "tse" / "6260" / "governador-am")[-1]
    out = saida(snap)
    assert out["modo"] == "governador_degradado" and out["degradado"] is True
    # The state file's % counted, not 0 % of 62 missing municipalities; the wide band of the seed.
    assert out["apurado_pct"] == _uf_pct(night_am, 0) > 25
    assert out["publicavel"] is True, out["criterios_nao_atendidos"]
    faixa = out["forecast"]["candidatos"][0]["faixa"]
    assert faixa == round(half_width(load_calibration(), "governador_degradado", out["apurado_pct"]), 4)
    assert list(captura(snap)["arquivos"]) == [UF_AM]

    antes = _municipal_requests(replay)
    replay.avancar()
    [r] = job.ciclo()
    assert r.degradado and r.erro is None, r.linha()
    assert _municipal_requests(replay) - antes <= 2  # one probe (its .jws twin, then the .json)
    race = dados / "tse" / "6260" / "governador-am"
    assert saida(snapshots(race)[-1])["apurado_pct"] == _uf_pct(night_am, 1)
    pagina = _build_page(dados, tmp_path)
    assert "Modo degradado" in pagina and "sem os arquivos por município" in pagina

    replay.limpar()  # the TSE publishes the municipal files
    replay.avancar()
    [r] = job.ciclo()
    assert not r.degradado and r.erro is None, r.linha()
    assert any("modo degradado desligado" in a for a in r.avisos)
    snap = snapshots(dados / "tse" / "6260" / "governador-am")[-1]
    out = saida(snap)
    assert out["modo"] == "governador_municipio" and out["degradado"] is False
    assert len([n for n in captura(snap)["arquivos"] if n != UF_AM]) == 62
    assert all(e["status"] == 200 for e in captura(snap)["arquivos"].values())


def test_degraded_race_does_not_probe_before_the_interval_and_resumes_after_restart(
    night_am: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(night_am)
    replay.falhas(ausente=[MUNICIPAIS_AM])
    dados = tmp_path / "data"
    cfg = job_config(replay.url, dados, GOVERNOR_AM, catalogo_intervalo_s=3600.0)
    [r] = job_factory(cfg).ciclo()
    assert r.degradado
    primeiro = _municipal_requests(replay)
    assert 62 <= primeiro <= 124  # the first sweep: each file once (twin probe: .jws, then .json)
    job = job_factory(cfg)  # a restart resumes the mode from the latest snapshot
    for _ in range(2):
        replay.avancar()
        [r] = job.ciclo()
        assert r.degradado and r.erro is None, r.linha()
    # The restart probes once (it does not know when the last probe was); then nothing.
    assert _municipal_requests(replay) - primeiro <= 2


def test_uf_never_in_a_valid_config_is_degraded_not_an_error(
    night_am: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(night_am)
    replay.falhas(municipios_sem=["am"])  # the config lists AC only, from the start
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, GOVERNOR_AM))
    [r] = job.ciclo()
    assert r.erro is None and r.degradado, r.linha()
    out = saida(snapshots(dados / "tse" / "6260" / "governador-am")[-1])
    assert out["modo"] == "governador_degradado" and out["apurado_pct"] == _uf_pct(night_am, 0)
    assert _municipal_requests(replay) == 0  # no municipal URL is ever guessed
    # A degraded reading that is not publishable (the TSE stalls 6 minutes) says so on the page too.
    replay.falhas(municipios_sem=["am"], avanco_min=6.0)
    [r] = job.ciclo()
    assert r.degradado and r.publicavel is False, r.linha()
    pagina = _build_page(dados, tmp_path)
    assert "Projeção não publicada nesta leitura" in pagina
    assert "Modo degradado: o TSE não publica os arquivos por município desta disputa" in pagina


def test_rules_of_the_switch() -> None:
    assert none_published([{"http": 404}, None, {"http": 404}], [False, False, False])
    assert not none_published([{"http": 404}, {"http": 503}], [False, False])  # a fault, not "none"
    assert not none_published([{"http": 404}], [True])  # read once: a missing part, not degraded
    assert not none_published([None, None], [False, False])  # nothing asked: no evidence
    t = dt.datetime(2026, 10, 25, 21, tzinfo=dt.UTC)
    assert probe_due(None, t, 600) and probe_due(t, t + dt.timedelta(seconds=600), 600)
    assert not probe_due(t, t + dt.timedelta(seconds=599), 600)
    assert degraded_capture(GOVERNOR_AM, {UF_AM: {}})
    assert not degraded_capture(GOVERNOR_AM, {UF_AM: {}, "am02003-c0003-e006260-u.json": {}})
    assert not degraded_capture(Corrida("governador", "6260", "am", "uf"), {UF_AM: {}})
