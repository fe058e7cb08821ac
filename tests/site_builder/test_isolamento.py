"""One refused check never stops the live pages (issue 22, item 6): the default build (the
scheduler's) leaves the refused check out, keeps its last published page, rebuilds everything
else (here a debate page whose data changed) and reports the problem in Portuguese; `--strict`
(editors, CI) still refuses the whole build and keeps the previous site as it was. Before the fix,
one refused check failed the whole build, so the debate page stayed stale. The other content files
a build can do without are isolated too: test_isolamento_arquivos.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eleicoes import main
from site_builder.build import build_site
from site_builder.errors import BuildError
from tests.site_builder.conftest import REPO, snapshot

DEBATE = "data/debates/demo-governo-2026-10-15"
TITULO = "Debate de demonstração: governo do estado (candidatos fictícios)"
PAGINA_DEBATE = "debates/demo-governo-2026-10-15/index.html"
PAGINA_CHECAGEM = "checagens/afirmacao-um/index.html"


@pytest.fixture
def ao_vivo(project: Path) -> Path:
    """The fixture project with the repository's sample debate (a live page) and its candidates."""
    shutil.copytree(REPO / DEBATE, project / DEBATE)
    for candidato in (REPO / "content/candidatos").iterdir():
        shutil.copy(candidato, project / "content/candidatos")
    return project


def _trocar(path: Path, antes: str, depois: str) -> None:
    texto = path.read_text(encoding="utf-8")
    assert antes in texto
    path.write_text(texto.replace(antes, depois), encoding="utf-8")


def test_checagem_recusada_nao_segura_o_debate(ao_vivo: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(ao_vivo, out, workers=1)
    antes = snapshot(out)
    assert "Uma afirmação verificável." in antes[PAGINA_CHECAGEM].decode("utf-8")
    _trocar(ao_vivo / "content/checagens/um.md", 'veredito = "falso"', 'veredito = "mentira"')
    _trocar(ao_vivo / DEBATE / "debate.toml", TITULO, "Debate ao vivo: título novo")

    with pytest.raises(BuildError, match=r"um\.md:5: veredito: .mentira. não existe"):
        build_site(ao_vivo, out, workers=1, strict=True)
    assert snapshot(out) == antes  # strict: nothing changes

    report = build_site(ao_vivo, out, workers=1)
    assert report.recusados == [
        "content/checagens/um.md:5: veredito: 'mentira' não existe (use "
        "verdadeiro, impreciso, enganoso, falso, sem_dados)"
    ]
    assert "arquivos de conteúdo recusados" in report.resumo()
    depois = snapshot(out)
    assert "título novo" in depois[PAGINA_DEBATE].decode("utf-8")  # the live page was rebuilt
    assert depois[PAGINA_CHECAGEM] == antes[PAGINA_CHECAGEM]  # the last good page stays published
    assert set(antes) <= set(depois)  # nothing was deleted while the content is refused

    _trocar(ao_vivo / "content/checagens/um.md", 'veredito = "mentira"', 'veredito = "enganoso"')
    report = build_site(ao_vivo, out, workers=1)
    assert report.recusados == []
    assert "Enganoso" in (out / PAGINA_CHECAGEM).read_text(encoding="utf-8")


def test_cli_diz_o_que_ficou_de_fora(
    ao_vivo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _trocar(ao_vivo / "content/checagens/um.md", 'veredito = "falso"', 'veredito = "mentira"')
    assert main(["build", "--raiz", str(ao_vivo), "--saida", str(tmp_path / "public")]) == 1
    erro = capsys.readouterr().err
    assert "erro: content/checagens/um.md:5: veredito: 'mentira' não existe" in erro
    assert "checagens recusadas mantêm a última versão publicada" in erro
    assert (tmp_path / "public" / PAGINA_DEBATE).is_file()


def test_estrito_recusa_uma_pagina_de_metodologia_quebrada(ao_vivo: Path, tmp_path: Path) -> None:
    """`--strict` refuses the whole build for a broken methodology page too (the default build
    reads its last accepted version: test_isolamento_arquivos.py)."""
    out = tmp_path / "public"
    build_site(ao_vivo, out, workers=1)
    antes = snapshot(out)
    _trocar(ao_vivo / "content/metodologia/primeira.md", "ordem = 1", "ordem = [")
    with pytest.raises(BuildError, match=r"content/metodologia/primeira\.md:4: ordem"):
        build_site(ao_vivo, out, workers=1, strict=True)
    assert snapshot(out) == antes
