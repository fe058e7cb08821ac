"""A finished count never shows "Dados atrasados": its files only age, the count cannot advance.

After the night (or the demo's clock running past its end) the reading's oldest file grows older
than the file-age limit; the page's script must not tell readers the count may have moved on.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from site_builder import projecao_view
from site_builder.collect import collect
from site_builder.config import load_config
from site_builder.state import BuildState
from site_builder.workers import Workers


def test_a_finished_count_gives_the_page_no_age_limit(project: Path, tmp_path: Path) -> None:
    config, _ = load_config(project)
    with Workers(1) as workers:
        ctx = collect(project, config, BuildState.load(tmp_path / "estado", "teste"), workers)
    corrida = next(c for c in ctx.projecoes if c.id == "6257-presidente")
    atual = corrida.atual
    assert atual.parcial_eleitorado and atual.parcial_totalizado is not None
    assert atual.parcial_totalizado < atual.parcial_eleitorado  # the fixture's night is still counting

    em_apuracao = projecao_view.race_page(ctx, corrida)["ao_vivo"]
    assert em_apuracao["limite"] == "5.0" and em_apuracao["idade"] != ""

    concluida = dataclasses.replace(atual, parcial_totalizado=atual.parcial_eleitorado)
    assert concluida.apuracao_concluida and not atual.apuracao_concluida
    pagina = projecao_view.race_page(ctx, dataclasses.replace(corrida, atual=concluida))["ao_vivo"]
    assert pagina["limite"] == "" and pagina["idade"] == ""
