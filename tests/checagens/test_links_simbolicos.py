"""Nothing outside the project is published (issue 22, item 7): a symlink or a hidden file under
`content/` or the archived copies' folder is refused by `validar` and by the strict build, naming
the path; the night's build (not strict) reports it and leaves it out; no build follows one.
Before the fix, a symlinked archived copy made the build copy a file from outside the project
into `public/`, and `validar` said "tudo certo"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eleicoes import main
from site_builder.build import build_site
from site_builder.conteudo import regras
from site_builder.errors import BuildError
from tests.checagens.conftest import FIXTURES

COPIA = "data/redes/teste/post-1.warc.gz"  # the archived copy valida.md names


def _segredo(tmp_path: Path) -> Path:
    segredo = tmp_path / "fora-do-projeto.txt"
    segredo.write_text("SEGREDO de fora do projeto\n", encoding="utf-8")
    return segredo


def _todos(pasta: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(pasta.rglob("*")) if p.is_file())


def test_copia_arquivada_em_link_simbolico(
    site: Path, projeto: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for raiz in (site, projeto):
        shutil.copy(FIXTURES / "valida.md", raiz / "content/checagens/valida.md")
        (raiz / COPIA).unlink()
        (raiz / COPIA).symlink_to(_segredo(tmp_path))
    assert main(["checagens", "validar", "--raiz", str(projeto)]) == 1
    assert f"{COPIA}: {regras.LINK_SIMBOLICO}" in capsys.readouterr().out.splitlines()
    out = tmp_path / "public"
    with pytest.raises(BuildError, match=f"{COPIA}: é um link simbólico"):
        build_site(site, out, workers=1, strict=True)
    assert not out.exists() or b"SEGREDO" not in _todos(out)
    report = build_site(site, out, workers=1)  # the night's build: the link reported, never followed
    assert f"{COPIA}: {regras.LINK_SIMBOLICO}" in report.recusados
    assert b"SEGREDO" not in _todos(out)


@pytest.mark.parametrize(
    ("rel", "mensagem"),
    [
        ("content/checagens/ligada.md", regras.LINK_SIMBOLICO),
        ("content/metodologia", regras.LINK_SIMBOLICO),
        ("content/checagens/.rascunho-oculto.md", regras.OCULTO),
        ("data/redes/.escondida", regras.OCULTO),
    ],
)
def test_links_e_ocultos_no_conteudo(
    site: Path, tmp_path: Path, rel: str, mensagem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    alvo = site / rel
    if rel.endswith("metodologia"):
        shutil.move(alvo, tmp_path / "metodologia")
        alvo.symlink_to(tmp_path / "metodologia", target_is_directory=True)
    elif mensagem == regras.LINK_SIMBOLICO:
        alvo.symlink_to(site / "content/checagens/um.md")
    else:
        alvo.parent.mkdir(parents=True, exist_ok=True)
        alvo.write_text("x\n", encoding="utf-8")
    assert main(["checagens", "validar", "--raiz", str(site)]) == 1
    assert f"{rel}: {mensagem}" in capsys.readouterr().out.splitlines()
    with pytest.raises(BuildError) as recusa:
        build_site(site, tmp_path / "public", workers=1, strict=True)
    assert f"{rel}: {mensagem}" in str(recusa.value)
    # The night's build (not strict) leaves the entry out, reports it, and builds the rest.
    assert f"{rel}: {mensagem}" in build_site(site, tmp_path / "public", workers=1).recusados
    assert (tmp_path / "public" / "index.html").is_file()


def test_validar_um_arquivo_que_e_link(
    projeto: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fora = tmp_path / "fora.md"
    shutil.copy(FIXTURES / "valida.md", fora)
    ligado = projeto / "content/checagens/valida.md"
    ligado.symlink_to(fora)
    assert main(["checagens", "validar", str(ligado), "--raiz", str(projeto)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"content/checagens/valida.md: {regras.LINK_SIMBOLICO}"]


def test_estatico_em_link_simbolico(site: Path, tmp_path: Path) -> None:
    (site / "templates/static/vazou.txt").symlink_to(_segredo(tmp_path))
    with pytest.raises(BuildError, match=r"templates/static/vazou\.txt: é um link simbólico"):
        build_site(site, tmp_path / "public", workers=1)
