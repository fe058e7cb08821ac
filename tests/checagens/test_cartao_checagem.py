"""The share image of a check page (issue 23, item 12): claim, verdict and date on a 1200×630 PNG,
linked by og:image, drawn again only when what it shows changes."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from site_builder import share_image
from site_builder.build import build_site
from tests.checagens.conftest import REPO

PAGE = "checagens/afirmacao-um/index.html"
IMAGE = "checagens/afirmacao-um/compartilhar.png"


def test_cores_dos_selos_sao_as_do_estilo() -> None:
    css = (REPO / "templates/static/estilo.css").read_text(encoding="utf-8")
    for codigo, cor in share_image.CORES_VEREDITO.items():
        assert re.search(rf"--{codigo.replace('_', '-')}:\s*{cor};", css), codigo


def test_pagina_de_checagem_tem_imagem_de_compartilhamento(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(site, out, strict=True, workers=1)
    html = (out / PAGE).read_text(encoding="utf-8")
    assert '<meta property="og:image" content="https://' in html
    assert f'/{IMAGE}">' in html
    assert '<meta name="twitter:card" content="summary_large_image">' in html
    assert 'og:image:alt" content="Falso: Uma afirmação verificável. (checagem de' in html
    with Image.open(io.BytesIO((out / IMAGE).read_bytes())) as image:
        assert (image.format, image.size) == ("PNG", (1200, 630))
    again = build_site(site, out, strict=True, workers=1)
    assert IMAGE not in again.renderizados  # unchanged card: not drawn again
    check = site / "content/checagens/um.md"
    check.write_text(
        check.read_text(encoding="utf-8").replace(
            "\n+++\n",
            '\n[[correcoes]]\ndata = 2026-10-12T10:00:00-03:00\nexplicacao = "Nova fonte."\n+++\n',
            1,
        ),
        encoding="utf-8",
    )
    assert IMAGE in build_site(site, out, strict=True, workers=1).renderizados  # "atualizada em" on it


def test_cartao_mostra_demonstracao_e_cabe_afirmacao_longa() -> None:
    cartao = share_image.CartaoChecagem(
        "Site",
        "Checagem · afirmação de A (P)",
        "palavra " * 30,
        "falso",
        "Falso",
        "Publicada em 1",
        "x",
        True,
    )
    with Image.open(io.BytesIO(share_image.render_checagem_png(cartao))) as image:
        assert image.size == (1200, 630)
        assert image.getpixel((5, 100)) == (255, 244, 206)  # the demonstration band (--aviso-fundo)
