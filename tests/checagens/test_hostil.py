"""Hostile input in a check: HTML and `</script>` in any text or a `javascript:` link are refused
with a message naming the file and the field or line; text that passes (quotes, `&`, `<` that opens
no tag, a link that tries to break out of its attribute) is escaped everywhere; broken encoding is
refused. The site already published is kept."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import extruct
import pytest

from site_builder.build import build_site
from site_builder.errors import BuildError
from tests.checagens.conftest import FIXTURES
from tests.checagens.test_regras import onde
from tests.site_builder.conftest import snapshot

HOSTIL = '</script><script>alert(1)</script><img src=x onerror="alert(2)">'
# Passes every rule, yet each character would break out of an attribute or a script if unescaped.
ESCAPAR = "Disse \"aspas\" e 'apóstrofos' & 5 < 7 > 3 </ fim"
URL_ESCAPAR = "https://redes.example.org/p?a=\"onmouseover=alert(3)&b='x"


def _toml(valor: str) -> str:
    return json.dumps(valor, ensure_ascii=False)


def _com(texto: str, valor: str, url: str) -> str:
    texto = texto.replace(
        'afirmacao = "O estado abriu 300 leitos de UTI em 2025."', f"afirmacao = {_toml(valor)}"
    )
    texto = texto.replace('titulo = "DataSUS', f"titulo = {_toml(valor)[:-1]} DataSUS")
    texto = texto.replace('url = "https://redes.example.org/ana.teste/posts/1"', f"url = {_toml(url)}")
    texto = texto.replace(
        "\n+++\n",
        f"\n[[correcoes]]\ndata = 2026-10-11T10:00:00-03:00\nexplicacao = {_toml(valor)}\n+++\n",
    )
    return texto + f"\n\n{valor}\n"


def test_html_e_script_em_qualquer_campo_sao_recusados(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(site, out, strict=True)
    before = snapshot(out)
    texto = _com(
        (FIXTURES / "valida.md").read_text(encoding="utf-8"),
        "Disse " + HOSTIL,
        "https://a.example/p?<script>",
    )
    (site / "content/checagens/valida.md").write_text(
        texto + "\n[link](javascript:alert(4))\n", encoding="utf-8"
    )
    nome = site / "content/candidatos/ana-teste.toml"
    nome.write_text(
        nome.read_text(encoding="utf-8").replace('"Ana Teste"', json.dumps("Ana " + HOSTIL)), "utf-8"
    )
    with pytest.raises(BuildError) as caught:
        build_site(site, out, strict=True)
    linhas = str(caught.value).splitlines()
    for arquivo, campo in (
        ("content/candidatos/ana-teste.toml", "nome"),
        ("content/checagens/valida.md", "afirmacao"),
        ("content/checagens/valida.md", "fontes[1].titulo"),
        ("content/checagens/valida.md", "ocorrencias[1].url"),
        ("content/checagens/valida.md", "correcoes[1].explicacao"),
    ):
        prefixo = onde(arquivo, campo)
        assert any(
            (m := prefixo.search(linha)) and linha[m.end() :].startswith("contém HTML") for linha in linhas
        ), (
            campo,
            linhas,
        )
    corpo = texto.count("\n") + 1  # the body's hostile line, then the link two lines below
    assert any(f"valida.md:{corpo - 1}: contém HTML ('</script')" in linha for linha in linhas), linhas
    assert any(f"valida.md:{corpo + 1}: link 'javascript:alert(4)'" in linha for linha in linhas), linhas
    assert snapshot(out) == before  # the published site is kept as it was


def test_texto_aceito_e_escapado_em_toda_parte(site: Path, tmp_path: Path) -> None:
    texto = _com((FIXTURES / "valida.md").read_text(encoding="utf-8"), ESCAPAR, URL_ESCAPAR)
    (site / "content/checagens/valida.md").write_text(texto, encoding="utf-8")
    out = tmp_path / "public"
    build_site(site, out, strict=True)
    html = (out / "checagens/valida/index.html").read_text(encoding="utf-8")
    assert html.count("<script") == 1  # the JSON-LD block only
    review = extruct.extract(html, syntaxes=["json-ld"])["json-ld"][0]
    assert review["claimReviewed"] == ESCAPAR  # intact inside the markup
    assert review["itemReviewed"]["appearance"][0]["url"] == URL_ESCAPAR
    assert review["correction"][0]["text"] == ESCAPAR
    assert "Disse &#34;aspas&#34; e &#39;apóstrofos&#39; &amp; 5 &lt; 7 &gt; 3 &lt;/ fim" in html
    assert 'href="https://redes.example.org/p?a=&#34;onmouseover=alert(3)&amp;b=&#39;x"' in html


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
            "content/checagens/valida.md:4: afirmacao: contém o caractere � (U+FFFD)",
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
