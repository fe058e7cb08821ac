"""Share cards against Pillow's own full-colour drawing: what a card shows, within its palette's rounding."""

from __future__ import annotations

import io
from typing import cast

from PIL import Image, ImageChops, ImageDraw, ImageFont

from site_builder import share_image

# A card's pixel may differ from Pillow's RGB drawing by half a coverage level, plus rounding.
TOLERANCIA = 255 / (2 * share_image.NIVEIS) + 1


def rgb(png: bytes) -> Image.Image:
    """A PNG's pixels in full colour."""
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def desenho_do_pillow(
    xy: tuple[int, int], texto: str, tinta: str, fonte: ImageFont.FreeTypeFont, anchor: str, fundo: str
) -> Image.Image:
    """`texto` as Pillow draws it on a full-colour 1200×630 image all of colour `fundo`."""
    image = Image.new("RGB", (share_image.LARGURA, share_image.ALTURA), fundo)
    ImageDraw.Draw(image).text(xy, texto, fill=tinta, font=fonte, anchor=anchor)
    return image


def diferenca(a: Image.Image, b: Image.Image, caixa: tuple[int, int, int, int]) -> int:
    """The largest difference of one channel of one pixel of `a` and `b` inside `caixa`."""
    extremos = ImageChops.difference(a.crop(caixa), b.crop(caixa)).getextrema()
    return max(int(alto) for _, alto in cast(tuple[tuple[int, int], ...], extremos))


def escuro(image: Image.Image, caixa: tuple[int, int, int, int]) -> int:
    """The darkest grey inside `caixa` (text drawn there makes it low)."""
    baixo, _ = cast(tuple[int, int], image.crop(caixa).convert("L").getextrema())
    return baixo
