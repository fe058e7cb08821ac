"""A municipality config (`mun-e<ele>-cm.json`) that omits a UF never drops that UF's valid reading
(issue 22, item 8)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from jobs.tse.catalog import Municipio
from jobs.tse.config import ConfigTse
from jobs.tse.cycle import _Cache, _keep_missing_ufs
from tests.tse.conftest import GOVERNOR_AC, PRESIDENT, START, Job, Replay, captura, job_config, snapshots

SP = "sp-c0001-e006258-u.json"


def test_president_by_uf_never_depends_on_the_municipality_config(
    synthetic_night: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    replay.falhas(municipios_sem=["sp"])
    dados = tmp_path / "data"
    [r] = job_factory(job_config(replay.url, dados, PRESIDENT)).ciclo()
    assert r.erro is None and r.publicavel is True, r.linha()
    [snap] = snapshots(dados / "tse" / "6258" / "presidente")
    assert captura(snap)["arquivos"][SP]["status"] == 200
    assert (snap / SP).is_file()


def test_governor_keeps_the_last_valid_municipality_list_of_its_uf(
    synthetic_night: Path,
    replay_factory: Callable[..., Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, GOVERNOR_AC, catalogo_intervalo_s=0.0))
    [r] = job.ciclo()
    assert r.erro is None
    antes = sorted(captura(snapshots(dados / "tse" / "6260" / "governador-ac")[-1])["arquivos"])
    replay.falhas(municipios_sem=["ac"])
    replay.avancar()
    [r] = job.ciclo()
    assert r.erro is None, r.linha()
    # This night's config lists only AC: without it the file is refused whole (the last valid kept).
    assert any("mantida a última" in a for a in r.avisos), r.avisos
    depois = sorted(captura(snapshots(dados / "tse" / "6260" / "governador-ac")[-1])["arquivos"])
    assert depois == antes and len(antes) == 23  # 22 municipalities + the UF file


def test_a_new_config_missing_a_uf_keeps_that_ufs_last_list() -> None:
    ac = (Municipio("01120", ()),)
    es = (Municipio("57053", ()),)
    cache = _Cache(b"{}", None, None, START)
    merged, faltam = _keep_missing_ufs({"es": es}, ({"ac": ac, "es": es}, cache))
    assert merged == {"ac": ac, "es": es} and faltam == ["ac"]
    assert _keep_missing_ufs({"es": es}, None) == ({"es": es}, [])
