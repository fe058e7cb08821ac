"""Live pages: an open race or debate page picks up new numbers from its JSON without a reload (a real
loopback server whose file changes), warns when the data is older than the criteria allow, asks for
a reload when the new reading changes what it cannot redraw, and is complete without JavaScript."""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jobs.serve import make_server
from site_builder import br_format
from site_builder.ao_vivo import ATRASO_DEBATE_MIN, INTERVALO_S
from site_builder.build import build_site
from tests.support.navegador import CHROMIUM, Aba, Navegador

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium (pacote Debian) não está instalado")
CORRIDA = "/projecao/6258-presidente/"
API = "api/projecao/6258-presidente.json"
DEBATE = "debates/demo-governo-2026-10-15"
FUSO = "America/Sao_Paulo"


def texto(aba: Aba, campo: str) -> str:
    valor: str = aba.avaliar(f"document.querySelector('[data-campo=\"{campo}\"]').textContent")
    return valor


def visivel(aviso: str) -> str:
    return f"!document.querySelector('[data-aviso=\"{aviso}\"]').hidden"


@pytest.fixture
def servido(site_completo: Path, tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A copy of the site on a loopback server; the test rewrites its files while a page is open."""
    out = tmp_path / "public"
    shutil.copytree(site_completo, out)
    acelerar(out / CORRIDA.strip("/") / "index.html")
    server = make_server(out, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield out, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def acelerar(pagina: Path) -> None:
    """Ask every second instead of every 30 (only the served copy: the test waits for events)."""
    html = pagina.read_text(encoding="utf-8")
    assert f'data-intervalo="{INTERVALO_S}"' in html
    pagina.write_text(html.replace(f'data-intervalo="{INTERVALO_S}"', 'data-intervalo="1"'), encoding="utf-8")


def publicar(out: Path, rel: str, dados: dict[str, Any]) -> None:
    tmp = out / (rel + ".tmp")
    tmp.write_text(json.dumps(dados, ensure_ascii=False), encoding="utf-8")
    tmp.replace(out / rel)


def test_the_race_page_updates_itself_and_warns_when_the_data_is_old(servido: tuple[Path, str]) -> None:
    out, base = servido
    saida = json.loads((out / API).read_bytes())
    limite = next(c["limite"] for c in saida["criterios"] if c["id"] == "idade_arquivo_referencia")
    with Navegador() as browser, browser.aba(base + CORRIDA, 390, 844, mobile=True) as aba:
        # The fixture night is months old: the page says its data is older than the criteria allow.
        aba.esperar(visivel("atraso"))
        assert texto(aba, "atraso-limite") == f"{int(limite)} min"
        aba.avaliar("window.semRecarregar = true")

        agora = dt.datetime.now(dt.UTC).replace(microsecond=0)
        nova = json.loads(json.dumps(saida))
        nova["agora"] = agora.astimezone(dt.timezone(dt.timedelta(hours=-3))).isoformat()
        nova["apurado_pct"] = 98.125  # an exact binary tie: Python rounds it to even (98,12%)
        helena, rui = sorted(nova["forecast"]["candidatos"], key=lambda c: c["numero"])
        helena.update(pct=52.5, faixa=2.004, intervalo=[50.496, 54.504], votos_projetados=20_700_001)
        rui.update(pct=47.5, faixa=2.004, intervalo=[45.496, 49.504], votos_projetados=18_650_000)
        nova["forecast"]["margem"] = 5.0
        nova["parcial"]["candidatos"][0]["votos"] = 20_100_000
        publicar(out, API, nova)

        aba.esperar("document.querySelector('[data-campo=\"projecao-13-pct\"]').textContent === '52,50%'")
        assert aba.avaliar("window.semRecarregar") is True  # the same page, not a reload
        assert texto(aba, "apurado") == br_format.pct(98.125) == "98,12%"
        assert texto(aba, "projecao-13-faixa") == "±" + br_format.pontos(2.004) == "±2,00 pontos"
        assert texto(aba, "projecao-13-min") == br_format.pct(50.496)
        assert texto(aba, "projecao-22-votos") == br_format.inteiro(18_650_000)
        assert texto(aba, "projecao-margem") == br_format.pontos(5.0)
        assert texto(aba, "projecao-tendencia-nome") == "Helena Prado"  # the candidate file's spelling
        assert texto(aba, "parcial-13-votos") == "20.100.000"
        assert texto(aba, "atualizado") == br_format.data_hora(agora, FUSO)
        assert aba.avaliar(visivel("nova")) and not aba.avaliar(visivel("atraso"))
        assert re.fullmatch(r" · há (menos de 1|\d+) min", texto(aba, "idade"))

        # A new leader changes the table's order: the script asks for a reload, numbers stay as shown.
        virada = json.loads(json.dumps(nova))
        virada["agora"] = (agora + dt.timedelta(seconds=30)).astimezone(dt.UTC).isoformat()
        helena, rui = sorted(virada["forecast"]["candidatos"], key=lambda c: c["numero"])
        helena["pct"], rui["pct"] = 47.0, 53.0
        publicar(out, API, virada)
        aba.esperar(visivel("recarregar"))
        assert texto(aba, "projecao-13-pct") == "52,50%"
        assert aba.avaliar("window.semRecarregar") is True
        assert aba.erros() == []


def test_without_javascript_the_race_page_is_complete_and_quiet(servido: tuple[Path, str]) -> None:
    out, base = servido
    saida = json.loads((out / API).read_bytes())
    with Navegador() as browser, browser.aba(base + CORRIDA, 390, 844, mobile=True, javascript=False) as aba:
        for c in saida["forecast"]["candidatos"]:
            assert texto(aba, f"projecao-{c['numero']}-pct") == br_format.pct(c["pct"])
        for aviso in ("atraso", "nova", "recarregar"):
            assert not aba.avaliar(visivel(aviso))
        assert texto(aba, "idade") == ""


def test_the_live_debate_scoreboard_updates_itself(projeto_completo: Path, tmp_path: Path) -> None:
    projeto = tmp_path / "projeto"
    shutil.copytree(projeto_completo, projeto)
    estado = projeto / "data" / DEBATE / "estado.json"
    estado.write_text(json.dumps({**json.loads(estado.read_bytes()), "encerrado": False}), encoding="utf-8")
    out = tmp_path / "public"
    build_site(projeto, out, strict=True)
    acelerar(out / DEBATE / "index.html")
    server = make_server(out, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with (
            Navegador() as browser,
            browser.aba(f"http://127.0.0.1:{server.server_address[1]}/{DEBATE}/", 1280, 900) as aba,
        ):
            aba.avaliar("window.semRecarregar = true")
            placar = json.loads((out / DEBATE / "placar.json").read_bytes())
            gravado = dt.datetime.fromisoformat(placar["atualizado_em"])
            assert texto(aba, "atualizado") == br_format.data_hora(gravado, FUSO)  # written by the builder
            assert texto(aba, "placar-helena-prado-nota") == "72,7"
            assert not aba.avaliar(visivel("recarregar"))  # the page already shows this scoreboard

            # The engine has just computed it: the age line moves, no warning.
            agora = dt.datetime.now(dt.UTC).replace(microsecond=0)
            publicar(out, DEBATE + "/placar.json", {**placar, "atualizado_em": agora.isoformat()})
            hora = br_format.data_hora(agora, FUSO)
            aba.esperar(f"document.querySelector('[data-campo=\"atualizado\"]').textContent === '{hora}'")
            assert re.fullmatch(r" · há (menos de 1|\d+) min", texto(aba, "idade"))
            assert not aba.avaliar(visivel("atraso")) and not aba.avaliar(visivel("recarregar"))

            # New numbers, last changed two hours ago: the page warns the scoreboard has stopped.
            antigo = agora - dt.timedelta(hours=2)
            placar["atualizado_em"] = antigo.astimezone(dt.timezone(dt.timedelta(hours=-3))).isoformat()
            helena = placar["candidatos"][0]
            helena["nota"] = 70.25
            helena["metricas"]["veracidade"].update(nota=60.0, peso_efetivo=25.5)
            helena["turnos_avaliados"] = 9
            helena["tempo_fala_s"] = 215.0
            publicar(out, DEBATE + "/placar.json", placar)
            aba.esperar(
                "document.querySelector('[data-campo=\"placar-helena-prado-nota\"]').textContent === '70,2'"
            )
            assert texto(aba, "placar-helena-prado-veracidade-nota") == "60,0"
            assert texto(aba, "placar-helena-prado-veracidade-peso") == "26%"  # 25.5 -> 26, half to even
            assert texto(aba, "placar-helena-prado-turnos") == "9"
            assert texto(aba, "placar-helena-prado-tempo") == "3:35"
            assert aba.avaliar(visivel("recarregar")) and aba.avaliar("window.semRecarregar") is True
            aba.esperar(visivel("atraso"))
            assert texto(aba, "atualizado") == br_format.data_hora(antigo, FUSO)
            # Both read at once: the script rewrites them every second.
            idade, atraso = aba.avaliar(
                "['idade', 'atraso-idade']"
                '.map(c => document.querySelector(`[data-campo="${c}"]`).textContent)'
            )
            minutos = re.fullmatch(r" · há (\d+) min", idade)
            assert minutos is not None and int(minutos[1]) >= 120 and atraso == minutos[1] + " min"
            assert texto(aba, "atraso-limite") == f"{ATRASO_DEBATE_MIN} min"
            assert aba.erros() == []
    finally:
        server.shutdown()
        server.server_close()
