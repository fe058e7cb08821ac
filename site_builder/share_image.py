"""Share images (issue 17): the 1200×630 PNG that social networks show for a projection or debate
page, with its headline numbers, drawn at build time with Pillow and a typeface shipped as a wheel.

The same card always gives the same bytes (no time stamp, no metadata), so an unchanged image is not
uploaded again; new numbers give a new image.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
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


def _image_artifact(url: str, cartao: object, draw: Callable[[], bytes]) -> Artifact:
    """The image at `url` drawn by `draw`, drawn again only when what it shows (`cartao`) or how
    it is drawn changes; kept in the builder's image cache (`Artifact.guardar`)."""
    return raw(url.lstrip("/"), fingerprint(repr(cartao), renderer_version()), draw, guardar=True)


def artifact(url: str, cartao: Cartao) -> Artifact:
    """The projection's card at `url` (`_image_artifact`)."""
    return _image_artifact(url, cartao, lambda: render_png(cartao))


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
    """`texto` broken into lines of at most `largura` pixels, at spaces."""
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


# zlib's fastest level: one card per check, so encoding time counts more than a few KiB
# (both measured by benchmarks/cartao_checagem_bench.py, in docs/PERFORMANCE.md).
COMPRESSAO_CHECAGEM = 1


def render_checagem_png(cartao: CartaoChecagem, compressao: int = COMPRESSAO_CHECAGEM) -> bytes:
    """A fact-check's card as a 1200×630 PNG: the claim, its verdict seal and its dates
    (`compressao`: the zlib level, 0-9)."""
    image = Image.new("RGB", (LARGURA, ALTURA), FUNDO)
    draw = ImageDraw.Draw(image)
    util = LARGURA - 2 * MARGEM
    draw.rectangle((0, 0, LARGURA, 84), fill=TOPO)
    marca = _fit(draw, cartao.marca, "negrito", 36, util)
    draw.text((MARGEM, 42), cartao.marca, fill=CLARO, font=marca, anchor="lm")
    y = 110
    if cartao.demonstracao:
        draw.rectangle((0, 84, LARGURA, 132), fill=AVISO)
        aviso = "Demonstração: checagem de candidato fictício"
        draw.text((MARGEM, 108), aviso, fill=TEXTO, font=_font("negrito", 28), anchor="lm")
        y = 150
    autoria = _fit(draw, cartao.autoria, "regular", 30, util)
    draw.text((MARGEM, y), cartao.autoria, fill=SUAVE, font=autoria, anchor="lt")
    y += 48
    fonte, linhas = _afirmacao(draw, cartao.afirmacao, util)
    altura_linha = int(fonte.size * 1.2)
    for linha in linhas:
        draw.text((MARGEM, y), linha, fill=TEXTO, font=fonte, anchor="lt")
        y += altura_linha
    y = max(y + 16, ALTURA - 190)
    selo = _font("negrito", 44)
    largura_selo = int(draw.textlength(cartao.rotulo, font=selo)) + 48
    cor = CORES_VEREDITO.get(cartao.veredito, TOPO)
    draw.rounded_rectangle((MARGEM, y, MARGEM + largura_selo, y + 68), radius=8, fill=cor)
    draw.text((MARGEM + 24, y + 34), cartao.rotulo, fill=CLARO, font=selo, anchor="lm")
    datas = _fit(draw, cartao.datas, "regular", 28, util - largura_selo - 30)
    draw.text((MARGEM + largura_selo + 30, y + 34), cartao.datas, fill=SUAVE, font=datas, anchor="lm")
    draw.line((MARGEM, ALTURA - 62, LARGURA - MARGEM, ALTURA - 62), fill="#c8ccd2", width=2)
    rodape = _fit(draw, cartao.rodape, "regular", 26, util)
    draw.text((MARGEM, ALTURA - 32), cartao.rodape, fill=SUAVE, font=rodape, anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compressao)  # no metadata: the same card, the same bytes
    return out.getvalue()


def artifact_checagem(url: str, cartao: CartaoChecagem) -> Artifact:
    """A check's card at `url` (`_image_artifact`)."""
    return _image_artifact(url, cartao, lambda: render_checagem_png(cartao))
