"""Collectors: a YouTube-style Atom feed and an RSS feed served on loopback."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from jobs.checagens.coletores import coletar, ler_feed
from jobs.checagens.configuracao import Coletor, ConfigChecagens
from tests.redes.conftest import pagina
from tests.support.paginas import ServidorPaginas

ATOM = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/"
      xmlns="http://www.w3.org/2005/Atom">
 <title>Canal de demonstração</title>
 {entradas}
</feed>"""
ENTRADA = """<entry>
  <id>yt:video:{id}</id><yt:videoId>{id}</yt:videoId>
  <title>Vídeo {id}</title><link rel="alternate" href="{url}"/>
  <published>2026-10-18T12:00:00+00:00</published>
  <media:group><media:community><media:statistics views="{views}"/></media:community></media:group>
 </entry>"""


def _feed(servidor: ServidorPaginas, ids: list[str]) -> str:
    entradas = "".join(
        ENTRADA.format(id=i, url=servidor.url(f"/watch/{i}"), views=1000 * (n + 1)) for n, i in enumerate(ids)
    )
    return servidor.rota("/feed.xml", ATOM.format(entradas=entradas), tipo="application/atom+xml")


def test_atom_feed_is_collected_once(projeto: Path, servidor: ServidorPaginas) -> None:
    for i in ("v1", "v2"):
        servidor.rota(f"/watch/{i}", pagina(f"Em 2025 o estado contratou {i[-1]}00 médicos para o SUS."))
    config = ConfigChecagens(
        transcrever_videos=False, coletores=(Coletor("helena-prado", _feed(servidor, ["v1", "v2"])),)
    )
    agora = dt.datetime(2026, 10, 20, 10, 0, tzinfo=dt.UTC)
    primeiro = coletar(config, projeto, agora=agora)
    assert primeiro.erros == [] and len(primeiro.capturas) == 2
    pastas = sorted((projeto / "data" / "redes" / "helena-prado").iterdir())
    manifestos = [json.loads((p / "captura.json").read_text(encoding="utf-8")) for p in pastas]
    assert sorted(m["alcance"] for m in manifestos) == [1000, 2000], "views from media:statistics"
    assert {m["origem"] for m in manifestos} == {"coletor"}

    _feed(servidor, ["v3", "v1", "v2"])
    servidor.rota("/watch/v3", pagina("A vacina da gripe chegou a 90% dos idosos em 2025."))
    segundo = coletar(config, projeto, agora=agora + dt.timedelta(hours=1))
    assert (len(segundo.capturas), segundo.ja_vistas) == (1, 2)
    estado = json.loads((projeto / "data" / "redes" / "coletas.json").read_text(encoding="utf-8"))
    assert estado[servidor.url("/feed.xml")]["vistos"] == ["v1", "v2", "v3"]


def test_failed_entry_is_retried_next_time(projeto: Path, servidor: ServidorPaginas) -> None:
    config = ConfigChecagens(
        transcrever_videos=False, coletores=(Coletor("rui-amaral", _feed(servidor, ["x1"])),)
    )
    resultado = coletar(config, projeto)
    assert resultado.capturas == [] and "HTTP 404" in resultado.erros[0]
    servidor.rota("/watch/x1", pagina("A cidade registrou 312 homicídios em 2024."))
    assert len(coletar(config, projeto).capturas) == 1


def test_bad_feeds_are_reported_not_raised(projeto: Path, servidor: ServidorPaginas) -> None:
    quebrado = servidor.rota("/quebrado.xml", "<feed><entry>", tipo="application/xml")
    html = servidor.rota("/pagina", "<html><body>não é feed</body></html>")
    bomba = servidor.rota(
        "/bomba.xml",
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
        f"<rss><channel><item><title>&b;</title><link>{servidor.url('/sumiu')}</link></item></channel></rss>",
        tipo="application/rss+xml",
    )
    coletores = tuple(Coletor("helena-prado", u) for u in (quebrado, html, bomba, servidor.url("/nada.xml")))
    resultado = coletar(ConfigChecagens(transcrever_videos=False, coletores=coletores), projeto)
    assert resultado.capturas == []
    assert len(resultado.erros) == 4
    assert "XML inválido" in resultado.erros[0]
    assert "não é RSS nem Atom" in resultado.erros[1]
    assert resultado.erros[2].startswith(servidor.url("/sumiu")) and "HTTP 404" in resultado.erros[2]
    assert "HTTP 404" in resultado.erros[3]


def test_rss_and_entities_are_not_expanded() -> None:
    rss = (
        b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
        b"<rss><channel><item><title>&e;</title><link>https://redes.example/p/1</link>"
        b"<guid>p1</guid></item><item><link>javascript:alert(1)</link></item></channel></rss>"
    )
    [entrada] = ler_feed(rss)
    assert (entrada.id, entrada.url) == ("p1", "https://redes.example/p/1")
    assert "root" not in entrada.titulo
    with pytest.raises(ValueError, match="RSS nem Atom"):
        ler_feed(b"<html/>")


def test_project_entry_point_reports_bad_configuration(projeto: Path) -> None:
    from jobs.checagens.coletores import coletar_do_projeto

    assert coletar_do_projeto(projeto).resumo().startswith("0 captura(s)")
    (projeto / "eleicoes.toml").write_text("[checagens]\ntempo_limite_s = -1\n", encoding="utf-8")
    resultado = coletar_do_projeto(projeto)
    assert "configuração inválida" in resultado.erros[0]
