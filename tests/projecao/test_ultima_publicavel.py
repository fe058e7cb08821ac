"""Issue 21, item 3: when the latest reading is not publishable, the share card keeps the last
publishable projection, labelled with its time, beside the current official partial."""

from __future__ import annotations

import json
from pathlib import Path

from site_builder import br_format, projecao_view
from site_builder.collect import collect
from site_builder.config import load_config
from site_builder.state import BuildState
from site_builder.workers import Workers


def test_the_share_card_keeps_the_last_publishable_projection(project: Path, tmp_path: Path) -> None:
    config, _ = load_config(project)
    with Workers(1) as workers:
        ctx = collect(project, config, BuildState.load(tmp_path / "estado", "teste"), workers)
    corrida = next(c for c in ctx.projecoes if c.id == "6257-presidente")
    assert not corrida.atual.publicavel and corrida.publicavel_captura is not None
    pasta = project / "data" / "tse" / "6257" / "presidente"
    anterior = json.loads((pasta / corrida.publicavel_captura.nome / "saida.json").read_bytes())
    atual = json.loads((pasta / corrida.ultima.nome / "saida.json").read_bytes())
    cartao = projecao_view.share_card(ctx, corrida)
    assert cartao.destaque == "Parcial oficial. Última projeção publicável, 18:36: tendência Flavio Bolsonaro"
    parciais = {c["numero"]: c for c in atual["parcial"]["candidatos"]}
    projetados = {c["numero"]: c for c in anterior["forecast"]["candidatos"]}
    lider = max(parciais.values(), key=lambda c: c["votos"])
    primeira = cartao.linhas[0]
    assert primeira.valor == br_format.pct(lider["pct"])  # the current partial, big
    p = projetados[lider["numero"]]
    assert primeira.nota == (
        f"parcial oficial · projeção às 18:36: {br_format.pct(p['pct'])} ±{br_format.pontos(p['faixa'])}"
    )
