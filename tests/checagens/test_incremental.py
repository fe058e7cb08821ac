"""Incremental builds of the desk's pages: an edit re-renders exactly the pages that show it."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from jobs.checagens.ocorrencias_toml import acrescentar_ocorrencia_arquivo
from site_builder.build import build_site
from site_builder.conteudo.registros import Ocorrencia

CHECK = "content/checagens/um.md"


def _edit(root: Path, old: str, new: str) -> None:
    path = root / CHECK
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_explicacao_editada_so_renderiza_a_pagina(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(site, out, strict=True)
    # Re-wrapped, not changed (a change of text after publication needs a correction): the page
    # and the record of what was published (it names the file's checksum) are all that change.
    _edit(site, "Explicação da checagem.", "Explicação\nda checagem.")
    report = build_site(site, out, strict=True)
    assert sorted(report.renderizados) == ["checagens/afirmacao-um/index.html", "checagens/publicadas.json"]


def test_correcao_atualiza_listas_feed_e_candidato(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(site, out, strict=True)
    _edit(
        site,
        "\n+++\n",
        '\n[[correcoes]]\ndata = 2026-10-20T10:00:00-03:00\nexplicacao = "Nova fonte."\n+++\n',
    )
    report = build_site(site, out, strict=True)
    assert sorted(report.renderizados) == [
        "candidatos/ana-teste/index.html",
        "checagens/afirmacao-um/compartilhar.png",  # its share image says "atualizada em"
        "checagens/afirmacao-um/index.html",
        "checagens/correcoes/index.html",
        "checagens/feed.xml",
        "checagens/index.html",
        "checagens/publicadas.json",  # the record of what the site published
        # the filter page that lists the check; no filter's count changed: not the others
        "checagens/veredito/falso/index.html",
        "index.html",
        "sitemap.xml",  # the check's lastmod is its correction
    ]
    assert "Nova fonte." in (out / "checagens/correcoes/index.html").read_text(encoding="utf-8")


def test_nova_ocorrencia_so_renderiza_a_pagina(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(site, out, strict=True)
    shutil.copy(site / "data/redes/teste/post-1.warc.gz", site / "data/redes/teste/post-2.warc.gz")
    nova = Ocorrencia(
        "https://redes.example.org/ana.teste/posts/77",
        "facebook",
        dt.datetime(2026, 10, 21, 8, 0, tzinfo=dt.UTC),
        "data/redes/teste/post-2.warc.gz",
        None,
    )
    assert acrescentar_ocorrencia_arquivo(site / CHECK, nova)
    report = build_site(site, out, strict=True)
    assert sorted(report.renderizados) == [
        "arquivo/teste/post-2.warc.gz",
        "arquivo/teste/post-2/index.html",  # its readable page
        "checagens/afirmacao-um/index.html",
        "checagens/publicadas.json",
    ]
    html = (out / "checagens/afirmacao-um/index.html").read_text(encoding="utf-8")
    assert 'href="https://redes.example.org/ana.teste/posts/77"' in html
    assert '<a href="/arquivo/teste/post-2/">cópia arquivada</a>' in html


def test_copia_que_aparece_depois_ganha_link(site: Path, tmp_path: Path) -> None:
    """The fixture's second check names a copy that is missing; once it arrives, its link does."""
    out = tmp_path / "public"
    build_site(site, out, strict=True)
    page = out / "checagens/afirmacao-corrigida/index.html"
    assert "/arquivo/teste/nao-existe.warc.gz" not in page.read_text(encoding="utf-8")
    shutil.copy(site / "data/redes/teste/post-1.warc.gz", site / "data/redes/teste/nao-existe.warc.gz")
    report = build_site(site, out, strict=True)
    assert sorted(report.renderizados) == [
        "arquivo/teste/nao-existe.warc.gz",
        "arquivo/teste/nao-existe/index.html",
        "checagens/afirmacao-corrigida/index.html",
    ]
    assert "/arquivo/teste/nao-existe.warc.gz" in page.read_text(encoding="utf-8")
