"""Malformed front matter, as editors write it: every message is in Portuguese and names the file,
the field and the file's own line (the opening `+++` counts), through `eleicoes checagens validar`
and through `eleicoes build --strict`."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from eleicoes import main
from site_builder.conteudo.frontmatter import erro_toml
from tests.checagens.conftest import FIXTURES

REL = "content/checagens/valida.md"
DATA = "data inválida: use o formato 2026-10-12 ou 2026-10-12T14:30:00-03:00, sem aspas"
# (what is replaced in valida.md, by what, the one problem expected); the lines are valida.md's.
CASOS = {
    "mes-13": (
        "publicado_em = 2026-10-10T10:00:00-03:00",
        "publicado_em = 2026-13-10T10:00:00-03:00",
        f"{REL}:10: publicado_em: {DATA}",
    ),
    "30-de-fevereiro-numa-fonte": (
        "acessado_em = 2026-10-09",
        "acessado_em = 2026-02-30",
        f"{REL}:16: fontes[1].acessado_em: {DATA}",
    ),
    "chave-repetida": (
        'autor = "editor-a"',
        'autor = "editor-a"\nveredito = "enganoso"',
        f"{REL}:9: veredito: chave repetida: este campo já foi definido antes",
    ),
    "texto-sem-fechamento": (
        'titulo = "DataSUS — Cadastro Nacional de Estabelecimentos de Saúde"',
        'titulo = "DataSUS — Cadastro Nacional de Estabelecimentos de Saúde',
        f"{REL}:15: fontes[1].titulo: texto sem fechamento: faltam as aspas que fecham o texto",
    ),
    "texto-sem-aspas": (
        'candidato = "ana-teste"',
        "candidato = ana-teste",
        f"{REL}:6: candidato: valor inválido: textos vão entre aspas; datas, números e true/false, sem aspas",
    ),
    "data-entre-aspas": (
        "publicado_em = 2026-10-10T10:00:00-03:00",
        'publicado_em = "2026-10-10T10:00:00-03:00"',
        f"{REL}:10: publicado_em: use data e hora com fuso, sem aspas (ex.: 2026-10-12T14:30:00-03:00)",
    ),
    "data-da-fonte-entre-aspas": (
        "acessado_em = 2026-10-09",
        'acessado_em = "2026-10-09"',
        f"{REL}:16: fontes[1].acessado_em: data obrigatória, sem aspas (ex.: 2026-10-11)",
    ),
    # Issue 23, point 12: a date as Brazilians write it got "textos vão entre aspas".
    "data-com-barras": (
        "acessado_em = 2026-10-09",
        "acessado_em = 09/10/2026",
        f"{REL}:16: fontes[1].acessado_em: data no formato dia/mês/ano: escreva 2026-10-09 (ano-mês-dia), "
        "sem aspas",
    ),
    # The time the editor typed (-03:00) comes back in Brasília time, not in UTC.
    "publicado-no-futuro": (
        "publicado_em = 2026-10-10T10:00:00-03:00",
        "publicado_em = 2099-10-10T10:00:00-03:00",
        f"{REL}:10: publicado_em: 2099-10-10T10:00:00-03:00 (horário de Brasília) está no futuro; confira a "
        "data (e o ano)",
    ),
}


def _escrever(raiz: Path, caso: str) -> None:
    antes, depois, _esperado = CASOS[caso]
    texto = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    assert texto.count(antes) == 1, antes
    (raiz / REL).write_text(texto.replace(antes, depois), encoding="utf-8")


@pytest.mark.parametrize("caso", CASOS)
def test_validar_diz_arquivo_campo_e_linha(
    projeto: Path, caso: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _escrever(projeto, caso)
    assert main(["checagens", "validar", str(projeto / REL), "--raiz", str(projeto)]) == 1
    assert capsys.readouterr().out.splitlines() == [CASOS[caso][2]]


@pytest.mark.parametrize("caso", ["mes-13", "chave-repetida", "data-da-fonte-entre-aspas"])
def test_build_estrito_diz_arquivo_campo_e_linha(
    site: Path, tmp_path: Path, caso: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _escrever(site, caso)
    assert main(["build", "--strict", "--raiz", str(site), "--saida", str(tmp_path / "public")]) == 1
    err = capsys.readouterr().err
    assert f"  - {CASOS[caso][2]}\n" in err, err
    assert "o site publicado anteriormente foi mantido." in err


def test_mensagem_desconhecida_do_tomllib_ainda_diz_linha_e_campo() -> None:
    """A message tomllib may add in a later Python still reaches editors in Portuguese, located."""
    toml = 'id = "x"\n\n[[fontes]]\nurl = 3\n'
    linha, campo, problema = erro_toml(tomllib.TOMLDecodeError("Something new (at line 4, column 7)"), toml)
    assert (linha, campo, problema) == (4, "fontes[1].url", "erro de sintaxe no front matter (TOML)")
