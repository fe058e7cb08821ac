"""The site's internal addresses as `validar` knows them without building the site (issue 23,
item 12): a check body's root-relative link must name a page the build will publish.

Checked: the sections, the lists, candidates, methodology pages, the pages of published checks
(status `publicada`, approved and without problems: a check under review has no page yet), the
verdict and theme filters that have checks, the archived copies of published checks and their
readable pages. The projection and debate pages come from `data/` as the jobs write it during the
night: links under them are left to the build, whose error also names the `.md` file and line.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from site_builder.conteudo import links_internos, publicado, regras
from site_builder.conteudo.registros import Checagem
from site_builder.copia_arquivada import url_da_pagina
from site_builder.links import target_of
from site_builder.pages import CANDIDATES_URL, CORRECTIONS_URL, FEED_PATH, NAV, _theme_url, _verdict_url

PREFIXOS_DE_DADOS = ("/projecao/", "/debates/")  # pages made from data/ during the night
FIXOS = ("/404.html", "/sitemap.xml", "/robots.txt", FEED_PATH, "/" + publicado.SAIDA)


def paginas(raiz: Path, publicadas: Iterable[Checagem], candidatos: Iterable[str]) -> set[str]:
    """Output paths (`checagens/x/index.html`, `arquivo/y.warc.gz`) of the pages a body may link to."""
    publicadas = list(publicadas)
    urls = {item.url for item in NAV} | {CANDIDATES_URL, CORRECTIONS_URL, *FIXOS}
    urls |= {f"/candidatos/{c}/" for c in candidatos}
    urls |= {c.url for c in publicadas}
    urls |= {_verdict_url(c.veredito) for c in publicadas}
    urls |= {_theme_url(c.tema) for c in publicadas if c.tema}
    metodologia = raiz / "content" / "metodologia"
    if metodologia.is_dir():
        urls |= {f"/metodologia/{p.stem}/" for p in metodologia.glob("*.md")}
    for c in publicadas:
        for o in c.ocorrencias:
            if o.arquivo and (raiz / o.arquivo).is_file():
                saida = "arquivo/" + o.arquivo.removeprefix(regras.PASTA_COPIAS)
                urls |= {"/" + saida, url_da_pagina(saida)}
    return {target_of(url) for url in urls}


def quebrados(rel: str, texto: str, links: Iterable[str], saidas: set[str]) -> list[regras.Problema]:
    """A problem, at its line, for each internal link of the check `rel` (text `texto`) that names
    no page of `saidas`."""
    problemas = []
    for link in links_internos.internos(links):
        if link.startswith(PREFIXOS_DE_DADOS) or link in PREFIXOS_DE_DADOS:
            continue
        alvo = target_of(link)
        if alvo in saidas or f"{alvo}/index.html" in saidas:
            continue
        linha = links_internos.linha_no_arquivo(texto, link) or regras.LINHA_DO_INICIO
        problemas.append(regras.Problema(rel, str(linha), links_internos.mensagem(link)))
    return problemas
