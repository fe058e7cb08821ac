"""Share images (issue 17): the 1200×630 PNG that social networks show for a projection or debate
page, with its headline numbers, drawn at build time with Pillow and a typeface shipped as a wheel.

The same card always gives the same bytes (no time stamp, no metadata), so an unchanged image is not
uploaded again; new numbers give a new image.

Cards are drawn on a palette canvas (`_Tela`) and written as an indexed-colour PNG by this module
itself (`indexed_png`, with zlib-ng): one byte per pixel and no row filter to choose make the
encoding several times cheaper than a full-colour PNG, which was most of a card's cost, and zlib-ng
encodes those rows in about half the time Pillow's encoder took, to a smaller file
(benchmarks/cartao_checagem_bench.py, docs/PERFORMANCE.md).
"""

from __future__ import annotations

import copy
import hashlib
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import metadata, resources
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PIL import Image, ImageColor, ImageDraw, ImageFont
from zlib_ng import zlib_ng

from site_builder.artifact import Artifact, raw
from site_builder.reader import fingerprint

C = TypeVar("C")  # what an image shows (`Cartao`, `CartaoChecagem`)

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

FILE_NAME = "compartilhar.png"  # beside the page it illustrates
LARGURA, ALTURA = 1200, 630
FONT_PACKAGE = "font_source_sans_pro"
FONTS = {"regular": "SourceSansPro-Regular.ttf", "negrito": "SourceSansPro-Bold.ttf"}
# Colours of the site's stylesheet (templates/static/estilo.css): --topo, --texto, --suave, --aviso-fundo.
TOPO, TEXTO, SUAVE, AVISO, FUNDO, CLARO = "#102a43", "#1a1a1a", "#555555", "#fff4ce", "#ffffff", "#ffffff"
FILETE = "#c8ccd2"  # the rule above the footer
MARGEM = 60
# The band across a demonstration's card, below the site's name.
AVISO_PROJECAO = "Demonstração: dados simulados, candidatos fictícios"
AVISO_CHECAGEM = "Demonstração: checagem de candidato fictício"
# Anti-aliasing levels of a text colour over a background (`_Tela`): the 256 levels of the glyphs'
# coverage rounded to these keep each pixel within 3/255 of a full-colour drawing, and a check
# card's five such pairs (48 + 1 colours each, two sharing the white) and its solid rule and seal
# still fit the 256 colours of a PNG palette.
NIVEIS = 48


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
    """What else decides the bytes besides the card: this code and the versions of Pillow (the
    drawing), of the typeface and of zlib-ng (the compressed pixels)."""
    code = Path(__file__).read_bytes()
    packages = ("pillow", "font-source-sans-pro", "zlib-ng")
    versions = "|".join(metadata.version(package) for package in packages)
    return hashlib.sha256(code + versions.encode()).hexdigest()


def _fit(
    draw: ImageDraw.ImageDraw, text: str, peso: str, tamanho: int, largura: int
) -> ImageFont.FreeTypeFont:
    """The largest size up to `tamanho` at which `text` fits in `largura` pixels."""
    while tamanho > 16 and draw.textlength(text, font=_font(peso, tamanho)) > largura:
        tamanho -= 2
    return _font(peso, tamanho)


Cor = tuple[int, int, int]


def _div255(valor: int) -> int:
    """`valor` / 255, rounded as Pillow does when it blends text into an image."""
    valor += 128
    return (valor + (valor >> 8)) >> 8


@cache
def _niveis(sobre: str, tinta: str) -> tuple[Cor, ...]:
    """`tinta` over `sobre` at each of the `NIVEIS` + 1 coverage levels, from none to full."""
    fundo, cor = ImageColor.getrgb(sobre)[:3], ImageColor.getrgb(tinta)[:3]
    niveis = []
    for nivel in range(NIVEIS + 1):
        alfa = round(nivel * 255 / NIVEIS)
        r, g, b = (_div255(f * (255 - alfa) + t * alfa) for f, t in zip(fundo, cor, strict=True))
        niveis.append((r, g, b))
    return tuple(niveis)


@lru_cache(maxsize=64)  # a few dozen authors, verdicts and dates at a time: at most ~3 MB of masks
def _mascara(
    fonte: ImageFont.FreeTypeFont, texto: str, anchor: str, tinta: int
) -> tuple[ImagingCore, tuple[int, int]]:
    """The glyph mask of a one-line `texto` and its offset from the anchor, as `ImageDraw.text`
    asks the font for it (`_Tela.texto`)."""
    return fonte.getmask2(texto, "L", anchor=anchor, ink=tinta)


class _Tela:
    """A 1200×630 canvas of palette indices (an "L" image) and the colours they stand for.

    Each background colour comes with the ramps of the text colours drawn over it, contiguous in
    the palette: [ink₁ full, …, ink₁ faint, background, ink₂ faint, …, ink₂ full], `NIVEIS` steps
    each. Pillow then draws a text with its ink's index as it would draw grey on grey, blending the
    index of the background with the index of the ink by the glyphs' coverage, which lands on
    the colour of that coverage rounded to a step: anti-aliased text on a one-byte-per-pixel image
    at the cost of drawing it in grey."""

    def __init__(self, fundo: str, *tintas: str) -> None:
        self.cores: list[Cor] = []
        self.fundos: dict[tuple[str, tuple[str, ...]], int] = {}
        self.tintas: dict[tuple[int, str], int] = {}  # (background's index, ink): the ink's full index
        self.papel = self.fundo(fundo, *tintas)  # what the canvas is filled with
        self.imagem = Image.new("L", (LARGURA, ALTURA), self.papel)
        self.draw = ImageDraw.Draw(self.imagem)

    def copia(self) -> _Tela:
        """A canvas to draw on showing what this one shows, this one left as it is."""
        outra = copy.copy(self)
        outra.cores, outra.fundos, outra.tintas = list(self.cores), dict(self.fundos), dict(self.tintas)
        outra.imagem = self.imagem.copy()
        outra.draw = ImageDraw.Draw(outra.imagem)
        return outra

    def fundo(self, cor: str, *tintas: str) -> int:
        """The palette index to fill a shape of colour `cor` with, over which texts of up to two
        colours `tintas` can be drawn (`texto`)."""
        if len(tintas) > 2:
            raise ValueError("um fundo do cartão leva texto de no máximo duas cores")
        if (cor, tintas) not in self.fundos:
            descendo = _niveis(cor, tintas[0])[::-1] if tintas else ()
            subindo = _niveis(cor, tintas[1])[1:] if len(tintas) > 1 else ()
            inicio = len(self.cores)
            self.cores += [*descendo, *subindo] if tintas else [ImageColor.getrgb(cor)[:3]]
            if len(self.cores) > 256:
                raise ValueError("cartão com mais de 256 cores: não cabe numa paleta PNG")
            indice = inicio + (NIVEIS if tintas else 0)
            self.fundos[cor, tintas] = indice
            for tinta, sentido in zip(tintas, (-1, 1), strict=False):
                self.tintas[indice, tinta] = indice + sentido * NIVEIS
        return self.fundos[cor, tintas]

    def texto(
        self,
        xy: tuple[int, int],
        texto: str,
        tinta: str,
        fonte: ImageFont.FreeTypeFont,
        anchor: str,
        sobre: int,
        repetido: bool = False,
    ) -> None:
        """`texto` in `tinta` at `xy` (Pillow's `anchor`), over pixels all of index `sobre` (`fundo`).
        A `repetido` text, one that many cards show alike (a verdict, an author, a date), is
        rasterized once (`_mascara`) and only blended into each card."""
        tinta_indice = self.tintas[sobre, tinta]
        if repetido and "\n" not in texto:
            mascara, (dx, dy) = _mascara(fonte, texto, anchor, tinta_indice)
            # What `ImageDraw.text` does with a one-line text at whole-pixel coordinates (its
            # glyph mask, blended at the mask's offset), the mask drawn once (tests/checagens).
            self.draw.draw.draw_bitmap((xy[0] + dx, xy[1] + dy), mascara, tinta_indice)
        else:
            self.draw.text(xy, texto, fill=tinta_indice, font=fonte, anchor=anchor)

    def png(self, compressao: int) -> bytes:
        """The canvas as an indexed-colour PNG at zlib level `compressao` (`indexed_png`)."""
        return indexed_png(self.imagem, self.cores, compressao)


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Rows per band handed to the compressor (`indexed_png`): 38 KB of a 1200-pixel-wide card.
_FAIXA = 32


def _chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: length, type, data and the CRC-32 of type and data."""
    crc = zlib_ng.crc32(data, zlib_ng.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def indexed_png(indices: Image.Image, palette: Sequence[Cor], level: int) -> bytes:
    """`indices` (an "L" image whose pixels are indices into `palette`) as an indexed-colour PNG:
    8 bits per pixel, a PLTE of exactly `palette`, one IDAT of every row with filter 0 (none)
    compressed by zlib-ng at `level` (0-9), and no metadata chunk, so that the same pixels and
    palette always give the same bytes (with the same zlib-ng: `renderer_version`)."""
    if indices.mode != "L":
        raise ValueError(f"imagem de índices no modo {indices.mode}, não L")
    if not 1 <= len(palette) <= 256:
        raise ValueError(f"paleta PNG de {len(palette)} cores: deve ter de 1 a 256")
    width, height = indices.size
    # Pillow's raw encoder pads each row to the stride with zeros: a zero, then the rows each
    # followed by a zero less the last one, are the rows each behind its filter byte 0, in one
    # copy of the pixels instead of a slice per row (0.06 ms a card here instead of 0.24 ms).
    # The rows go to zlib-ng a band at a time: a copy of the whole image (757 KB) is a buffer the
    # allocator maps afresh for every card, page by page (about 320 page faults a card, a quarter
    # of its time), where a band's fits in memory it reuses. From zlib-ng's level 2 up the stream
    # does not depend on how its input is split (the cards' bytes are those of one call over
    # every row); levels 0 and 1 end a block where a call's input ends.
    compressor = zlib_ng.compressobj(level)
    parts = [compressor.compress(b"\0")]
    for top in range(0, height, _FAIXA):
        band = indices.crop((0, top, width, min(height, top + _FAIXA))).tobytes("raw", "L", width + 1)
        parts.append(compressor.compress(band if top + _FAIXA < height else memoryview(band)[:-1]))
    parts.append(compressor.flush())
    idat = b"".join(parts)
    return b"".join(
        [
            _PNG_SIGNATURE,
            # 8 bits, colour type 3 (palette), compression, filter and interlace methods 0
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", b"".join(bytes(colour) for colour in palette)),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        ]
    )


@lru_cache(maxsize=8)
def _moldura(marca: str, aviso: str | None) -> _Tela:
    """What every card of a site shows around its content, drawn once and copied for each card:
    the top band with the site's name, the demonstration band (`aviso`, if any) and the footer's rule."""
    tela = _Tela(FUNDO, TEXTO, SUAVE)
    topo = tela.fundo(TOPO, CLARO)
    tela.draw.rectangle((0, 0, LARGURA, 84), fill=topo)
    fonte = _fit(tela.draw, marca, "negrito", 36, LARGURA - 2 * MARGEM)
    tela.texto((MARGEM, 42), marca, CLARO, fonte, "lm", sobre=topo)
    if aviso is not None:
        faixa = tela.fundo(AVISO, TEXTO)
        tela.draw.rectangle((0, 84, LARGURA, 132), fill=faixa)
        tela.texto((MARGEM, 108), aviso, TEXTO, _font("negrito", 28), "lm", sobre=faixa)
    linha = ALTURA - 62
    tela.draw.line((MARGEM, linha, LARGURA - MARGEM, linha), fill=tela.fundo(FILETE), width=2)
    return tela


def _rodape(tela: _Tela, rodape: str) -> None:
    fonte = _fit(tela.draw, rodape, "regular", 26, LARGURA - 2 * MARGEM)
    tela.texto((MARGEM, ALTURA - 32), rodape, SUAVE, fonte, "lm", sobre=tela.papel)


# The zlib level of every card (`indexed_png`): one card per check, and the projection's cards are
# drawn again at every reading of the night, so encoding time counts, but zlib-ng's level 1 saves only
# 0.2-0.4 ms of a check card's 3.3 ms over level 2 for a quarter more bytes (44 KiB against 33 KiB,
# and Pillow's level 1 had 39 KiB), measured by benchmarks/cartao_checagem_bench.py.
COMPRESSAO_PNG = 2


def render_png(cartao: Cartao) -> bytes:
    """The card as a 1200×630 PNG."""
    aviso = AVISO_PROJECAO if cartao.demonstracao else None
    tela = _moldura(cartao.marca, aviso).copia()
    draw = tela.draw
    util = LARGURA - 2 * MARGEM
    y = 150 if cartao.demonstracao else 110
    titulo = _fit(draw, cartao.titulo, "negrito", 52, util)
    tela.texto((MARGEM, y), cartao.titulo, TEXTO, titulo, "lt", sobre=tela.papel)
    y += 70
    destaque = _fit(draw, cartao.destaque, "regular", 36, util)
    tela.texto((MARGEM, y), cartao.destaque, TEXTO, destaque, "lt", sobre=tela.papel)
    y += 62
    espaco = (ALTURA - 70 - y) // max(1, len(cartao.linhas))
    altura_linha = min(100, espaco)
    for linha in cartao.linhas:
        meio = y + altura_linha // 2
        draw.rectangle((MARGEM, meio - 28, MARGEM + 16, meio + 28), fill=tela.fundo(linha.cor))
        valor = _font("negrito", min(64, altura_linha - 20))
        largura_valor = int(draw.textlength(linha.valor, font=valor))
        tela.texto((LARGURA - MARGEM, meio), linha.valor, TEXTO, valor, "rm", sobre=tela.papel)
        nome_largura = util - largura_valor - 60
        nome = _fit(draw, linha.nome, "negrito", 44, nome_largura)
        tela.texto((MARGEM + 36, meio - 4), linha.nome, TEXTO, nome, "ls", sobre=tela.papel)
        nota = _fit(draw, linha.nota, "regular", 28, nome_largura)
        tela.texto((MARGEM + 36, meio + 4), linha.nota, SUAVE, nota, "lt", sobre=tela.papel)
        y += altura_linha
    _rodape(tela, cartao.rodape)
    return tela.png(COMPRESSAO_PNG)


def _image_artifact(url: str, entradas: str, cartao: Callable[[], C], draw: Callable[[C], bytes]) -> Artifact:
    """The image at `url` showing `cartao()`, drawn by `draw`. `entradas` is the text of the
    site's inputs the card is made from (a check's `listing_key`): with the site-wide ones (the
    builder's code, the settings) and this renderer it makes the output's key, so the card is made
    only when one of them changes; drawn again only when what it shows or how it is drawn changes
    (its key in the builder's image cache, `Artifact.guardar`). The card is made twice when it is drawn: a
    memo for each of 10,000 checks at every build would cost more."""
    return raw(
        url.lstrip("/"),
        f"{renderer_version()}\n{entradas}",  # hashed into the output's key
        lambda: draw(cartao()),
        guardar=lambda: fingerprint(repr(cartao()), renderer_version()),
    )


def artifact(url: str, cartao: Cartao) -> Artifact:
    """A projection or debate card at `url` (`_image_artifact`; a few per site, made every build)."""
    return _image_artifact(url, repr(cartao), lambda: cartao, render_png)


# The verdict seals' colours of the stylesheet (--verdadeiro ... --sem-dados), white text on each.
CORES_VEREDITO = {
    "verdadeiro": "#1b6e3a",
    "impreciso": "#7a4f00",
    "enganoso": "#a33b00",
    "falso": "#b00020",
    "sem_dados": "#4a4a4a",
}
MAX_LINHAS_AFIRMACAO = 4


@dataclass(frozen=True)
class CartaoChecagem:
    """What a fact-check's share image shows: who said it, the claim, the verdict and the dates."""

    marca: str
    autoria: str  # "Afirmação de Helena Prado (PRD)"
    afirmacao: str
    veredito: str  # the verdict's code (its colour)
    rotulo: str  # the verdict as readers see it
    datas: str  # "Publicada em 10 de outubro de 2026 · atualizada em ..."
    rodape: str
    demonstracao: bool = False


def _linhas(draw: ImageDraw.ImageDraw, texto: str, fonte: ImageFont.FreeTypeFont, largura: int) -> list[str]:
    """`texto` broken into lines of at most `largura` pixels at spaces, each line as many words as
    fit (a word wider than `largura` alone on its line)."""
    palavras, linhas, inicio = texto.split(), [], 0
    while inicio < len(palavras):
        # A line widens with each word, so the most that fit are found by halving: a few
        # measurements per line instead of one per word.
        cabem, nao_cabem = inicio + 1, len(palavras) + 1
        while nao_cabem - cabem > 1:
            meio = (cabem + nao_cabem) // 2
            if draw.textlength(" ".join(palavras[inicio:meio]), font=fonte) <= largura:
                cabem = meio
            else:
                nao_cabem = meio
        linhas.append(" ".join(palavras[inicio:cabem]))
        inicio = cabem
    return linhas


def _afirmacao(
    draw: ImageDraw.ImageDraw, texto: str, largura: int
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest size at which the quoted claim fits in `MAX_LINHAS_AFIRMACAO` lines."""
    tamanho = 52
    while True:
        fonte = _font("negrito", tamanho)
        linhas = _linhas(draw, f"“{texto}”", fonte, largura)
        if len(linhas) <= MAX_LINHAS_AFIRMACAO or tamanho <= 28:
            return fonte, linhas[:MAX_LINHAS_AFIRMACAO]
        tamanho -= 4


def render_checagem_png(cartao: CartaoChecagem, compressao: int = COMPRESSAO_PNG) -> bytes:
    """A fact-check's card as a 1200×630 PNG: the claim, its verdict seal and its dates
    (`compressao`: the zlib level, 0-9)."""
    aviso = AVISO_CHECAGEM if cartao.demonstracao else None
    tela = _moldura(cartao.marca, aviso).copia()
    draw = tela.draw
    util = LARGURA - 2 * MARGEM
    y = 150 if cartao.demonstracao else 110
    autoria = _fit(draw, cartao.autoria, "regular", 30, util)
    tela.texto((MARGEM, y), cartao.autoria, SUAVE, autoria, "lt", sobre=tela.papel, repetido=True)
    y += 48
    fonte, linhas = _afirmacao(draw, cartao.afirmacao, util)
    altura_linha = int(fonte.size * 1.2)
    for linha in linhas:
        tela.texto((MARGEM, y), linha, TEXTO, fonte, "lt", sobre=tela.papel)
        y += altura_linha
    y = max(y + 16, ALTURA - 190)
    selo = _font("negrito", 44)
    largura_selo = int(draw.textlength(cartao.rotulo, font=selo)) + 48
    fundo_selo = tela.fundo(CORES_VEREDITO.get(cartao.veredito, TOPO), CLARO)
    draw.rounded_rectangle((MARGEM, y, MARGEM + largura_selo, y + 68), radius=8, fill=fundo_selo)
    tela.texto((MARGEM + 24, y + 34), cartao.rotulo, CLARO, selo, "lm", sobre=fundo_selo, repetido=True)
    datas = _fit(draw, cartao.datas, "regular", 28, util - largura_selo - 30)
    onde = (MARGEM + largura_selo + 30, y + 34)
    tela.texto(onde, cartao.datas, SUAVE, datas, "lm", sobre=tela.papel, repetido=True)
    _rodape(tela, cartao.rodape)
    return tela.png(compressao)


def artifact_checagem(url: str, entradas: str, cartao: Callable[[], CartaoChecagem]) -> Artifact:
    """A check's card at `url` (`_image_artifact`), at the site's zlib level."""
    return _image_artifact(url, entradas, cartao, lambda c: render_checagem_png(c, COMPRESSAO_PNG))
