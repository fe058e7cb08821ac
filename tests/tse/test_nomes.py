"""Names, not codes (issue 17): the municipality catalogue travels with each snapshot, and the
race page names every municipal part from it, with its UF, where most votes remain first."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

from site_builder.build import build_site
from site_builder.projecao_dados import municipality_names
from tests.projecao.conftest import FIXTURE_CONTENT
from tests.projecao.noite import REPO
from tests.tse.conftest import GOVERNOR_AC, Job, Replay, job_config, saida


def test_race_page_names_municipalities_from_the_catalogue_kept_with_the_snapshot(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    root = tmp_path / "projeto"
    job = job_factory(job_config(replay.url, root / "data", GOVERNOR_AC))
    [r] = job.ciclo()
    assert r.alterado and r.erro is None
    race = root / "data" / "tse" / "6260" / "governador-ac"
    snap = race / (race / "latest").read_text(encoding="utf-8").strip()
    catalogue = snap / "mun-e006260-cm.json"
    assert catalogue.is_file()
    names = municipality_names(catalogue.read_bytes())
    assert names["ac01392"] == "Rio Branco (AC)"  # "RIO BRANCO" in the TSE file
    shutil.copytree(FIXTURE_CONTENT, root / "content")
    shutil.copytree(REPO / "templates", root / "templates")
    (root / "content" / "metodologia" / "projecao.md").write_text(
        '+++\ntitulo = "Projeção"\ndescricao = "Método."\nordem = 1\n'
        "atualizado_em = 2026-10-20\n+++\n\nMétodo.\n",
        encoding="utf-8",
    )
    build_site(root, tmp_path / "public", strict=True)
    page = (tmp_path / "public/projecao/6260-governador-ac/index.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr>\s*<th scope="row">([^<]+)</th>', page.split('class="tabela-partes"')[1])
    assert len(rows) == 22 and "Município" not in page and "es56006" not in page
    assert set(rows) == {names[e["id"]] for e in saida(snap)["estratos"]}
    remaining = {names[e["id"]]: e["validos_restantes_estimados"] for e in saida(snap)["estratos"]}
    assert [remaining[n] for n in rows] == sorted(remaining.values(), reverse=True)
