"""A broken internal link in a check's body (issue 23, item 12): `validar` (whole folder and one
file) refuses it naming the `.md` file and line, and so does the build's strict error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eleicoes import main
from site_builder.build import build_site
from site_builder.errors import StrictModeError
from tests.checagens.conftest import FIXTURES

CHECK = "content/checagens/valida.md"
FRASE = "O cadastro mostra 120 leitos novos, não 300."


def escrever(projeto: Path, links: str) -> Path:
    texto = (FIXTURES / "valida.md").read_text(encoding="utf-8").replace(FRASE, f"{FRASE}\n\n{links}")
    (projeto / CHECK).write_text(texto, encoding="utf-8")
    return projeto / CHECK


def validar(projeto: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    status = main(["checagens", "validar", "--raiz", str(projeto), *args])
    return status, capsys.readouterr().out.splitlines()


def test_validar_acha_link_interno_quebrado(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arquivo = escrever(
        projeto,
        "Veja [a candidata](/candidatos/ana-teste/), [esta página](/checagens/valida/#fontes),\n"
        "a [cópia](/arquivo/teste/post-1/), a [lista](/checagens/veredito/falso/)\n"
        "e [a que não existe](/checagens/nao-existe/).",
    )
    linha = (
        arquivo.read_text(encoding="utf-8").split("\n").index("e [a que não existe](/checagens/nao-existe/).")
    )
    esperado = [
        f"{CHECK}:{linha + 1}: link interno quebrado: /checagens/nao-existe/: o endereço não existe no site; "
        "confira o link"
    ]
    assert validar(projeto, capsys) == (1, esperado)
    assert validar(projeto, capsys, str(arquivo)) == (1, esperado)


def test_validar_aceita_links_que_existem(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    escrever(projeto, "Veja [a candidata](/candidatos/ana-teste/) e [a metodologia](/metodologia/).")
    assert validar(projeto, capsys) == (0, [])


def test_link_para_checagem_em_revisao_e_quebrado(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    escrever(projeto, "Veja [a outra](/checagens/outra/).")
    outra = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    outra = outra.replace('id = "v-1"', 'id = "v-2"').replace('slug = "valida"', 'slug = "outra"')
    outra = outra.replace('status = "publicada"', 'status = "em_revisao"')
    outra = outra.split("publicado_em =")[0] + "demonstracao" + outra.split("\ndemonstracao", 1)[1]
    outra = outra.split('[[historico]]\ntipo = "aprovada"')[0].rstrip() + "\n+++\n\nTexto.\n"
    (projeto / "content/checagens/outra.md").write_text(outra, encoding="utf-8")
    status, linhas = validar(projeto, capsys)
    assert status == 1 and linhas and all("/checagens/outra/" in linha for linha in linhas), linhas


def test_build_nomeia_o_arquivo_e_a_linha(site: Path, tmp_path: Path) -> None:
    check = site / "content/checagens/um.md"
    texto = check.read_text(encoding="utf-8").rstrip("\n") + "\n\nVeja [isto](/checagens/sumiu/).\n"
    check.write_text(texto, encoding="utf-8")
    linha = texto.split("\n").index("Veja [isto](/checagens/sumiu/).") + 1
    with pytest.raises(StrictModeError) as erro:
        build_site(site, tmp_path / "public", strict=True, workers=1)
    assert (
        f"content/checagens/um.md:{linha}: link interno quebrado: /checagens/sumiu/ "
        "(na página checagens/afirmacao-um/index.html)"
    ) in str(erro.value)


def test_site_sem_copias_nao_aceita_link_de_copia(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.rmtree(projeto / "data" / "redes" / "teste")
    escrever(projeto, "Veja [a cópia](/arquivo/teste/post-1/).")
    status, linhas = validar(projeto, capsys)
    assert status == 1 and any("link interno quebrado: /arquivo/teste/post-1/" in linha for linha in linhas)
