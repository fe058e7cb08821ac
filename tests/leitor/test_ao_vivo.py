"""Live pages: an open race or debate page picks up new numbers from its JSON without a reload (a real
loopback server whose file changes), warns when the data is older than the criteria allow, asks for
a reload when the new reading changes what it cannot redraw, and is complete without JavaScript."""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jobs.serve import Answer, SiteHandler, SiteServer, make_server
from site_builder import br_format
from site_builder.ao_vivo import ATRASO_DEBATE_MIN, ESTRUTURA, INTERVALO_S
from site_builder.build import build_site
from tests.support.navegador import CHROMIUM, Aba, Navegador
from tests.support.servidor import em_segundo_plano

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
    em_segundo_plano(server)
    try:
        yield out, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def acelerar(pagina: Path) -> None:
    """Ask every second instead of every INTERVALO_S (only the served copy: the test waits for events)."""
    html = pagina.read_text(encoding="utf-8")
    assert f'data-intervalo="{INTERVALO_S}"' in html
    pagina.write_text(html.replace(f'data-intervalo="{INTERVALO_S}"', 'data-intervalo="1"'), encoding="utf-8")


def publicar(out: Path, rel: str, dados: dict[str, Any]) -> None:
    tmp = out / (rel + ".tmp")
    tmp.write_text(json.dumps(dados, ensure_ascii=False), encoding="utf-8")
    tmp.replace(out / rel)


def test_the_race_page_swaps_a_new_build_in_place_and_warns_when_the_data_is_old(
    servido: tuple[Path, str],
) -> None:
    out, base = servido
    pagina = out / CORRIDA.strip("/") / "index.html"
    saida = json.loads((out / API).read_bytes())
    limite = next(c["limite"] for c in saida["criterios"] if c["id"] == "idade_arquivo_referencia")
    with Navegador() as browser, browser.aba(base + CORRIDA, 390, 844, mobile=True) as aba:
        # The fixture night is months old (the server's Date header): the page says its data is
        # older than the criteria allow, in the folded notices' one line too.
        aba.esperar(visivel("atraso"))
        assert aba.avaliar(visivel("atraso-curto"))
        assert texto(aba, "atraso-limite") == f"{int(limite)} min"
        assert re.fullmatch(r" · há (menos de 1|\d+) min", texto(aba, "idade"))
        aba.avaliar("window.semRecarregar = true")
        aba.avaliar("document.querySelector('.figura-grafico + details').open = true")

        # A new build of the same page: its regions are swapped in place, opened details stay open.
        html = pagina.read_text(encoding="utf-8")
        votos = saida["parcial"]["candidatos"][0]
        antigo = f'data-campo="parcial-{votos["numero"]}-votos" data-valor="{votos["votos"]!r}">'
        assert antigo in html
        novo = html.replace(antigo, f'data-campo="parcial-{votos["numero"]}-votos" data-valor="1">')
        novo = novo.replace('data-hora="17:20"', 'data-hora="17:30"')
        assert novo.count("<figcaption>") == 1  # the chart's region changes too: it is swapped
        novo = novo.replace("<figcaption>", '<figcaption data-nova="sim">')
        novo = novo.replace('data-leitura="2026-10-25T20-20-00Z"', 'data-leitura="2026-10-25T20-30-00Z"')
        publicar_texto(pagina, novo)
        aba.esperar(visivel("nova"))
        assert texto(aba, "nova-hora") == "17:30"
        assert (
            aba.avaliar(
                f"document.querySelector('[data-campo=\"parcial-{votos['numero']}-votos\"]').dataset.valor"
            )
            == "1"
        )
        assert aba.avaliar("document.querySelector('.figura-grafico figcaption').dataset.nova") == "sim"
        assert aba.avaliar("document.querySelector('.figura-grafico + details').open") is True
        assert aba.avaliar("window.semRecarregar") is True  # the same page, not a reload
        assert not aba.avaliar(visivel("recarregar"))

        # A build whose structure changed: one line at the top asks for a reload, nothing is swapped.
        publicar_texto(pagina, novo.replace(f'data-estrutura="{ESTRUTURA}|', 'data-estrutura="outra|'))
        aba.esperar(visivel("recarregar"))
        assert aba.avaliar("window.semRecarregar") is True
        assert aba.erros() == []


def publicar_texto(pagina: Path, html: str) -> None:
    tmp = pagina.with_suffix(".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(pagina)


class ComEtag(SiteHandler):
    """The real site server (ETag on every file, 304 to a matching If-None-Match, as the CDN),
    counting the 304s it sends (`server.nao_modificados`)."""

    server: ServidorComEtag

    def _send(self, answer: Answer) -> None:
        super()._send(answer)
        if answer.status == 304:
            self.server.nao_modificados.release()


class ServidorComEtag(SiteServer):
    nao_modificados: threading.Semaphore


def test_the_race_page_asks_conditionally_and_a_304_changes_nothing(
    site_completo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "public"
    shutil.copytree(site_completo, out)
    pagina = out / CORRIDA.strip("/") / "index.html"
    acelerar(pagina)
    server = ServidorComEtag(("127.0.0.1", 0), functools.partial(ComEtag, directory=str(out)))
    server.nao_modificados = threading.Semaphore(0)
    em_segundo_plano(server)
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        with Navegador() as browser, browser.aba(base + CORRIDA, 390, 844, mobile=True) as aba:
            aba.avaliar("window.semRecarregar = true")
            # The page sends back the ETag it got: two 304s in a row, and nothing on it changes.
            assert server.nao_modificados.acquire(timeout=60) and server.nao_modificados.acquire(timeout=60)
            assert not aba.avaliar(visivel("nova")) and not aba.avaliar(visivel("recarregar"))
            # A new build: a new ETag, a 200, the new reading in place.
            html = pagina.read_text(encoding="utf-8")
            publicar_texto(
                pagina,
                html.replace('data-hora="17:20"', 'data-hora="17:40"', 1).replace(
                    'data-leitura="2026-10-25T20-20-00Z"', 'data-leitura="2026-10-25T20-40-00Z"', 1
                ),
            )
            aba.esperar(visivel("nova"))
            assert texto(aba, "nova-hora") == "17:40"
            assert aba.avaliar("window.semRecarregar") is True
            assert aba.erros() == []
    finally:
        server.shutdown()
        server.server_close()


def test_without_javascript_the_race_page_is_complete_and_quiet(servido: tuple[Path, str]) -> None:
    out, base = servido
    saida = json.loads((out / API).read_bytes())
    with Navegador() as browser, browser.aba(base + CORRIDA, 390, 844, mobile=True, javascript=False) as aba:
        for c in saida["forecast"]["candidatos"]:
            assert texto(aba, f"projecao-{c['numero']}-pct") == br_format.pct(c["pct"])
        for aviso in ("atraso", "atraso-curto", "nova", "recarregar"):
            assert not aba.avaliar(visivel(aviso))
        assert texto(aba, "idade") == ""


# The server's clock during a replayed night (eleicoes demo): months away from the browser's.
NOITE = dt.datetime(2026, 10, 25, 20, 40, tzinfo=dt.UTC)


def test_the_live_debate_scoreboard_updates_itself(projeto_completo: Path, tmp_path: Path) -> None:
    """The page ages its scoreboard on the server's clock (the Date header), not the browser's."""
    projeto = tmp_path / "projeto"
    shutil.copytree(projeto_completo, projeto)
    estado = projeto / "data" / DEBATE / "estado.json"
    estado.write_text(json.dumps({**json.loads(estado.read_bytes()), "encerrado": False}), encoding="utf-8")
    out = tmp_path / "public"
    build_site(projeto, out, strict=True)
    acelerar(out / DEBATE / "index.html")
    server = make_server(out, port=0, clock=lambda: NOITE)
    em_segundo_plano(server)
    try:
        with (
            Navegador() as browser,
            browser.aba(f"http://127.0.0.1:{server.server_address[1]}/{DEBATE}/", 1280, 900) as aba,
        ):
            aba.avaliar("window.semRecarregar = true")
            placar = json.loads((out / DEBATE / "placar.json").read_bytes())
            gravado = dt.datetime.fromisoformat(placar["atualizado_em"])
            assert texto(aba, "atualizado") == br_format.data_hora(gravado, FUSO)  # written by the builder
            nota = next(c["nota"] for c in placar["candidatos"] if c["id"] == "helena-prado")
            assert texto(aba, "placar-helena-prado-nota") == br_format.decimal(nota, 1)
            assert not aba.avaliar(visivel("recarregar"))  # the page already shows this scoreboard

            # The engine has just computed it on the server's clock: the age line moves, no warning
            # (on the browser's clock it would be months old).
            agora = NOITE - dt.timedelta(minutes=1)
            publicar(out, DEBATE + "/placar.json", {**placar, "atualizado_em": agora.isoformat()})
            hora = br_format.data_hora(agora, FUSO)
            aba.esperar(f"document.querySelector('[data-campo=\"atualizado\"]').textContent === '{hora}'")
            assert re.fullmatch(r" · há [12] min", texto(aba, "idade"))
            assert not aba.avaliar(visivel("atraso")) and not aba.avaliar(visivel("recarregar"))

            # New numbers, last changed two hours ago on the server's clock: the page warns the
            # scoreboard has stopped, with the age on that clock.
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
            assert minutos is not None and 120 <= int(minutos[1]) < 130 and atraso == minutos[1] + " min"
            assert texto(aba, "atraso-limite") == f"{ATRASO_DEBATE_MIN} min"
            assert aba.erros() == []
    finally:
        server.shutdown()
        server.server_close()


def test_the_open_home_and_projection_index_swap_in_the_newest_headlines(servido: tuple[Path, str]) -> None:
    """A reader who opened the home page or the races' list and never reloads sees the new build's."""
    out, base = servido
    inicio, indice = out / "index.html", out / "projecao" / "index.html"
    acelerar(inicio)
    acelerar(indice)
    with Navegador() as browser, browser.aba(base + "/projecao/", 1280, 900) as aba:
        aba.avaliar("window.semRecarregar = true")
        html = indice.read_text(encoding="utf-8")
        assert '<ul class="lista-corridas">' in html
        publicar_texto(
            indice, html.replace('<ul class="lista-corridas">', '<ul class="lista-corridas" data-nova="sim">')
        )
        aba.esperar("document.querySelector('.lista-corridas').dataset.nova === 'sim'")
        assert aba.avaliar("window.semRecarregar") is True and not aba.avaliar(visivel("recarregar"))
        assert aba.erros() == []
    with Navegador() as browser, browser.aba(base + "/", 390, 844, mobile=True) as aba:
        aba.avaliar("window.semRecarregar = true")
        html = inicio.read_text(encoding="utf-8")
        antigo = '<strong class="tendencia-inicio">'
        assert html.count(antigo) >= 1 and 'class="cartao-debate"' in html
        novo = html.replace(antigo, '<strong class="tendencia-inicio" data-nova="sim">', 1)
        novo = novo.replace('<div class="cartao-debate">', '<div class="cartao-debate" data-nova="sim">', 1)
        publicar_texto(inicio, novo)
        aba.esperar("document.querySelector('.tendencia-inicio').dataset.nova === 'sim'")
        aba.esperar("document.querySelector('.cartao-debate').dataset.nova === 'sim'")
        assert aba.avaliar("window.semRecarregar") is True  # the same page, not a reload
        assert not aba.avaliar(visivel("recarregar"))
        assert aba.erros() == []
