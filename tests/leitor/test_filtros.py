"""The checks list filters by candidate, verdict and theme without JavaScript: each filter is a
pre-built page linked from the list, holding exactly the published checks that match."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from site_builder.conteudo import regras
from site_builder.conteudo.registros import Fonte


def publicadas(projeto: Path) -> dict[str, dict[str, object]]:
    """slug -> front matter of every published check of the project."""
    checks = {}
    for arquivo in sorted((projeto / "content" / "checagens").glob("*.md")):
        meta = tomllib.loads(arquivo.read_text(encoding="utf-8").split("+++")[1])
        if meta["status"] == "publicada":
            checks[str(meta.get("slug") or arquivo.stem)] = meta
    return checks


def listadas(html: str) -> set[str]:
    lista = html.split('<ul class="lista-checagens">', 1)[1].split("</ul>", 1)[0]
    return set(re.findall(r'href="/checagens/([^/"]+)/"', lista))


def test_each_filter_is_a_page_with_exactly_its_checks(projeto_completo: Path, site_completo: Path) -> None:
    checks = publicadas(projeto_completo)
    indice = (site_completo / "checagens" / "index.html").read_text(encoding="utf-8")
    filtros = indice.split('<nav class="filtros"', 1)[1].split("</nav>", 1)[0]
    links = re.findall(r'href="(/[^"]+)"', filtros)
    temas = {str(m["tema"]) for m in checks.values() if m.get("tema")}
    vereditos = {str(m["veredito"]) for m in checks.values()}
    assert {f"/checagens/tema/{t}/" for t in temas} <= set(links)
    assert {f"/checagens/veredito/{v.replace('_', '-')}/" for v in vereditos} <= set(links)
    for link in links:
        pagina = (site_completo / link.strip("/") / "index.html").read_text(encoding="utf-8")
        if link.startswith("/checagens/tema/"):
            campo, valor = "tema", link.split("/")[3]
        elif link.startswith("/checagens/veredito/"):
            campo, valor = "veredito", link.split("/")[3].replace("-", "_")
        else:
            assert link.startswith("/candidatos/")
            campo, valor = "candidato", link.split("/")[2]
        esperadas = {slug for slug, meta in checks.items() if meta.get(campo) == valor}
        assert esperadas and listadas(pagina) == esperadas, link
        if campo != "candidato":  # a candidate's page is their own listing; the others mark the filter
            assert 'aria-current="page"' in pagina.split('<nav class="filtros"', 1)[1], link


def test_an_unknown_theme_is_refused_in_portuguese() -> None:
    texto = (Path(__file__).parents[2] / "content" / "checagens" / "demo-helena-leitos.md").read_text(
        encoding="utf-8"
    )
    lida = regras.ler_checagem(
        texto.replace('tema = "saude"', 'tema = "esportes"'), Fonte("c.md", "0" * 64), None, None
    )
    assert [p.campo for p in lida.problemas] == ["tema"]
    assert "'esportes' não existe" in str(lida.problemas[0])
