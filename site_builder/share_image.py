"""Share images (issue 17): the 1200×630 PNG that social networks show for a projection or debate
page, with its headline numbers, drawn at build time with Pillow and a typeface shipped as a wheel.

The same card always gives the same bytes (no time stamp, no metadata), so an unchanged image is not
uploaded again; new numbers give a new image.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from functools import cache
from importlib import metadata, resources
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from site_builder.artifact import Artifact, raw
from site_builder.reader import fingerprint

FILE_NAME = "compartilhar.png"  # beside the page it illustrates
LARGURA, ALTURA = 1200, 630
FONT_PACKAGE = "font_source_sans_pro"
FONTS = {"regular": "SourceSansPro-Regular.ttf", "negrito": "SourceSansPro-Bold.ttf"}
# Colours of the site's stylesheet (templates/static/estilo.css): --topo, --texto, --suave, --aviso-fundo.
TOPO, TEXTO, SUAVE, AVISO, FUNDO, CLARO = "#102a43", "#1a1a1a", "#555555", "#fff4ce", "#ffffff", "#ffffff"
MARGEM = 60


@dataclass(frozen=True)
class Linha:
    """One candidate on the card: name, the number shown big, a smaller note, the candidate's colour."""

    nome: str
    valor: str
    nota: str
    cor: str


@dataclass(frozen=True)
class Cartao:
    """Everything a share image shows."""

    marca: str  # the site's name
    titulo: str
    destaque: str  # one sentence under the title (trend, headline)
    linhas: tuple[Linha, ...]
    rodape: str
    demonstracao: bool = False


@cache
def _font(peso: str, tamanho: int) -> ImageFont.FreeTypeFont:
    path = resources.files(FONT_PACKAGE) / "files" / FONTS[peso]
    with resources.as_file(path) as real:
        return ImageFont.truetype(str(real), tamanho)


@cache
def renderer_version() -> str:
    """What else decides the bytes besides the card: this code, Pillow's version and the typeface's."""
    code = Path(__file__).read_bytes()
    versions = f"{metadata.version('pillow')}|{metadata.version('font-source-sans-pro')}"
    return hashlib.sha256(code + versions.encode()).hexdigest()


def _fit(
    draw: ImageDraw.ImageDraw, text: str, peso: str, tamanho: int, largura: int
) -> ImageFont.FreeTypeFont:
    """The largest size up to `tamanho` at which `text` fits in `largura` pixels."""
    while tamanho > 16 and draw.textlength(text, font=_font(peso, tamanho)) > largura:
        tamanho -= 2
    return _font(peso, tamanho)


def render_png(cartao: Cartao) -> bytes:
    """The card as a 1200×630 PNG."""
    image = Image.new("RGB", (LARGURA, ALTURA), FUNDO)
    draw = ImageDraw.Draw(image)
    util = LARGURA - 2 * MARGEM
    draw.rectangle((0, 0, LARGURA, 84), fill=TOPO)
    draw.text(
        (MARGEM, 42),
        cartao.marca,
        fill=CLARO,
        font=_fit(draw, cartao.marca, "negrito", 36, util),
        anchor="lm",
    )
    y = 110
    if cartao.demonstracao:
        draw.rectangle((0, 84, LARGURA, 132), fill=AVISO)
        aviso = "Demonstração: dados simulados, candidatos fictícios"
        draw.text((MARGEM, 108), aviso, fill=TEXTO, font=_font("negrito", 28), anchor="lm")
        y = 150
    draw.text(
        (MARGEM, y),
        cartao.titulo,
        fill=TEXTO,
        font=_fit(draw, cartao.titulo, "negrito", 52, util),
        anchor="lt",
    )
    y += 70
    draw.text(
        (MARGEM, y),
        cartao.destaque,
        fill=TEXTO,
        font=_fit(draw, cartao.destaque, "regular", 36, util),
        anchor="lt",
    )
    y += 62
    espaco = (ALTURA - 70 - y) // max(1, len(cartao.linhas))
    altura_linha = min(100, espaco)
    for linha in cartao.linhas:
        meio = y + altura_linha // 2
        draw.rectangle((MARGEM, meio - 28, MARGEM + 16, meio + 28), fill=linha.cor)
        valor = _font("negrito", min(64, altura_linha - 20))
        largura_valor = int(draw.textlength(linha.valor, font=valor))
        draw.text((LARGURA - MARGEM, meio), linha.valor, fill=TEXTO, font=valor, anchor="rm")
        nome_largura = util - largura_valor - 60
        draw.text(
            (MARGEM + 36, meio - 4),
            linha.nome,
            fill=TEXTO,
            font=_fit(draw, linha.nome, "negrito", 44, nome_largura),
            anchor="ls",
        )
        draw.text(
            (MARGEM + 36, meio + 4),
            linha.nota,
            fill=SUAVE,
            font=_fit(draw, linha.nota, "regular", 28, nome_largura),
            anchor="lt",
        )
        y += altura_linha
    draw.line((MARGEM, ALTURA - 62, LARGURA - MARGEM, ALTURA - 62), fill="#c8ccd2", width=2)
    draw.text(
        (MARGEM, ALTURA - 32),
        cartao.rodape,
        fill=SUAVE,
        font=_fit(draw, cartao.rodape, "regular", 26, util),
        anchor="lm",
    )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)  # no metadata: the same card, the same bytes
    return out.getvalue()


def artifact(url: str, cartao: Cartao) -> Artifact:
    """The image at `url`, drawn again only when what it shows (or how it is drawn) changes."""
    return raw(url.lstrip("/"), fingerprint(repr(cartao), renderer_version()), lambda: render_png(cartao))
