"""The home page shows each race's current trend ("indefinido" when there is none or the reading is
not publishable) and a card of the debate on air, or of the latest one."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from site_builder.build import build_site

DEBATE = "demo-governo-2026-10-15"


def texto(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def corrida(inicio: str, titulo: str) -> str:
    achado = re.search(re.escape(titulo) + r".*?\(Brasília\)", inicio)
    assert achado, titulo
    return achado.group(0)


def test_home_shows_trends_and_the_latest_debate(site_completo: Path) -> None:
    inicio = texto((site_completo / "index.html").read_text(encoding="utf-8"))
    decidido = "Tendência: Helena Prado · definido matematicamente."
    assert decidido in corrida(inicio, "Presidente, 2º turno de 2026")
    # not publishable now: the last publishable projection's trend, labelled with its time (issue 21)
    assert "Tendência (última projeção publicável, 18:36): Flavio Bolsonaro." in corrida(
        inicio, "Presidente, 1º turno de 2026"
    )
    assert "Debate de demonstração: governo do estado" in inicio
    assert "Helena Prado lidera o placar" in inicio and "debate encerrado" in inicio
    assert f'href="/debates/{DEBATE}/"' in (site_completo / "index.html").read_text(encoding="utf-8")


def test_home_marks_a_debate_on_air_and_has_no_card_without_debates(
    projeto_completo: Path, tmp_path: Path
) -> None:
    projeto = tmp_path / "projeto"
    shutil.copytree(projeto_completo, projeto)
    estado = projeto / "data" / "debates" / DEBATE / "estado.json"
    estado.write_text(json.dumps({**json.loads(estado.read_bytes()), "encerrado": False}), encoding="utf-8")
    build_site(projeto, tmp_path / "a", strict=True)
    inicio = (tmp_path / "a" / "index.html").read_text(encoding="utf-8")
    assert '<strong class="selo-ao-vivo">Ao vivo</strong>' in inicio and "debate encerrado" not in inicio
    shutil.rmtree(projeto / "data" / "debates")
    build_site(projeto, tmp_path / "b", strict=True)
    assert 'class="cartao-debate"' not in (tmp_path / "b" / "index.html").read_text(encoding="utf-8")
