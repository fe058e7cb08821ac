"""Sharing: every page carries Open Graph and Twitter card tags with its canonical address on the
configured base URL; projection and debate pages point at a 1200×630 PNG with their headline numbers,
the same bytes for the same numbers and a new image when the numbers change."""

from __future__ import annotations

import io
import shutil
from html.parser import HTMLParser
from pathlib import Path

from PIL import Image

from site_builder import share_image
from site_builder.build import build_site
from site_builder.config import load_config
from site_builder.share_image import Cartao, Linha, render_png
from tests.projecao.noite import runoff_capture, set_latest
from tests.support.cartao import TOLERANCIA, desenho_do_pillow, diferenca, escuro, rgb

OBRIGATORIAS = (
    "og:title",
    "og:description",
    "og:url",
    "og:locale",
    "og:type",
    "twitter:card",
    "twitter:title",
)


class _Cabeca(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.canonical = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "meta" and (chave := a.get("property") or a.get("name")):
            assert chave not in self.meta, f"{chave} repetida"
            self.meta[chave] = a.get("content", "")
        if tag == "link" and a.get("rel") == "canonical":
            self.canonical = a["href"]


def cabeca(pagina: Path) -> _Cabeca:
    parser = _Cabeca()
    parser.feed(pagina.read_text(encoding="utf-8"))
    return parser


def png(dados: bytes) -> tuple[str, tuple[int, int]]:
    with Image.open(io.BytesIO(dados)) as imagem:
        return str(imagem.format), imagem.size


def test_every_page_has_share_tags(projeto_completo: Path, site_completo: Path) -> None:
    base = load_config(projeto_completo)[0].url_base
    paginas = sorted(site_completo.rglob("*.html"))
    assert len(paginas) > 50
    com_imagem = set()
    for pagina in paginas:
        rel = pagina.relative_to(site_completo).as_posix()
        tags = cabeca(pagina)
        for chave in OBRIGATORIAS:
            assert tags.meta.get(chave), f"{rel}: falta {chave}"
        assert tags.meta["og:locale"] == "pt_BR"
        assert tags.meta["og:url"] == tags.canonical and tags.canonical.startswith(base + "/"), rel
        if rel != "404.html":
            caminho = "/" + rel.removesuffix("index.html")
            assert tags.canonical == base + caminho
        if "og:image" in tags.meta:
            imagem = tags.meta["og:image"]
            assert imagem.startswith(base + "/") and tags.meta["twitter:image"] == imagem
            assert tags.meta["twitter:card"] == "summary_large_image"
            arquivo = site_completo / imagem.removeprefix(base + "/")
            assert png(arquivo.read_bytes()) == ("PNG", (1200, 630))
            assert (tags.meta["og:image:width"], tags.meta["og:image:height"]) == ("1200", "630")
            com_imagem.add(rel)
        else:
            assert tags.meta["twitter:card"] == "summary"
    assert {
        "projecao/6258-presidente/index.html",
        "projecao/6257-presidente/index.html",
        "debates/demo-governo-2026-10-15/index.html",
    } <= com_imagem


def test_the_share_image_follows_the_numbers(projeto_completo: Path, tmp_path: Path) -> None:
    projeto = tmp_path / "projeto"
    shutil.copytree(projeto_completo, projeto)
    out = tmp_path / "public"
    imagem = out / "projecao" / "6258-presidente" / "compartilhar.png"
    build_site(projeto, out, strict=True)
    antes = imagem.read_bytes()
    build_site(projeto, tmp_path / "outra", strict=True)  # a fresh build: the same numbers, the same bytes
    assert (tmp_path / "outra" / "projecao" / "6258-presidente" / "compartilhar.png").read_bytes() == antes
    corrida = projeto / "data" / "tse" / "6258" / "presidente"
    set_latest(corrida, runoff_capture(corrida, 3, 99.0))  # a new reading: new numbers
    relatorio = build_site(projeto, out, strict=True)
    assert "projecao/6258-presidente/compartilhar.png" in relatorio.renderizados
    depois = imagem.read_bytes()
    assert depois != antes and png(depois) == ("PNG", (1200, 630))


def test_the_same_card_gives_the_same_bytes() -> None:
    def cartao(valor: str) -> Cartao:
        linhas = (
            Linha("Helena Prado", valor, "projeção", "#1f5fa8"),
            Linha("Rui Amaral", "47,40%", "", "#b3261e"),
        )
        return Cartao(
            "Site", "Projeção: Presidente", "Tendência: Helena Prado", linhas, "97,00% apurado", True
        )

    assert render_png(cartao("52,60%")) == render_png(cartao("52,60%"))
    assert render_png(cartao("52,60%")) != render_png(cartao("52,61%"))


def test_the_card_shows_its_title_and_banner_as_pillow_draws_them() -> None:
    """A demonstration's card: its title and band are Pillow's full-colour drawing of them, within
    the rounding of the card's palette."""
    cartao = Cartao("Site", "Projeção: Presidente", "Tendência: Helena Prado", (), "97,00% apurado", True)
    imagem = rgb(render_png(cartao))
    s = share_image
    titulo = desenho_do_pillow((s.MARGEM, 150), cartao.titulo, s.TEXTO, s._font("negrito", 52), "lt", s.FUNDO)
    faixa = desenho_do_pillow(
        (s.MARGEM, 108), s.AVISO_PROJECAO, s.TEXTO, s._font("negrito", 28), "lm", s.AVISO
    )
    for pillow, caixa in ((titulo, (0, 150, s.LARGURA, 220)), (faixa, (0, 84, s.LARGURA, 132))):
        assert escuro(pillow, caixa) < 60  # there is text to compare
        assert diferenca(imagem, pillow, caixa) <= TOLERANCIA
