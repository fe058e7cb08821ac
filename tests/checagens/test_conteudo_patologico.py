"""Content files made to stall the build (issue 22, item 6): each is refused in linear time with
a Portuguese message naming the file and why, by `validar` and by the build, and no other
content file's output changes.

Before the fix, a body of 30,000 unbalanced `[` kept `validar` busy for minutes (Python-Markdown's
link scans are quadratic) and deeply nested TOML escaped as RecursionError naming no file.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from eleicoes import main
from jobs.debate.armazenamento import ErroDebate, ler_debate
from jobs.debate.edicoes import ler_edicoes
from site_builder.build import build_site
from site_builder.conteudo import texto_seguro
from site_builder.conteudo.frontmatter import (
    MAX_ANINHAMENTO,
    MAX_TOML,
    linha_aninhada_demais,
    parse_front_matter,
)
from site_builder.errors import BuildError, ContentError
from site_builder.markdown_render import MarkdownRenderer
from tests.checagens.conftest import FIXTURES

VALIDA = "content/checagens/valida.md"
PROFUNDO = "[" * 5_000 + "]" * 5_000  # far past the parser's stack


def _com_corpo(projeto: Path, corpo: str) -> Path:
    texto = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    cabecalho = texto[: texto.index("+++", 3) + 3]
    alvo = projeto / VALIDA
    alvo.write_text(f"{cabecalho}\n\n{corpo}\n", encoding="utf-8")
    return alvo


@pytest.mark.parametrize(
    ("corpo", "trecho"),
    [
        ("[" * 30_000, "colchetes '[' ou parênteses de link '](' sem fechamento"),
        ("[a](b" * 6_000, "colchetes '[' ou parênteses de link '](' sem fechamento"),
        ("# a\n" * 7_000, "linhas de título, separador, lista ou citação demais"),
        ("a\n=\n" * 7_000, "linhas de título, separador, lista ou citação demais"),
    ],
    ids=["colchetes", "enderecos-abertos", "titulos", "sublinhados"],
)
def test_validar_recusa_corpo_que_travaria_a_conversao(
    projeto: Path, corpo: str, trecho: str, capsys: pytest.CaptureFixture[str]
) -> None:
    alvo = _com_corpo(projeto, corpo)
    assert main(["checagens", "validar", str(alvo), "--raiz", str(projeto)]) == 1
    linhas = capsys.readouterr().out.splitlines()
    assert len(linhas) == 1, linhas
    assert linhas[0].startswith(f"{VALIDA}:")
    assert trecho in linhas[0]


def test_build_recusa_checagem_que_travaria_a_conversao(site: Path, tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "valida.md", site / VALIDA)
    _com_corpo(site, "[" * 30_000)
    with pytest.raises(BuildError) as recusa:
        build_site(site, tmp_path / "public", workers=1, strict=True)
    assert f"{VALIDA}:" in str(recusa.value)
    assert "colchetes '['" in str(recusa.value)
    report = build_site(site, tmp_path / "public", workers=1)  # the default build leaves it out
    assert any(p.startswith(f"{VALIDA}:") and "colchetes '['" in p for p in report.recusados)
    assert not (tmp_path / "public/checagens/valida").exists()


def test_build_recusa_pagina_de_metodologia_que_travaria_a_conversao(site: Path, tmp_path: Path) -> None:
    """Section and methodology pages have no rule of their own but this one: they are converted too."""
    pagina = site / "content/metodologia/primeira.md"
    texto = pagina.read_text(encoding="utf-8")
    pagina.write_text(texto + "\n\n" + "![" * 8_500 + "\n", encoding="utf-8")
    linha = texto.count("\n") + 3
    with pytest.raises(BuildError) as recusa:
        build_site(site, tmp_path / "public", workers=1, strict=True)  # the default build isolates it
    assert f"content/metodologia/primeira.md:{linha}: o texto tem colchetes" in str(recusa.value)


def test_o_limite_de_tamanho_vale_para_toda_pagina(site: Path, tmp_path: Path) -> None:
    pagina = site / "content/secoes/inicio.md"
    pagina.write_text(pagina.read_text(encoding="utf-8") + "a" * texto_seguro.MAX_CORPO, encoding="utf-8")
    with pytest.raises(BuildError, match=r"content/secoes/inicio\.md:\d+: o texto tem \d+ caracteres"):
        build_site(site, tmp_path / "public", workers=1, strict=True)  # the default build isolates it


def test_o_renderizador_recusa_sozinho() -> None:
    """The last line: a caller that skipped the rules still cannot stall on a body."""
    with pytest.raises(ValueError, match="colchetes"):
        MarkdownRenderer().convert("[" * 30_000)
    with pytest.raises(ValueError, match="colchetes"):
        MarkdownRenderer().addresses("[" * 30_000)


@pytest.mark.parametrize(
    "corpo",
    [
        'Veja [o relatório](https://exemplo.org/a "título (com parênteses)") e [b][c].\n\n[c]: https://x.org',
        "Uma lista:\n\n" + "\n".join(f"- item {i} com [link](https://x.org/{i})" for i in range(200)),
        "Código `a[0]` e `b]` e \\[não é link\\] e ![imagem](https://x.org/i.png)\n\n" * 50,
        "| a | b |\n|---|---|\n" + "| [x](https://x.org) | 1 |\n" * 300 + "\n\n`a` [x](https://x.org)\n",
    ],
    ids=["titulo", "lista-longa", "codigo-e-escapes", "tabela"],
)
def test_textos_reais_passam_longe_do_limite(corpo: str) -> None:
    assert texto_seguro.conversao_excessiva(corpo) is None


def test_custo_nunca_fica_abaixo_do_que_a_conversao_le() -> None:
    """The estimate bounds the scans: a `]` inside a code span, an escape, a quoted address."""
    # Each `[` here is open for the scans (the `]` is inside a code span): the bound sees it.
    assert texto_seguro.custo_de_conversao("[`]`" * 2_000)[0] > texto_seguro.MAX_CUSTO_CONVERSAO
    assert texto_seguro.custo_de_conversao('[a]("b)' * 2_000)[0] > texto_seguro.MAX_CUSTO_CONVERSAO
    assert texto_seguro.custo_de_conversao("\\[[" * 1_000)[0] > texto_seguro.MAX_CUSTO_CONVERSAO


# Texts made of what the two cost estimates count: brackets, parentheses, escapes, backticks,
# quotes, the first characters of lines that split a block, and blank lines of both kinds.
_TEXTOS_DE_CUSTO = st.lists(
    st.sampled_from(
        [
            "[",
            "]",
            "(",
            ")",
            "](",
            "\\",
            "\\[",
            "`",
            '"',
            "'",
            "#",
            "- ",
            "=",
            "a",
            "bc ",
            "\n",
            "\n\n",
            "\n  \n",
        ]
    ),
    max_size=400,
).map("".join)


@given(_TEXTOS_DE_CUSTO)
# Shapes near each bound: brackets before an escape (the placeholders' length counts), a bracket
# open across lines of one part, lines that each split the block.
@example("[" * 10 + "\\[")
@example("[\n" + "a" * 100)
@example("- a\n" * 30)
def test_limites_baratos_nunca_ficam_abaixo_do_custo(corpo: str) -> None:
    """The cheap bounds that spare most bodies the full scan are never under what it counts, so
    a body is refused exactly when the full scan would refuse it."""
    links, blocos, _linha = texto_seguro.custo_de_conversao(corpo)
    limite_links, limite_blocos = texto_seguro.limites_do_custo(corpo)
    assert links <= limite_links
    assert blocos <= limite_blocos


def test_um_corpo_acima_dos_limites_baratos_ainda_passa_pela_conta_completa() -> None:
    """Over the cheap bound but under the limit: still accepted (the bound only spares work)."""
    corpo = "[a](https://x.org/b) " * 2_500  # one part: the bound multiplies its length by its brackets
    assert texto_seguro.limites_do_custo(corpo)[0] > texto_seguro.MAX_CUSTO_CONVERSAO
    assert texto_seguro.custo_de_conversao(corpo)[0] <= texto_seguro.MAX_CUSTO_CONVERSAO
    assert texto_seguro.conversao_excessiva(corpo) is None


def test_toml_aninhado_demais_no_front_matter(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texto = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    alvo = projeto / VALIDA
    profundo = texto.replace('veredito = "falso"\n', f'veredito = "falso"\nx = {PROFUNDO}\n', 1)
    alvo.write_text(profundo, "utf-8")
    assert "x = [" in alvo.read_text(encoding="utf-8")
    linha = alvo.read_text(encoding="utf-8").split("\n").index(f"x = {PROFUNDO}") + 1
    assert main(["checagens", "validar", str(alvo), "--raiz", str(projeto)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{VALIDA}:{linha}: listas ou tabelas umas dentro das outras em mais de {MAX_ANINHAMENTO} níveis; "
        "o arquivo não foi lido (um arquivo real usa dois ou três)"
    ]


def test_toml_aninhado_demais_no_candidato_e_no_registro(site: Path, tmp_path: Path) -> None:
    (site / "content/candidatos/ana-teste.toml").write_text(f"x = {PROFUNDO}\n", encoding="utf-8")
    editores = site / "content/editores.toml"
    editores.write_text(f"y = {{a = {PROFUNDO}}}\n" + editores.read_text(encoding="utf-8"), "utf-8")
    with pytest.raises(BuildError) as recusa:
        build_site(site, tmp_path / "public", workers=1, strict=True)  # the default build isolates it
    mensagem = str(recusa.value)
    assert "content/candidatos/ana-teste.toml:1: listas ou tabelas umas dentro das outras" in mensagem
    assert "content/editores.toml: 1: listas ou tabelas umas dentro das outras" in mensagem
    assert "RecursionError" not in mensagem


def test_toml_aninhado_demais_nos_arquivos_do_debate(tmp_path: Path) -> None:
    pasta = tmp_path / "debate-x"
    pasta.mkdir()
    (pasta / "edicoes.toml").write_text(f"[locutores]\nx = {PROFUNDO}\n", encoding="utf-8")
    (pasta / "debate.toml").write_text(f'titulo = "a"\nblocos = {PROFUNDO}\n', encoding="utf-8")
    for ler, nome in ((ler_edicoes, "edicoes.toml"), (ler_debate, "debate.toml")):
        with pytest.raises(ErroDebate, match=rf"{pasta / nome}: TOML inválido: listas ou tabelas"):
            ler(pasta)


def test_a_varredura_de_aninhamento_ignora_textos_e_comentarios() -> None:
    texto = 'a = "[[[[{{{{"\nb = \'[[[[\'\nc = """\n[[[[\n"""  # [[[[\nd = [[1], [2]]\n'
    assert linha_aninhada_demais(texto, limite=2) == 0
    assert linha_aninhada_demais(texto + "e = [[[3]]]\n", limite=2) == 7


def test_a_varredura_de_aninhamento_no_limite_exato() -> None:
    """One bracket more than the limit is found; as many as the limit skip the scan, rightly."""
    assert linha_aninhada_demais("a = 1\nb = [[[1]]]\n", limite=2) == 2
    assert linha_aninhada_demais("a = 1\nb = [[[1]]]\n", limite=3) == 0
    assert linha_aninhada_demais("b = [{x = [1]}]\n", limite=2) == 1


def test_crlf_do_windows_le_como_lf(
    projeto: Path, site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A check saved on Windows (CRLF) validates, with the same messages and line numbers, and
    builds the same bytes as the same check saved with LF."""
    texto = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    crlf = texto.replace("\n", "\r\n").encode("utf-8")
    (projeto / VALIDA).write_bytes(crlf)
    assert main(["checagens", "validar", str(projeto / VALIDA), "--raiz", str(projeto)]) == 0
    errado = texto.replace('veredito = "falso"', 'veredito = "mentira"')
    assert errado != texto
    mensagens = []
    for dados in (errado.encode("utf-8"), errado.replace("\n", "\r\n").encode("utf-8")):
        (projeto / VALIDA).write_bytes(dados)
        capsys.readouterr()
        assert main(["checagens", "validar", str(projeto / VALIDA), "--raiz", str(projeto)]) == 1
        mensagens.append(capsys.readouterr().out)
    assert mensagens[0] == mensagens[1]
    assert "veredito: 'mentira' não existe" in mensagens[0]
    publicados = []
    for nome, dados in (("lf", texto.encode("utf-8")), ("crlf", crlf)):
        (site / VALIDA).write_bytes(dados)
        out = tmp_path / nome
        build_site(site, out, workers=1)
        publicados.append((out / "checagens/valida/index.html").read_bytes())
    assert publicados[0] == publicados[1]


def test_front_matter_grande_demais_e_recusado_antes_de_ler(
    projeto: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """30,000 keys and a typo at the end: tomllib took seconds per parse, and locating the typo
    parsed up to 200 prefixes again (minutes). Over `MAX_TOML` the file is refused unread."""
    texto = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    chaves = "".join(f"k{i} = {i}\n" for i in range(30_000))
    (projeto / VALIDA).write_text(
        texto.replace("+++\n", "+++\n" + chaves, 1).replace("\n+++\n", "\nx = \n+++\n"), "utf-8"
    )
    assert main(["checagens", "validar", str(projeto / VALIDA), "--raiz", str(projeto)]) == 1
    (linha,) = capsys.readouterr().out.splitlines()
    assert linha.startswith(f"{VALIDA}: o TOML tem ")
    assert f"acima do limite de {MAX_TOML}" in linha


def test_erro_no_fim_de_um_front_matter_no_limite_ainda_tem_linha() -> None:
    linhas = [f"k{i} = {i}" for i in range(MAX_TOML // 14)]
    toml = "\n".join([*linhas, "x = "])
    assert len(toml) <= MAX_TOML
    with pytest.raises(ContentError) as erro:
        parse_front_matter(f"+++\n{toml}\n+++\n", VALIDA)
    assert erro.value.line == len(linhas) + 2


def test_toml_aninhado_demais_nas_configuracoes(site: Path, tmp_path: Path) -> None:
    """content/site.toml (read by every build) and eleicoes.toml (every job) name the file too."""
    from jobs.configuracao import ler_secao

    config = site / "content/site.toml"
    config.write_text(config.read_text(encoding="utf-8") + f"\nx = {PROFUNDO}\n", encoding="utf-8")
    with pytest.raises(BuildError, match=r"content/site\.toml:\d+: listas ou tabelas umas dentro das outras"):
        build_site(site, tmp_path / "public", workers=1)
    eleicoes = tmp_path / "eleicoes.toml"
    eleicoes.write_text(f"[publicar]\nx = {PROFUNDO}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{eleicoes}: TOML inválido: listas ou tabelas"):
        ler_secao("publicar", eleicoes, ValueError)
