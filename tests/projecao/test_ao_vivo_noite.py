"""Issue 21: a race page opened once, early in a replayed night, follows every reading in place.

Real parts end to end: the TSE replay server steps through a synthetic runoff night (admin endpoint
`POST /_replay/avancar`, a missing São Paulo file injected for one step with `POST /_replay/falhas`),
the polling cycle stores each snapshot and runs the model, the site builder rebuilds the served
folder, the project's static server serves it (its `Date` header on the night's clock, as the demo
serves it) and headless chromium (390×844) keeps the page open, never reloaded. After each reading
the test waits (a condition, not a clock) until the page shows that reading, then compares every
figure with that reading's `saida.json`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import shutil
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from jobs.serve import make_server
from jobs.tse.config import config_tse
from jobs.tse.cycle import PollState, run_cycle
from jobs.tse.replay import make_server as replay_server
from jobs.tse.synthetic import make_synthetic_night
from site_builder.build import build_site
from tests.projecao.conftest import FIXTURE_CONTENT, METHOD_PAGE
from tests.projecao.noite import REPO
from tests.support.navegador import CHROMIUM, Aba, Navegador
from tests.support.servidor import em_segundo_plano

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium (pacote Debian) não está instalado")
LEVELS = (0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0)
FAULT_STEP = 3  # this reading misses São Paulo's file: not publishable, between publishable ones
PAGE = "/projecao/6258-presidente/"
RACE = Path("data") / "tse" / "6258" / "presidente"


def project(root: Path) -> Path:
    """Fixture content, the real templates, a page poll of 1 s (site setting)."""
    site = root / "raiz"
    shutil.copytree(FIXTURE_CONTENT, site / "content")
    shutil.copy2(REPO / "content" / "candidatos" / "helena-prado.toml", site / "content" / "candidatos")
    (site / "content" / "metodologia" / "projecao.md").write_text(METHOD_PAGE, encoding="utf-8")
    with (site / "content" / "site.toml").open("a", encoding="utf-8") as f:
        f.write("intervalo_ao_vivo_s = 1\n")
    shutil.copytree(REPO / "templates", site / "templates")
    (site / RACE.parent).mkdir(parents=True)
    return site


@contextlib.contextmanager
def serve_on(folder: Path, clock: Callable[[], dt.datetime]) -> Iterator[str]:
    # The site server with its `Date` header on the replayed night's clock (the browser's is today).
    server = make_server(folder, port=0, clock=clock)
    em_segundo_plano(server)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def admin(base: str, path: str, body: dict[str, Any] | None = None) -> None:
    data = json.dumps(body).encode() if body is not None else b""
    request = urllib.request.Request(base + path, data=data, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200


def shown(aba: Aba) -> dict[str, str]:
    """data-campo -> data-valor of every number on the open page, plus the reading it shows."""
    values: dict[str, str] = aba.avaliar(
        "Object.fromEntries([...document.querySelectorAll('[data-campo][data-valor]')]"
        ".map((el) => [el.dataset.campo, el.dataset.valor]))"
    )
    return values


def check_reading(aba: Aba, saida: dict[str, Any], last_publishable: dict[str, Any] | None) -> None:
    values = shown(aba)
    assert values["apurado"] == repr(saida["apurado_pct"])
    for cand in saida["parcial"]["candidatos"]:
        assert values[f"parcial-{cand['numero']}-pct"] == repr(cand["pct"])
        assert values[f"parcial-{cand['numero']}-votos"] == repr(cand["votos"])
    forecast = saida["forecast"]
    if saida["publicavel"]:
        for cand in forecast["candidatos"]:
            n = cand["numero"]
            assert values[f"projecao-{n}-pct"] == repr(cand["pct"])
            assert values[f"projecao-{n}-min"] == repr(cand["intervalo"][0])
            assert values[f"projecao-{n}-max"] == repr(cand["intervalo"][1])
            assert values[f"resumo-{n}-pct"] == repr(cand["pct"])
        trend = forecast["tendencia"]
        expected = str(trend) if isinstance(trend, int) else "indefinido"
        assert values["projecao-tendencia"] == values["resumo-veredito"] == expected
        assert ("projecao-definido" in values) == bool(forecast["definido_matematicamente"])
        assert not aba.avaliar("!!document.querySelector('[data-bloco=\"nao-publicada\"]')")
        return
    assert aba.avaliar("!!document.querySelector('[data-bloco=\"nao-publicada\"]')")
    assert not [k for k in values if k.startswith("projecao-")]
    criteria = aba.avaliar(
        "document.querySelector('[data-bloco=\"nao-publicada\"] .criterios').children.length"
    )
    assert criteria == len(saida["criterios_nao_atendidos"]) > 0
    if last_publishable is None:
        assert values["resumo-veredito"] == "nao-publicavel"
        return
    for cand in last_publishable["forecast"]["candidatos"]:  # what readers knew stays, labelled
        assert values[f"anterior-{cand['numero']}-pct"] == repr(cand["pct"])
        assert values[f"resumo-{cand['numero']}-pct"] == repr(cand["pct"])
    assert aba.avaliar("document.querySelector('[data-campo=\"resumo-rotulo\"]').textContent").startswith(
        "Última projeção publicável, "
    )


def test_an_open_page_follows_every_reading_of_the_night(tmp_path: Path) -> None:
    site = project(tmp_path)
    night = tmp_path / "noite"
    make_synthetic_night(night, dt.datetime(2026, 10, 25, 20, 30, tzinfo=dt.UTC), LEVELS, 10.0)
    replay = replay_server(night)
    replay.iniciar()
    public = site / "public"
    try:
        raw = {
            "url_base": replay.url_base,
            "relogio": "servidor",
            "git": False,
            "requisicoes_por_segundo": 50,
            "rajada": 40,
            "corridas": [{"cargo": "presidente", "eleicao": "6258", "nivel": "uf"}],
        }
        config = config_tse(raw, site)
        state = PollState.criar(config)
        assert run_cycle(config, state).alterado
        build_site(site, public)
        seen: list[dict[str, Any]] = []
        last_publishable: dict[str, Any] | None = None
        with (
            serve_on(public, replay.estado.agora) as base,
            Navegador() as browser,
            browser.aba(base + PAGE, 390, 844, True) as aba,
        ):
            aba.avaliar("window.semRecarregar = true")
            for step in range(len(LEVELS)):
                if step:
                    admin(replay.url_base, "/_replay/avancar")
                    if step in (FAULT_STEP, FAULT_STEP + 1):  # one step with São Paulo missing, then none
                        body = {"ausente": ["sp-c0001-e006258-u"]} if step == FAULT_STEP else {}
                        admin(replay.url_base, "/_replay/falhas", body)
                    assert run_cycle(config, state).alterado
                    build_site(site, public)
                name = (site / RACE / "latest").read_text(encoding="utf-8").strip()
                saida = json.loads((site / RACE / name / "saida.json").read_bytes())
                aba.esperar(
                    f"document.querySelector('[data-campo=\"atualizado\"]').dataset.leitura === '{name}'"
                )
                check_reading(aba, saida, last_publishable)
                # "now" is the server's clock: a fresh publishable reading is never "atrasada"
                # (the browser's clock is a month past this night)
                aba.esperar("document.querySelector('[data-campo=\"idade\"]').textContent !== ''")
                if saida["publicavel"]:
                    assert aba.avaliar("document.querySelector('[data-aviso=\"atraso\"]').hidden")
                    assert aba.avaliar("document.querySelector('[data-aviso=\"atraso-curto\"]').hidden")
                if step:
                    assert aba.avaliar("!document.querySelector('[data-aviso=\"nova\"]').hidden")
                assert aba.avaliar("document.querySelector('[data-aviso=\"recarregar\"]').hidden")
                assert aba.avaliar("window.semRecarregar") is True  # the same page, never reloaded
                seen.append(saida)
                if saida["publicavel"]:
                    last_publishable = saida
            assert aba.erros() == []
            # The night's last reading shows a projection (its own or the last publishable one,
            # labelled) or "definido matematicamente".
            final = shown(aba)
            assert (
                any(k.startswith("resumo-") and k.endswith("-pct") for k in final)
                or "resumo-definido" in final
            )
    finally:
        replay.parar()
    publishable = [s["publicavel"] for s in seen]
    assert publishable[0] is False and publishable[FAULT_STEP] is False and publishable[FAULT_STEP - 1]
    assert any(publishable[FAULT_STEP + 1 :])  # publishable again after the fault
    trends = [s["forecast"]["tendencia"] for s in seen if s["publicavel"]]
    assert "indefinido" in trends or None in trends  # before the leader is named ...
    assert any(isinstance(t, int) for t in trends)  # ... and after
