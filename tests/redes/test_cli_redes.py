"""The `eleicoes` subcommands of the desk, run through the real argument parser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eleicoes import main
from tests.redes.conftest import pagina
from tests.support.paginas import ServidorPaginas


def test_capture_queue_draft_discard_through_the_cli(
    projeto: Path, servidor: ServidorPaginas, capsys: pytest.CaptureFixture[str]
) -> None:
    (projeto / "eleicoes.toml").write_text("[checagens]\ntranscrever_videos = false\n", encoding="utf-8")
    texto = (
        "O estado abriu 300 novos leitos de UTI em 2025. \x1b[31mA cidade teve 40 homicídios em 2024.\u202e"
    )
    url = servidor.rota("/p/1", pagina(texto, 1200))
    raiz = ["--raiz", str(projeto)]
    assert main(["redes", "capturar", url, "--candidato", "helena-prado", *raiz]) == 0
    saida = capsys.readouterr().out
    assert "\x1b" not in saida and "\u202e" not in saida, "terminal escapes from the post are removed"
    assert "possível nova ocorrência da checagem leitos" in saida

    assert main(["checagens", "fila", "--json", *raiz]) == 0
    fila = json.loads(capsys.readouterr().out)["fila"]
    assert [i["candidato"] for i in fila] == ["helena-prado", "helena-prado"]
    assert fila[0]["prioridade"] >= fila[1]["prioridade"]
    ids = [i["afirmacao"] for i in fila]

    assert main(["checagens", "descartar", ids[1], "--editor", "ed", "--motivo", "irrelevante", *raiz]) == 0
    capsys.readouterr()
    assert main(["checagens", "rascunho", ids[0], "--editor", "ed", *raiz]) == 0
    assert "rascunho gravado" in capsys.readouterr().out
    assert main(["checagens", "fila", *raiz]) == 0
    assert "fila vazia" in capsys.readouterr().out

    assert main(["checagens", "memoria", "buscar", "abriram 300 leitos de UTI", *raiz]) == 0
    assert "leitos" in capsys.readouterr().out


def test_cli_errors_are_portuguese_with_exit_codes(
    projeto: Path, servidor: ServidorPaginas, capsys: pytest.CaptureFixture[str]
) -> None:
    raiz = ["--raiz", str(projeto)]
    assert main(["redes", "capturar", servidor.url("/nada"), *raiz]) == 1
    assert "erro:" in capsys.readouterr().err
    assert main(["checagens", "rascunho", "nao-e-um-id", *raiz]) == 1
    assert "id de afirmação inválido" in capsys.readouterr().err
    (projeto / "eleicoes.toml").write_text('[checagens.memoria]\nlimiar_alto = "alto"\n', encoding="utf-8")
    assert main(["checagens", "fila", *raiz]) == 2
    assert "limiar_alto" in capsys.readouterr().err
    (projeto / "eleicoes.toml").write_text("", encoding="utf-8")
    assert main(["redes", "coletar", *raiz]) == 0
    assert "nenhum coletor" in capsys.readouterr().out
    assert main(["checagens", "memoria", "sugestoes", *raiz]) == 0
