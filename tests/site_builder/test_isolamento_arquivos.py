"""One broken content file never stops the live pages (issue 22): a section intro, a methodology
page, a candidate file, the editors' registry or `site.toml` broken during the night. The default
build (the scheduler's) reads the file's last accepted version instead (`site_builder/last_good.py`),
rebuilds the race and debate pages with the new data, and reports the file and its problem;
`--strict` still refuses the whole build. Without an accepted version the file is left out and what
depends on it is refused (here every check, when the editors' registry is broken). Before the fix,
any of these files failed the whole build, so the live pages froze."""

from __future__ import annotations

import hashlib
import logging
import shutil
from pathlib import Path

import pytest

from eleicoes import main
from scheduler import Outcome, SiteJob
from site_builder import last_good
from site_builder.build import build_site
from site_builder.errors import BuildError
from tests.projecao.noite import runoff_capture, set_latest
from tests.site_builder.conftest import FIXTURE_CONTENT, FIXTURE_DATA, REPO, snapshot

DEBATE = "data/debates/demo-governo-2026-10-15"
TITULO_DEBATE = "Debate de demonstração: governo do estado (candidatos fictícios)"
PAGINA_DEBATE = "debates/demo-governo-2026-10-15/index.html"
CORRIDA = "data/tse/6258/presidente"
PAGINA_CORRIDA = "projecao/6258-presidente/index.html"
PAGINA_CHECAGEM = "checagens/afirmacao-um/index.html"
NOVA = "nova-captura"  # the runoff capture that arrives while a file is broken, kept aside

# (file, text replaced to break it, the page whose last accepted version must stay, a text of that version)
QUEBRAS = {
    "secao": (
        "content/secoes/projecao.md",
        'titulo = "Seção projecao"',
        "titulo = [",
        "projecao/index.html",
        "Seção projecao",
    ),
    "metodologia": (
        "content/metodologia/primeira.md",
        "ordem = 1",
        "ordem = [",
        "metodologia/primeira/index.html",
        "Primeira página",
    ),
    "candidato": (
        "content/candidatos/rui-amaral.toml",
        'nome = "Rui Amaral"',
        "nome = ",
        PAGINA_CORRIDA,
        "Rui Amaral",
    ),
    "editores": (
        "content/editores.toml",
        'nome = "Edite Alves"',
        "nome = Edite",
        PAGINA_CHECAGEM,
        "Edite Alves",
    ),
    "site": ("content/site.toml", 'titulo = "Site de teste"', "titulo = [", "index.html", "Site de teste"),
}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture project with a live debate, the demonstration candidates and a runoff race at
    5 % counted; the next capture (40 %) waits in NOVA for the night to go on."""
    root = tmp_path_factory.mktemp("isolamento") / "projeto"
    shutil.copytree(FIXTURE_CONTENT, root / "content")
    shutil.copytree(FIXTURE_DATA, root / "data")
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / DEBATE, root / DEBATE)
    for candidato in (REPO / "content/candidatos").iterdir():
        shutil.copy(candidato, root / "content/candidatos")
    race = root / CORRIDA
    set_latest(race, runoff_capture(race, 0, 5.0))
    nova = runoff_capture(race, 1, 40.0)
    (root / NOVA).mkdir()
    (race / nova).rename(root / NOVA / nova)
    (root / "eleicoes.toml").write_text("[publicar]\n\n[agendador]\ntarefas = []\n", encoding="utf-8")
    return root


@pytest.fixture
def projeto(base: Path, tmp_path: Path) -> Path:
    """A copy of `base` for one test."""
    root = tmp_path / "projeto"
    shutil.copytree(base, root)
    return root


def _trocar(path: Path, antes: str, depois: str) -> None:
    texto = path.read_text(encoding="utf-8")
    assert antes in texto
    path.write_text(texto.replace(antes, depois), encoding="utf-8")


def _a_noite_continua(root: Path) -> None:
    """New data for both live pages: the next runoff capture and a new debate title."""
    race = root / CORRIDA
    captura = next((root / NOVA).iterdir())
    captura.rename(race / captura.name)
    set_latest(race, captura.name)
    _trocar(root / DEBATE / "debate.toml", TITULO_DEBATE, "Debate ao vivo: título novo")


@pytest.mark.parametrize("tipo", sorted(QUEBRAS))
def test_arquivo_quebrado_nao_segura_a_projecao_nem_o_debate(
    projeto: Path, tmp_path: Path, tipo: str
) -> None:
    rel, antes_texto, quebrado, pagina, texto_aceito = QUEBRAS[tipo]
    out = tmp_path / "public"
    assert build_site(projeto, out, workers=1).recusados == []
    antes = snapshot(out)
    assert texto_aceito in antes[pagina].decode("utf-8")
    _trocar(projeto / rel, antes_texto, quebrado)
    _a_noite_continua(projeto)

    with pytest.raises(BuildError, match=rel.rsplit("/", 1)[-1].replace(".", r"\.")):
        build_site(projeto, out, workers=1, strict=True)
    assert snapshot(out) == antes  # strict: nothing changes

    report = build_site(projeto, out, workers=1)
    assert report.recusados, report.resumo()
    assert report.recusados[0].startswith((rel, str(projeto / rel))), report.recusados
    assert (
        report.recusados[-1] == f"{rel}: arquivo recusado; o site foi feito com a última versão aceita dele"
    )
    depois = snapshot(out)
    assert depois[PAGINA_CORRIDA] != antes[PAGINA_CORRIDA]  # the race page shows the new capture
    assert "título novo" in depois[PAGINA_DEBATE].decode("utf-8")  # and the debate page its new title
    assert texto_aceito in depois[pagina].decode("utf-8")  # what the broken file gave, as last accepted
    assert set(antes) <= set(depois)

    _trocar(projeto / rel, quebrado, antes_texto)  # fixed: the file is read again, nothing refused
    assert build_site(projeto, out, workers=1).recusados == []


def test_sem_versao_aceita_o_que_depende_do_arquivo_fica_de_fora(projeto: Path, tmp_path: Path) -> None:
    """The first build already finds the editors' registry broken: no accepted version, so every
    check naming an editor is withheld (two-person rule: nobody is identified); the race and
    debate pages are built all the same."""
    _trocar(projeto / "content/editores.toml", 'nome = "Edite Alves"', "nome = Edite")
    out = tmp_path / "public"
    report = build_site(projeto, out, workers=1)
    assert report.recusados[0].startswith("content/editores.toml: ")
    assert "content/editores.toml: arquivo recusado e sem versão aceita anterior: ficou de fora do site" in (
        report.recusados
    )
    naming = [
        a for a in report.avisos if a.startswith("content/checagens/um.md:") and "registro de editores" in a
    ]
    assert naming and all(a.endswith("(checagem não publicada)") for a in naming), report.avisos
    assert not (out / PAGINA_CHECAGEM).exists()
    assert (out / PAGINA_CORRIDA).is_file() and (out / PAGINA_DEBATE).is_file()


def test_job_do_agendador_publica_a_noite_com_um_arquivo_quebrado(
    projeto: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Through the scheduler's site job (build + publish to its folder): the live pages go out."""
    job = SiteJob(projeto, projeto / "public", projeto / "eleicoes.toml", publish=True, lock_wait_s=1)
    assert isinstance(job(), Outcome)
    publicado = projeto / ".cache" / "publicado"
    antes = (publicado / PAGINA_CORRIDA).read_bytes()
    _trocar(projeto / "content/metodologia/primeira.md", "ordem = 1", "ordem = [")
    _a_noite_continua(projeto)
    with caplog.at_level(logging.WARNING, logger="eleicoes.build"):
        result = job()
    assert isinstance(result, Outcome) and result.changed
    assert "arquivos de conteúdo recusados" in result.detail
    assert "content/metodologia/primeira.md:4: ordem" in caplog.text
    assert (publicado / PAGINA_CORRIDA).read_bytes() != antes
    assert "título novo" in (publicado / PAGINA_DEBATE).read_text(encoding="utf-8")
    assert "Primeira página" in (publicado / "metodologia/primeira/index.html").read_text(encoding="utf-8")


def test_secao_sem_versao_aceita_fica_como_estava(
    projeto: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A section broken once `.cache/` was cleared: its last published page stays as it was, the
    live pages are rebuilt all the same, and `eleicoes build` says which file and why."""
    out = tmp_path / "public"
    build_site(projeto, out, workers=1)
    antes = snapshot(out)
    shutil.rmtree(projeto / last_good.FOLDER)
    _trocar(projeto / "content/secoes/projecao.md", 'titulo = "Seção projecao"', "titulo = [")
    _a_noite_continua(projeto)
    capsys.readouterr()
    assert main(["build", "--raiz", str(projeto), "--saida", str(out)]) == 1
    erro = capsys.readouterr().err
    assert "erro: content/secoes/projecao.md:2: titulo: " in erro
    assert "erro: content/secoes/projecao.md: arquivo recusado e sem versão aceita anterior" in erro
    depois = snapshot(out)
    assert depois["projecao/index.html"] == antes["projecao/index.html"]
    assert depois[PAGINA_CORRIDA] != antes[PAGINA_CORRIDA]
    assert "título novo" in depois[PAGINA_DEBATE].decode("utf-8")


def test_copias_aceitas_so_do_que_foi_aceito(tmp_path: Path) -> None:
    """What `last_good.save` keeps: the accepted bytes of each kind of file (never a check, never
    bytes changed since they were read); a deleted page, candidate or registry loses its copy, a
    missing section or site.toml (required: an error, not a deletion) keeps it."""
    arquivos = {
        "content/site.toml": b"titulo = 'a'\n",
        "content/editores.toml": b"[[editores]]\n",
        "content/secoes/inicio.md": b"+++\n+++\n",
        "content/metodologia/m.md": b"+++\nordem = 1\n+++\n",
        "content/candidatos/x.toml": b"nome = 'X'\n",
        "content/checagens/c.md": b"+++\n+++\n",
    }
    for rel, data in arquivos.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    last_good.save(tmp_path, {rel: hashlib.sha256(d).hexdigest() for rel, d in arquivos.items()})
    for rel, data in arquivos.items():
        copia = last_good.copy_of(tmp_path, rel)
        if rel.startswith("content/checagens/"):
            assert copia is None
        else:
            assert copia is not None and copia.read_bytes() == data, rel

    metodo = "content/metodologia/m.md"
    (tmp_path / metodo).write_bytes(b"+++\nordem = [\n+++\n")  # edited after the build read it
    last_good.save(tmp_path, {metodo: hashlib.sha256(b"+++\nordem = 2\n+++\n").hexdigest()})
    copia = last_good.copy_of(tmp_path, metodo)
    assert copia is not None and copia.read_bytes() == arquivos[metodo]

    for rel in arquivos:
        (tmp_path / rel).unlink()
    last_good.save(tmp_path, {})
    guardadas = {rel for rel in arquivos if last_good.copy_of(tmp_path, rel) is not None}
    assert guardadas == {"content/site.toml", "content/secoes/inicio.md"}


@pytest.mark.parametrize("entrada", ["link", "oculto"])
def test_link_simbolico_ou_arquivo_oculto_nao_segura_a_noite(
    projeto: Path, tmp_path: Path, entrada: str
) -> None:
    """A symlink or a hidden file dropped into the content: never read, never published, reported,
    and the race and debate pages are built with the new data all the same (strict: refused)."""
    out = tmp_path / "public"
    build_site(projeto, out, workers=1)
    antes = snapshot(out)
    fora = tmp_path / "fora-do-projeto.md"
    fora.write_text("segredo de fora do projeto\n", encoding="utf-8")
    rel = "content/checagens/copia.md" if entrada == "link" else "content/checagens/.rascunho.md"
    if entrada == "link":
        (projeto / rel).symlink_to(fora)
    else:
        shutil.copy(fora, projeto / rel)
    _a_noite_continua(projeto)
    with pytest.raises(BuildError, match=rel.replace(".", r"\.")):
        build_site(projeto, out, workers=1, strict=True)
    report = build_site(projeto, out, workers=1)
    assert any(r.startswith(rel) for r in report.recusados), report.recusados
    depois = snapshot(out)
    assert depois[PAGINA_CORRIDA] != antes[PAGINA_CORRIDA]
    assert "título novo" in depois[PAGINA_DEBATE].decode("utf-8")
    assert not any(b"segredo de fora do projeto" in data for data in depois.values())
