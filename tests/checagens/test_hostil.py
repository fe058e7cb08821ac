"""Hostile input in a check (HTML and `</script>` in any text, a link that tries to break out of
its attribute, broken encoding): escaped everywhere, or rejected with a clear message, and the
site already published is kept."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import extruct
import pytest

from site_builder.build import build_site
from site_builder.errors import BuildError
from tests.checagens.conftest import FIXTURES
from tests.site_builder.conftest import snapshot

HOSTIL = '</script><script>alert(1)</script><img src=x onerror="alert(2)">'
URL_HOSTIL = 'https://redes.example.org/p?a="><script>alert(3)</script>'


def _hostil(texto: str) -> str:
    def toml(valor: str) -> str:
        return json.dumps(valor, ensure_ascii=False)

    texto = texto.replace(
        'afirmacao = "O estado abriu 300 leitos de UTI em 2025."', f"afirmacao = {toml('Disse ' + HOSTIL)}"
    )
    texto = texto.replace('titulo = "DataSUS', f"titulo = {toml(HOSTIL)[:-1]} DataSUS")
    texto = texto.replace('url = "https://redes.example.org/ana.teste/posts/1"', f"url = {toml(URL_HOSTIL)}")
    texto = texto.replace('pessoa = "editor-b"', f"pessoa = {toml('editor-b ' + HOSTIL)}")
    texto = texto.replace('revisor = "editor-b"', f"revisor = {toml('editor-b ' + HOSTIL)}")
    texto = texto.replace(
        "\n+++\n",
        f"\n[[correcoes]]\ndata = 2026-10-11T10:00:00-03:00\nexplicacao = {toml(HOSTIL)}\n+++\n",
    )
    return texto + f"\n\n{HOSTIL}\n\n[link](javascript:alert(4))\n"


def test_html_e_script_escapados_em_toda_parte(site: Path, tmp_path: Path) -> None:
    (site / "content/checagens/valida.md").write_text(
        _hostil((FIXTURES / "valida.md").read_text(encoding="utf-8")), encoding="utf-8"
    )
    nome = site / "content/candidatos/ana-teste.toml"
    nome.write_text(
        nome.read_text(encoding="utf-8").replace('"Ana Teste"', json.dumps("Ana " + HOSTIL)), "utf-8"
    )
    out = tmp_path / "public"
    build_site(site, out, strict=True)
    files = snapshot(out)
    for rel, data in files.items():
        for bad in (b"<script>alert", b"<img src=x", b'"><script>', b"javascript:alert"):
            assert bad not in data, (rel, bad)
    html = files["checagens/valida/index.html"].decode("utf-8")
    assert html.count("<script") == 1
    review = extruct.extract(html, syntaxes=["json-ld"])["json-ld"][0]
    assert review["claimReviewed"] == "Disse " + HOSTIL  # intact inside the markup
    assert review["itemReviewed"]["author"]["name"] == "Ana " + HOSTIL
    assert review["itemReviewed"]["appearance"][0]["url"] == URL_HOSTIL
    assert review["correction"][0]["text"] == HOSTIL
    assert (
        "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&#34;alert(2)&#34;&gt;"
        in html
    )
    assert 'href="https://redes.example.org/p?a=&#34;&gt;&lt;script&gt;alert(3)&lt;/script&gt;"' in html


@pytest.mark.parametrize(
    ("dados", "mensagem"),
    [
        (
            (FIXTURES / "valida.md")
            .read_text(encoding="utf-8")
            .replace("leitos", "leitos à venda")
            .encode("latin-1", "replace"),
            "content/checagens/valida.md: o arquivo não está em UTF-8 (byte inválido na posição",
        ),
        (
            (FIXTURES / "valida.md")
            .read_text(encoding="utf-8")
            .replace("leitos", "leitos \ufffd")
            .encode("utf-8"),
            "content/checagens/valida.md:afirmacao: contém o caractere � (U+FFFD)",
        ),
        (
            (FIXTURES / "valida.md")
            .read_text(encoding="utf-8")
            .replace("120 leitos", "120\x00 leitos")
            .encode(),
            "content/checagens/valida.md:explicacao: contém um caractere de controle (U+0000)",
        ),
    ],
    ids=["latin-1", "substituicao", "controle"],
)
def test_codificacao_quebrada_e_recusada_sem_perder_o_site(
    site: Path, tmp_path: Path, dados: bytes, mensagem: str
) -> None:
    out = tmp_path / "public"
    shutil.copy(FIXTURES / "valida.md", site / "content/checagens/valida.md")
    build_site(site, out, strict=True)
    before = snapshot(out)
    (site / "content/checagens/valida.md").write_bytes(dados)
    with pytest.raises(BuildError) as caught:
        build_site(site, out, strict=True)
    assert mensagem in str(caught.value)
    assert snapshot(out) == before  # the published site is kept as it was
