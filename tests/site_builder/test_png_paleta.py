"""The share cards' own PNG writer (`share_image.indexed_png`): what Pillow decodes from it is the
canvas, pixel index for pixel index and colour for colour, in exactly the chunks IHDR, PLTE, IDAT
and IEND, the same bytes for the same card."""

from __future__ import annotations

import dataclasses
import io
import struct
import zlib
from importlib import metadata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from zlib_ng import zlib_ng

from site_builder import share_image
from site_builder.share_image import Cartao, CartaoChecagem, Cor, Linha

CHECAGEM = CartaoChecagem(
    marca="Eleições 2026",
    autoria="Checagem · afirmação de Helena Prado (PRD)",
    afirmacao="A água da rede tem agrotóxico acima do limite em 80 cidades do estado.",
    veredito="enganoso",
    rotulo="Enganoso",
    datas="Publicada em 19 de outubro de 2026",
    rodape="https://exemplo.org/checagens/um/",
    demonstracao=True,
)
PROJECAO = Cartao(
    "Site",
    "Projeção: Presidente",
    "Tendência: Helena Prado",
    (Linha("Helena Prado", "52,60%", "projeção", "#1f5fa8"), Linha("Rui Amaral", "47,40%", "", "#b3261e")),
    "97,00% apurado",
    True,
)


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """A PNG's chunks (type, data) in order, each one's CRC-32 checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    found, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        found.append((kind, data))
        at += 12 + length
    assert at == len(png)
    return found


def decoded(png: bytes) -> tuple[str, tuple[int, int], bytes, list[int]]:
    """What Pillow reads from a PNG: mode, size, pixel indices and palette."""
    with Image.open(io.BytesIO(png)) as image:
        return image.mode, image.size, image.tobytes(), image.getpalette() or []


def pillow_png(indices: Image.Image, palette: list[Cor]) -> bytes:
    """The same canvas saved by Pillow's own encoder (what the cards were before `indexed_png`)."""
    image = indices.copy()
    image.putpalette(b"".join(bytes(colour) for colour in palette))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def card_canvas() -> share_image._Tela:
    """A drawn card's canvas: the frame of a demonstration check, a claim, a seal and a footer."""
    tela = share_image._moldura(CHECAGEM.marca, share_image.AVISO_CHECAGEM).copia()
    fonte = share_image._font("negrito", 52)
    tela.texto((60, 160), "“Uma afirmação verificável.”", share_image.TEXTO, fonte, "lt", sobre=tela.papel)
    selo = tela.fundo(share_image.CORES_VEREDITO["falso"], share_image.CLARO)
    tela.draw.rounded_rectangle((60, 440, 260, 508), radius=8, fill=selo)
    tela.texto((84, 474), "Falso", share_image.CLARO, share_image._font("negrito", 44), "lm", sobre=selo)
    share_image._rodape(tela, CHECAGEM.rodape)
    return tela


@pytest.mark.parametrize("level", [0, 1, share_image.COMPRESSAO_PNG, 9])
def test_a_drawn_canvas_decodes_to_its_indices_and_palette(level: int) -> None:
    tela = card_canvas()
    png = share_image.indexed_png(tela.imagem, tela.cores, level)
    flat = [channel for colour in tela.cores for channel in colour]
    assert decoded(png) == ("P", (1200, 630), tela.imagem.tobytes(), flat)
    assert decoded(png) == decoded(pillow_png(tela.imagem, tela.cores))
    assert max(tela.imagem.tobytes()) < len(tela.cores)  # every pixel has its colour in the PLTE


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(1, 40),
    height=st.integers(1, 3 * share_image._FAIXA + 5),  # one band of rows to several
    colours=st.integers(1, 256),
    level=st.integers(0, 9),
    data=st.data(),
)
def test_any_canvas_decodes_as_pillows_own_png_of_it(
    width: int, height: int, colours: int, level: int, data: st.DataObject
) -> None:
    pixels = data.draw(st.binary(min_size=width * height, max_size=width * height))
    indices = Image.frombytes("L", (width, height), bytes(byte % colours for byte in pixels))
    channels = data.draw(st.binary(min_size=3 * colours, max_size=3 * colours))
    palette = [(channels[i], channels[i + 1], channels[i + 2]) for i in range(0, 3 * colours, 3)]
    png = share_image.indexed_png(indices, palette, level)
    assert decoded(png) == decoded(pillow_png(indices, palette))
    assert decoded(png)[2] == indices.tobytes()


# zlib-ng's levels 0 (stored) and 1 (its "quick" strategy) end blocks where a call's input ends:
# at those the bands give other, equally valid, bytes (the tests above decode them).
@pytest.mark.parametrize("level", [share_image.COMPRESSAO_PNG, 6, 9])
@pytest.mark.parametrize("height", [1, *(share_image._FAIXA + d for d in (-1, 0, 1)), 630])
def test_rows_compressed_a_band_at_a_time_are_the_bytes_of_all_rows_at_once(level: int, height: int) -> None:
    # The rows go to zlib-ng in bands: the stream must be the one a single call over every row
    # gives (the cards' bytes did not change with the bands, and cached cards stay valid).
    tela = card_canvas()
    indices = tela.imagem.crop((0, 630 - height, 1200, 630))  # the card's lower rows: text and rule
    rows = b"".join(b"\0" + indices.crop((0, y, 1200, y + 1)).tobytes() for y in range(height))
    compressor = zlib_ng.compressobj(level)
    at_once = compressor.compress(rows) + compressor.flush()
    assert dict(chunks(share_image.indexed_png(indices, tela.cores, level)))[b"IDAT"] == at_once


def test_a_card_is_a_valid_palette_png_of_four_chunks() -> None:
    for png in (share_image.render_checagem_png(CHECAGEM), share_image.render_png(PROJECAO)):
        with Image.open(io.BytesIO(png)) as image:
            image.verify()
        with Image.open(io.BytesIO(png)) as image:
            assert (image.format, image.mode, image.size, image.info) == ("PNG", "P", (1200, 630), {})
        found = chunks(png)
        assert [kind for kind, _ in found] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
        ihdr, plte, idat, iend = (data for _, data in found)
        # 1200×630, 8 bits, palette (colour type 3), compression, filter and interlace methods 0
        assert struct.unpack(">IIBBBBB", ihdr) == (1200, 630, 8, 3, 0, 0, 0)
        assert iend == b"" and len(plte) % 3 == 0 and 3 <= len(plte) <= 3 * 256
        rows = zlib.decompress(idat)
        assert len(rows) == 630 * 1201
        assert rows[::1201] == bytes(630)  # every row behind filter byte 0
        assert max(rows) < len(plte) // 3


def test_the_palette_is_the_canvas_palette_no_more() -> None:
    tela = card_canvas()
    plte = dict(chunks(share_image.indexed_png(tela.imagem, tela.cores, 1)))[b"PLTE"]
    assert plte == b"".join(bytes(colour) for colour in tela.cores) and len(tela.cores) < 256


def test_the_same_card_gives_the_same_bytes_and_the_level_only_the_size() -> None:
    png = share_image.render_checagem_png(CHECAGEM)
    assert share_image.render_checagem_png(dataclasses.replace(CHECAGEM)) == png
    assert share_image.render_png(dataclasses.replace(PROJECAO)) == share_image.render_png(PROJECAO)
    other = 1 if share_image.COMPRESSAO_PNG != 1 else 2
    at_other = share_image.render_checagem_png(CHECAGEM, other)
    assert at_other != png and decoded(at_other) == decoded(png)


def test_what_is_not_a_palette_canvas_is_refused() -> None:
    with pytest.raises(ValueError, match="modo RGB"):
        share_image.indexed_png(Image.new("RGB", (2, 2)), [(0, 0, 0)], 1)
    with pytest.raises(ValueError, match="de 1 a 256"):
        share_image.indexed_png(Image.new("L", (2, 2)), [], 1)
    with pytest.raises(ValueError, match="de 1 a 256"):
        share_image.indexed_png(Image.new("L", (2, 2)), [(0, 0, 0)] * 257, 1)


def test_the_renderer_version_follows_zlib_ngs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another zlib-ng may compress the same pixels to other bytes: the cards are drawn again."""
    before = share_image.renderer_version.__wrapped__()
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "0.0.0" if name == "zlib-ng" else real(name))
    assert share_image.renderer_version.__wrapped__() != before
