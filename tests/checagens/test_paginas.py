"""The desk's pages built from the repository's sample content: one ClaimReview per check page,
read back with extruct and compared field by field with the check files; candidate counts,
corrections, contest links, occurrences with their archived copies, the Atom feed."""

from __future__ import annotations

import datetime as dt
import re
import tomllib
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import extruct
import pytest
from warcio.archiveiterator import ArchiveIterator

from jobs.checagens.validar import ler_editores
from site_builder.build import build_site
from site_builder.conteudo import regras
from site_builder.conteudo.registros import Candidato, Checagem, Fonte
from site_builder.conteudo.vereditos import VEREDITOS

ATOM = "{http://www.w3.org/2005/Atom}"


def _iso(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


@pytest.fixture(scope="module")
def construido(site_do_repositorio: Path) -> Path:
    out = site_do_repositorio.parent / "public"
    build_site(site_do_repositorio, out, strict=True)
    return out


@pytest.fixture(scope="module")
def checagens(site_do_repositorio: Path) -> list[Checagem]:
    """Every check of the sample content, read with the desk's rules (independently of the pages)."""
    lidas = []
    editores, problemas = ler_editores(site_do_repositorio)
    assert problemas == []
    for path in sorted((site_do_repositorio / "content/checagens").glob("*.md")):
        rel = path.relative_to(site_do_repositorio).as_posix()
        texto = path.read_text(encoding="utf-8")
        lida = regras.ler_checagem(texto, Fonte(rel, ""), editores, dt.datetime.now(dt.UTC))
        assert lida.problemas == () and lida.aprovacao == (), lida.problemas
        assert lida.checagem is not None
        lidas.append(lida.checagem)
    return lidas


@pytest.fixture(scope="module")
def publicadas(checagens: list[Checagem]) -> list[Checagem]:
    return [c for c in checagens if c.status == "publicada"]


@pytest.fixture(scope="module")
def candidatos(site_do_repositorio: Path) -> dict[str, Candidato]:
    found = {}
    for path in sorted((site_do_repositorio / "content/candidatos").glob("*.toml")):
        lido = regras.ler_candidato(path.read_text(encoding="utf-8"), Fonte(path.name, ""))
        assert lido.candidato is not None and lido.problemas == ()
        found[lido.candidato.id] = lido.candidato
    return found


@pytest.fixture(scope="module")
def site_toml(site_do_repositorio: Path) -> dict[str, str]:
    return tomllib.loads((site_do_repositorio / "content/site.toml").read_text(encoding="utf-8"))


def _jsonld(html: str, url: str) -> list[dict[str, Any]]:
    items = extruct.extract(html, base_url=url, syntaxes=["json-ld"], uniform=True)["json-ld"]
    flat: list[dict[str, Any]] = []
    for item in items:
        flat += item.get("@graph", [item])
    return flat


def test_conteudo_de_exemplo_cobre_o_que_a_redacao_faz(
    checagens: list[Checagem], publicadas: list[Checagem], candidatos: dict[str, Candidato]
) -> None:
    assert len(publicadas) >= 30
    assert set(Counter(c.veredito for c in publicadas)) == set(VEREDITOS)
    assert sum(len(c.ocorrencias) > 1 for c in publicadas) >= 5  # claims repeated in several posts
    assert sum(bool(c.correcoes) for c in publicadas) >= 3
    assert any(
        e.tipo == "contestacao" and e.resultado == "corrigida" for c in publicadas for e in c.historico
    )
    assert any(e.tipo == "contestacao" and e.resultado == "mantida" for c in publicadas for e in c.historico)
    devolvidas_e_aprovadas = [
        c
        for c in publicadas
        if [e.tipo for e in c.historico][:4] == ["enviada", "devolvida", "enviada", "aprovada"]
    ]
    assert len(devolvidas_e_aprovadas) >= 3
    assert {c.status for c in checagens} == {"rascunho", "em_revisao", "publicada"}
    # Fictional candidates only, and every check marked as demonstration.
    assert len(candidatos) >= 3 and all(c.demonstracao for c in candidatos.values())
    assert all(c.demonstracao for c in checagens)
    assert all(urlsplit(o.url).hostname.endswith(".example") for c in checagens for o in c.ocorrencias)  # type: ignore[union-attr]


def test_uma_claimreview_por_pagina_de_checagem(
    construido: Path, publicadas: list[Checagem], candidatos: dict[str, Candidato], site_toml: dict[str, str]
) -> None:
    base = site_toml["url_base"].rstrip("/")
    for check in publicadas:
        page_url = base + check.url
        html = (construido / check.url.strip("/") / "index.html").read_text(encoding="utf-8")
        items = _jsonld(html, page_url)
        reviews = [i for i in items if i.get("@type") == "ClaimReview"]
        assert len(reviews) == 1, check.url
        review = reviews[0]
        assert review["@context"] in ("https://schema.org", "http://schema.org")
        assert review["claimReviewed"] == check.afirmacao
        assert review["url"] == page_url
        assert urlsplit(str(review["url"])).netloc == urlsplit(base).netloc
        assert check.publicado_em is not None
        assert _iso(str(review["datePublished"])) == check.publicado_em
        assert review["author"] == {
            "@type": "Organization",
            "name": site_toml["organizacao"],
            "url": base + "/",
        } | ({"correctionsPolicy": base + "/metodologia/correcoes-e-imparcialidade/"})
        veredito = VEREDITOS[check.veredito]
        assert review["reviewRating"] == {
            "@type": "Rating",
            "ratingValue": veredito.nota_claimreview,
            "bestRating": 5,
            "worstRating": 1,
            "alternateName": veredito.rotulo,
        }
        claim = review["itemReviewed"]
        assert isinstance(claim, dict) and claim["@type"] == "Claim"
        candidato = candidatos[check.candidato]
        assert claim["author"] == {
            "@type": "Person",
            "name": candidato.nome,
            "sameAs": list(candidato.perfis),
        }
        assert _iso(claim["datePublished"]) == min(o.data for o in check.ocorrencias)
        appearances = claim["appearance"]
        assert [a["url"] for a in appearances] == [o.url for o in check.ocorrencias]
        for appearance, ocorrencia in zip(appearances, check.ocorrencias, strict=True):
            assert _iso(appearance["datePublished"]) == ocorrencia.data
            copia = ocorrencia.arquivo.removeprefix("data/redes/")
            assert appearance["archivedAt"] == f"{base}/arquivo/{copia}"
        if check.correcoes:
            assert _iso(str(review["dateModified"])) == check.correcoes[-1].data
            assert [c["text"] for c in review["correction"]] == [c.explicacao for c in check.correcoes]
            assert "Atualizada em" in html and 'id="correcoes"' in html
        else:
            assert "dateModified" not in review and "Atualizada em" not in html
        # What the markup says is on the page too (Google: no mismatch between markup and page).
        assert f"<h1>{check.afirmacao}</h1>" in html.replace("&#34;", '"')
        assert f'selo-{check.veredito}">{veredito.rotulo}<' in html
        assert "Conteúdo de demonstração." in html


def test_nenhuma_pagina_tem_duas_claimreviews(construido: Path, publicadas: list[Checagem]) -> None:
    check_pages = {c.url.strip("/") + "/index.html" for c in publicadas}
    pages = sorted(construido.rglob("*.html"))
    assert len(pages) > len(check_pages)
    for page in pages:
        rel = page.relative_to(construido).as_posix()
        html = page.read_text(encoding="utf-8")
        reviews = [i for i in _jsonld(html, "https://x.example/") if i.get("@type") == "ClaimReview"]
        assert len(reviews) == (1 if rel in check_pages else 0), rel
        assert html.count('"@type": "ClaimReview"') == len(reviews), rel


def test_ocorrencias_com_original_e_copia_arquivada(
    construido: Path, publicadas: list[Checagem], site_do_repositorio: Path
) -> None:
    for check in publicadas:
        html = (construido / check.url.strip("/") / "index.html").read_text(encoding="utf-8")
        for ocorrencia in check.ocorrencias:
            assert f'<a href="{ocorrencia.url}" rel="nofollow">publicação original</a>' in html
            copia = "/arquivo/" + ocorrencia.arquivo.removeprefix("data/redes/")
            legivel = copia.removesuffix(".warc.gz") + "/"  # the readable page; the WARC beside it
            assert f'<a href="{legivel}">cópia arquivada</a> (<a href="{copia}">WARC</a>)' in html
            assert (construido / legivel.strip("/") / "index.html").is_file()
            published = construido / copia.lstrip("/")
            assert published.read_bytes() == (site_do_repositorio / ocorrencia.arquivo).read_bytes()
            with published.open("rb") as stream:
                uris = [r.rec_headers.get_header("WARC-Target-URI") for r in ArchiveIterator(stream)]
            assert ocorrencia.url in uris


def test_link_de_contestacao(construido: Path, publicadas: list[Checagem], site_toml: dict[str, str]) -> None:
    for check in publicadas:
        html = (construido / check.url.strip("/") / "index.html").read_text(encoding="utf-8")
        links = re.findall(r'href="(mailto:[^"]+)">Escreva para a redação', html)
        assert len(links) == 1, check.url
        parts = urlsplit(links[0].replace("&amp;", "&"))
        assert parts.path == site_toml["email_checagens"]
        query = parse_qs(parts.query)
        assert query["subject"] == [f"Contestação da checagem {check.id}"]
        assert site_toml["url_base"] + check.url in query["body"][0]


def test_pagina_do_candidato_conta_sem_dar_nota(
    construido: Path, publicadas: list[Checagem], candidatos: dict[str, Candidato]
) -> None:
    for candidato in candidatos.values():
        html = (construido / "candidatos" / candidato.id / "index.html").read_text(encoding="utf-8")
        mine = [c for c in publicadas if c.candidato == candidato.id]
        counts = Counter(c.veredito for c in mine)
        for codigo, veredito in VEREDITOS.items():
            n = counts[codigo]
            noun = "checagem" if n == 1 else "checagens"
            assert f'selo-{codigo}">{veredito.rotulo}</span> {n} {noun}</li>' in html, (candidato.id, codigo)
        assert f"{len(mine)} checagens publicadas sobre o que {candidato.nome} disse" in html
        # Seed, "Imparcialidade": the count is not a scoreboard nor a grade.
        assert "O número não serve para comparar candidatos" in html
        assert "%" not in html.split('id="h-contagem"')[1].split("</section>")[0]
        for check in mine:
            assert f'href="{check.url}"' in html
        assert "Conteúdo de demonstração." in html
    index = (construido / "candidatos/index.html").read_text(encoding="utf-8")
    assert all(f'href="/candidatos/{c}/"' in index for c in candidatos)


def test_pagina_de_correcoes_lista_todas(construido: Path, publicadas: list[Checagem]) -> None:
    html = (construido / "checagens/correcoes/index.html").read_text(encoding="utf-8")
    todas = [(c, correcao) for c in publicadas for correcao in c.correcoes]
    assert len(todas) >= 4
    lista = html.split('<ol class="lista-correcoes">')[1].split("</ol>")[0]
    assert lista.count("<li>") == len(todas)
    for check, correcao in todas:
        assert correcao.explicacao.replace("'", "&#39;").replace('"', "&#34;") in html
        assert f'href="{check.url}"' in html
    datas = re.findall(r'<li>\s*<time datetime="([^"]+)"', lista)
    assert datas == sorted(datas, reverse=True)


def test_rascunho_e_em_revisao_ficam_fora(construido: Path, checagens: list[Checagem]) -> None:
    for check in checagens:
        if check.status != "publicada":
            assert not (construido / check.url.strip("/")).exists()
            assert all(
                check.afirmacao not in p.read_text(encoding="utf-8", errors="replace")
                for p in construido.rglob("*.html")
            )


def test_feed_atom_com_atualizacoes(construido: Path, publicadas: list[Checagem]) -> None:
    feed = ET.parse(construido / "checagens/feed.xml").getroot()
    entries = feed.findall(f"{ATOM}entry")
    by_url = {c.url: c for c in publicadas}
    assert len(entries) == min(len(publicadas), 50)
    updated = []
    for entry in entries:
        url = urlsplit(entry.findtext(f"{ATOM}id") or "").path
        check = by_url[unquote(url)]
        published, modified = (
            _iso(entry.findtext(f"{ATOM}published") or ""),
            _iso(entry.findtext(f"{ATOM}updated") or ""),
        )
        assert published == check.publicado_em
        assert modified == (check.correcoes[-1].data if check.correcoes else check.publicado_em)
        updated.append(modified)
    assert _iso(feed.findtext(f"{ATOM}updated") or "") == max(updated)


def test_conteudo_de_exemplo_passa_no_validar(
    site_do_repositorio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from eleicoes import main

    assert main(["checagens", "validar", "--raiz", str(site_do_repositorio)]) == 0
    assert capsys.readouterr().out == ""


def test_nomes_das_pessoas_vem_do_registro(
    site_do_repositorio: Path, construido: Path, publicadas: list[Checagem]
) -> None:
    editores, _ = ler_editores(site_do_repositorio)
    for c in publicadas:
        html = (construido / c.url.lstrip("/") / "index.html").read_text(encoding="utf-8")
        autor, revisor = editores.nome(c.autor), editores.nome(c.revisor)
        assert f"Escrita por {autor}. Revisada e aprovada por {revisor}," in html, c.slug
        assert c.autor not in html.replace(c.slug, ""), c.slug  # the id is never shown
