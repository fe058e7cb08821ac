"""A readable page per archived copy (issue 23, item 12): the captured text as plain text (the
captured markup never executed), the capture's date, the file's SHA-256 and the WARC link."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from site_builder.build import build_site
from site_builder.copia_arquivada import ler_captura

COPIA = "data/redes/teste/post-1.warc.gz"
HOSTIL = (
    b"<html><head><title>Post</title><script>alert('cabecalho')</script></head><body>"
    b"<p>Abrimos 300 leitos &amp; mais.</p><script>document.write('x')</script>"
    b"<style>p{}</style><p><img src=x onerror=alert(1)>Fim &lt;b&gt;</p></body></html>"
)


def warc(path: Path, corpo: bytes, tipo: str = "text/html; charset=utf-8") -> None:
    with path.open("wb") as saida:
        escritor = WARCWriter(saida, gzip=True, warc_version="WARC/1.1")
        cabecalhos = StatusAndHeaders("200 OK", [("Content-Type", tipo)], protocol="HTTP/1.1")
        escritor.write_record(
            escritor.create_warc_record(
                "https://redes.example.org/ana.teste/posts/1",
                "response",
                payload=io.BytesIO(corpo),
                http_headers=cabecalhos,
                warc_headers_dict={"WARC-Date": "2026-10-08T22:31:00Z"},
            )
        )


def test_texto_capturado_sem_codigo(tmp_path: Path) -> None:
    warc(tmp_path / "c.warc.gz", HOSTIL)
    captura = ler_captura(str(tmp_path / "c.warc.gz"))
    assert captura.problema == ""
    assert captura.titulo == "Post"
    assert captura.paragrafos == ("Abrimos 300 leitos & mais.", "Fim <b>")
    assert captura.endereco == "https://redes.example.org/ana.teste/posts/1"
    assert captura.data is not None and captura.data.isoformat() == "2026-10-08T22:31:00+00:00"


def test_copia_ilegivel_ou_nao_textual_nao_quebra(tmp_path: Path) -> None:
    (tmp_path / "ruim.warc.gz").write_bytes(b"\x1f\x8b isto nao e um warc")
    assert "não pôde ser lido" in ler_captura(str(tmp_path / "ruim.warc.gz")).problema
    warc(tmp_path / "video.warc.gz", b"\x00\x00 binario", "video/mp4")
    assert "video/mp4" in ler_captura(str(tmp_path / "video.warc.gz")).problema


def test_pagina_da_copia_no_site(site: Path, tmp_path: Path) -> None:
    warc(site / COPIA, HOSTIL)
    out = tmp_path / "public"
    build_site(site, out, strict=True, workers=1)
    check = (out / "checagens/afirmacao-um/index.html").read_text(encoding="utf-8")
    assert '<a href="/arquivo/teste/post-1/">cópia arquivada</a>' in check
    assert '<a href="/arquivo/teste/post-1.warc.gz">WARC</a>' in check
    page = (out / "arquivo/teste/post-1/index.html").read_text(encoding="utf-8")
    assert "<p>Abrimos 300 leitos &amp; mais.</p>" in page
    assert "Fim &lt;b&gt;" in page
    assert "alert" not in page and "onerror" not in page and "document.write" not in page
    assert hashlib.sha256((site / COPIA).read_bytes()).hexdigest() in page
    assert 'href="/arquivo/teste/post-1.warc.gz"' in page
    assert 'datetime="2026-10-08T22:31:00Z"' in page
