"""Every problem `validar` reports names a line (issue 23, item 12): a missing key points to the
front matter's start (or its block's header), an unknown candidate and a missing archived copy to
their field's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from eleicoes import main
from tests.checagens.conftest import FIXTURES

CHECK = "content/checagens/valida.md"


def test_campo_ausente_candidato_e_copia_com_linha(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texto = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    texto = texto.replace('autor = "editor-a"\n', "")  # a missing key
    texto = texto.replace('candidato = "ana-teste"', 'candidato = "fulano"')
    texto = texto.replace("post-1.warc.gz", "post-9.warc.gz")
    (projeto / CHECK).write_text(texto, encoding="utf-8")
    linhas = texto.split("\n")
    candidato = linhas.index('candidato = "fulano"') + 1
    copia = linhas.index('arquivo = "data/redes/teste/post-9.warc.gz"') + 1
    assert main(["checagens", "validar", "--raiz", str(projeto)]) == 1
    assert sorted(capsys.readouterr().out.splitlines()) == sorted(
        [
            f"{CHECK}:1: autor: campo obrigatório ausente",
            f"{CHECK}:{candidato}: candidato: 'fulano' não está em content/candidatos/",
            f"{CHECK}:{copia}: ocorrencias[1].arquivo: cópia arquivada não encontrada: "
            "data/redes/teste/post-9.warc.gz",
        ]
    )
