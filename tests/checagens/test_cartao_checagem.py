"""The share image of a check page (issue 23, item 12): claim, verdict and date on a 1200×630 PNG,
linked by og:image, drawn again only when what it shows changes."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from site_builder import share_image
from site_builder.build import build_site
from tests.checagens.conftest import REPO
from tests.support.cartao import TOLERANCIA, desenho_do_pillow, diferenca, escuro, rgb

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
    image = rgb(share_image.render_checagem_png(cartao))
    assert image.size == (1200, 630)
    assert image.getpixel((5, 100)) == (255, 244, 206)  # the demonstration band (--aviso-fundo)


CARTAO = share_image.CartaoChecagem(
    marca="Eleições 2026",
    autoria="Checagem · afirmação de Helena Prado (PRD)",
    afirmacao="Curta e grossa.",
    veredito="falso",
    rotulo="Falso",
    datas="Publicada em 10 de outubro de 2026",
    rodape="https://exemplo.org/checagens/um/",
)


def _cartao(**mudancas: object) -> Image.Image:
    return rgb(share_image.render_checagem_png(dataclasses.replace(CARTAO, **mudancas)))  # type: ignore[arg-type]


def test_o_mesmo_cartao_da_os_mesmos_bytes_sem_metadados() -> None:
    png = share_image.render_checagem_png(CARTAO)
    assert share_image.render_checagem_png(dataclasses.replace(CARTAO)) == png
    assert share_image.render_checagem_png(dataclasses.replace(CARTAO, afirmacao="Outra.")) != png
    with Image.open(io.BytesIO(png)) as image:
        assert (image.format, image.size, image.info) == ("PNG", (1200, 630), {})


def test_cartao_mostra_a_afirmacao_como_o_pillow_a_desenha() -> None:
    """The claim's line is Pillow's own full-colour drawing of it (bold, 52 px, below the
    author), within the rounding of the card's palette."""
    y = 110 + 48
    caixa = (0, y, share_image.LARGURA, 300)  # down to above the verdict's seal
    fonte = share_image._font("negrito", 52)
    linha = f"“{CARTAO.afirmacao}”"
    pillow = desenho_do_pillow(
        (share_image.MARGEM, y), linha, share_image.TEXTO, fonte, "lt", share_image.FUNDO
    )
    assert escuro(pillow, caixa) < 60  # there is text to compare
    assert diferenca(_cartao(), pillow, caixa) <= TOLERANCIA
    assert diferenca(_cartao(afirmacao="Curta e fina."), pillow, caixa) > 100  # another claim does not pass


def test_cartao_de_demonstracao_tem_a_faixa_e_o_de_checagem_real_nao() -> None:
    caixa = (0, 84, share_image.LARGURA, 132)
    fonte = share_image._font("negrito", 28)
    aviso = share_image.AVISO_CHECAGEM
    pillow = desenho_do_pillow(
        (share_image.MARGEM, 108), aviso, share_image.TEXTO, fonte, "lm", share_image.AVISO
    )
    assert escuro(pillow, caixa) < 60
    assert diferenca(_cartao(demonstracao=True), pillow, caixa) <= TOLERANCIA
    assert _cartao().getpixel((5, 100)) == (255, 255, 255)


@pytest.mark.parametrize("veredito", sorted(share_image.CORES_VEREDITO))
def test_selo_tem_a_cor_do_veredito(veredito: str) -> None:
    selo = (share_image.MARGEM + 4, share_image.ALTURA - 190 + 4)  # inside its rounded corner
    cor = share_image.CORES_VEREDITO[veredito]
    assert _cartao(veredito=veredito).getpixel(selo) == tuple(int(cor[i : i + 2], 16) for i in (1, 3, 5))


def _palavra_por_palavra(texto: str, fonte: ImageFont.FreeTypeFont, largura: int) -> list[str]:
    """The line breaking the card had before it halved: one measurement per word."""
    draw = ImageDraw.Draw(Image.new("L", (1, 1)))
    linhas: list[str] = []
    atual = ""
    for palavra in texto.split():
        tentativa = f"{atual} {palavra}".strip()
        if atual and draw.textlength(tentativa, font=fonte) > largura:
            linhas.append(atual)
            atual = palavra
        else:
            atual = tentativa
    return [*linhas, atual] if atual else linhas


PALAVRAS = [
    "a",
    "água",
    "de",
    "rede",
    "80",
    "cidades,",
    "Wolfgang",
    "LTDA",
    "“sim”",
    "superextraordinariamente",
]


@settings(max_examples=150)
@given(
    palavras=st.lists(st.sampled_from(PALAVRAS), max_size=40),
    tamanho=st.sampled_from([28, 40, 52]),
    largura=st.integers(80, 1080),
)
def test_quebra_de_linhas_e_a_de_uma_palavra_por_vez(palavras: list[str], tamanho: int, largura: int) -> None:
    fonte = share_image._font("negrito", tamanho)
    draw = ImageDraw.Draw(Image.new("L", (1, 1)))
    texto = " ".join(palavras)
    assert share_image._linhas(draw, texto, fonte, largura) == _palavra_por_palavra(texto, fonte, largura)


def test_cartao_de_cores_demais_para_uma_paleta_e_recusado() -> None:
    tela = share_image._Tela(share_image.FUNDO, share_image.TEXTO, share_image.SUAVE)
    with pytest.raises(ValueError, match="256 cores"):
        for azul in range(256):
            tela.fundo(f"#0000{azul:02x}")


@settings(max_examples=80, deadline=None)
@given(
    texto=st.text(alphabet="aeiouçãéõ AMW0123456789·()“”,.-\n", min_size=0, max_size=40),
    peso=st.sampled_from(sorted(share_image.FONTS)),
    tamanho=st.integers(16, 64),
    anchor=st.sampled_from(["lt", "lm", "ls", "rm", "la", "mm"]),
    x=st.integers(-20, 1180),
    y=st.integers(-20, 620),
)
def test_texto_repetido_desenha_os_pixels_do_pillow(
    texto: str, peso: str, tamanho: int, anchor: str, x: int, y: int
) -> None:
    """A text drawn from its memoized glyph mask (`repetido`: authors, verdicts, dates) gives the
    pixels of Pillow's `ImageDraw.text`, the first time and from the memo, at any place."""
    fonte = share_image._font(peso, tamanho)
    if "\n" in texto and anchor[1] in "tb":
        return  # Pillow refuses such an anchor for several lines; cards draw one line each
    telas = [share_image._Tela(share_image.FUNDO, share_image.TEXTO) for _ in range(2)]
    for tela, repetido in zip(telas, (False, True), strict=True):
        for onde in ((x, y), (y, x)):  # the second time from the memo
            tela.texto(onde, texto, share_image.TEXTO, fonte, anchor, sobre=tela.papel, repetido=repetido)
    assert telas[1].imagem.tobytes() == telas[0].imagem.tobytes()
