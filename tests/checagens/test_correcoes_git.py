"""The correction policy against a real git history (seed: "Política de correções"): once
published, a change of verdict or text needs a new public correction; corrections already
published stay; a published check is not unpublished or deleted."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from eleicoes import main
from jobs.checagens.ocorrencias_toml import acrescentar_ocorrencia_arquivo
from site_builder.conteudo.registros import Ocorrencia
from tests.checagens.conftest import FIXTURES

CHECK = "content/checagens/valida.md"
CORRECAO = '\n[[correcoes]]\ndata = 2026-10-12T10:00:00-03:00\nexplicacao = "O veredito mudou: nova fonte."\n'


def git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Teste",
        "GIT_AUTHOR_EMAIL": "teste@example.org",
        "GIT_COMMITTER_NAME": "Teste",
        "GIT_COMMITTER_EMAIL": "teste@example.org",
    }
    result = subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True)
    return result.stdout


@pytest.fixture
def repo(projeto: Path) -> Path:
    """A git repository holding one published check, committed on branch main."""
    shutil.copy(FIXTURES / "valida.md", projeto / CHECK)
    git(projeto, "init", "-q", "-b", "main")
    git(projeto, "add", "-A")
    git(projeto, "commit", "-q", "-m", "checagem publicada")
    return projeto


def edit(root: Path, old: str, new: str, rel: str = CHECK) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def add_correction(root: Path, rel: str = CHECK) -> None:
    edit(root, "\n+++\n", CORRECAO + "+++\n", rel)


def validar(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    status = main(["checagens", "validar", "--raiz", str(root), *args])
    return status, capsys.readouterr().out.splitlines()


def test_sem_mudanca_passa(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert validar(repo, capsys) == (0, [])


def test_veredito_mudou_sem_correcao(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(repo, 'veredito = "falso"', 'veredito = "enganoso"')
    status, linhas = validar(repo, capsys)
    assert status == 1
    assert linhas == [
        f"{CHECK}:correcoes: a checagem publicada mudou desde HEAD (veredito falso → enganoso); "
        "acrescente uma correção [[correcoes]] com data e explicação"
    ]
    add_correction(repo)
    assert validar(repo, capsys) == (0, [])


@pytest.mark.parametrize(
    ("old", "new", "mudanca"),
    [
        ("O cadastro mostra 120 leitos novos", "O cadastro mostra 150 leitos novos", "explicação"),
        ("300 leitos de UTI em 2025.", "300 leitos de UTI em 2024.", "afirmacao"),
    ],
)
def test_texto_mudou_sem_correcao(
    repo: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, mudanca: str
) -> None:
    edit(repo, old, new)
    status, linhas = validar(repo, capsys)
    assert status == 1
    assert len(linhas) == 1 and f"mudou desde HEAD ({mudanca})" in linhas[0]
    add_correction(repo)
    assert validar(repo, capsys) == (0, [])


def test_reformatar_o_texto_nao_e_mudanca(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(
        repo,
        "O cadastro mostra 120 leitos novos, não 300.",
        "O cadastro mostra\n120 leitos novos,   não 300.\n",
    )
    assert validar(repo, capsys) == (0, [])


def test_nova_ocorrencia_nao_precisa_de_correcao(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nova = Ocorrencia(
        "https://redes.example.org/ana.teste/posts/9",
        "tiktok",
        dt.datetime(2026, 10, 20, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=-3))),
        "data/redes/teste/post-1.warc.gz",
        800,
    )
    assert acrescentar_ocorrencia_arquivo(repo / CHECK, nova) is True
    assert acrescentar_ocorrencia_arquivo(repo / CHECK, nova) is False  # confirming twice changes nothing
    assert validar(repo, capsys) == (0, [])
    assert git(repo, "diff", "--numstat").split()[:2] == ["7", "0"]  # only the new block was added


def test_correcao_publicada_nao_se_apaga(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(repo, 'veredito = "falso"', 'veredito = "enganoso"')
    add_correction(repo)
    git(repo, "commit", "-q", "-am", "correção")
    edit(repo, "O veredito mudou: nova fonte.", "Ajuste.")
    status, linhas = validar(repo, capsys)
    assert status == 1
    assert linhas == [
        f"{CHECK}:correcoes: correções já publicadas (em HEAD) não podem ser apagadas nem alteradas"
    ]
    edit(repo, CORRECAO.replace("O veredito mudou: nova fonte.", "Ajuste."), "\n")
    assert validar(repo, capsys)[0] == 1


def test_publicada_nao_volta_atras(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(repo, 'status = "publicada"', 'status = "rascunho"')
    status, linhas = validar(repo, capsys)
    assert status == 1
    assert linhas == [
        f"{CHECK}:status: a checagem já estava publicada em HEAD; "
        "para retirá-la ou mudá-la, publique uma correção"
    ]


def test_renomear_nao_escapa_da_regra(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    git(repo, "mv", CHECK, "content/checagens/novo-nome.md")
    edit(repo, 'veredito = "falso"', 'veredito = "impreciso"', "content/checagens/novo-nome.md")
    status, linhas = validar(repo, capsys)
    assert status == 1
    assert linhas[0].startswith("content/checagens/novo-nome.md:correcoes: a checagem publicada mudou")


def test_apagar_publicada_e_erro(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / CHECK).unlink()
    status, linhas = validar(repo, capsys)
    assert status == 1
    assert linhas == [
        f"{CHECK}: a checagem estava publicada em HEAD e foi apagada; uma checagem publicada não sai do ar: "
        "restaure o arquivo e publique uma correção"
    ]


def test_em_revisao_muda_livremente(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    pending = text.replace('status = "publicada"', 'status = "em_revisao"').replace(
        "publicado_em = 2026-10-10T10:00:00-03:00\n", ""
    )
    (projeto / CHECK).write_text(pending, encoding="utf-8")
    git(projeto, "init", "-q", "-b", "main")
    git(projeto, "add", "-A")
    git(projeto, "commit", "-q", "-m", "em revisão")
    (projeto / CHECK).write_text(
        text.replace('veredito = "falso"', 'veredito = "enganoso"'), encoding="utf-8"
    )
    assert validar(projeto, capsys) == (0, [])


def test_pull_request_compara_com_a_branch_de_destino(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In CI the branch is committed: HEAD already holds the change, `--base main` sees it."""
    git(repo, "checkout", "-q", "-b", "proposta")
    edit(repo, 'veredito = "falso"', 'veredito = "enganoso"')
    git(repo, "commit", "-q", "-am", "muda o veredito")
    assert validar(repo, capsys) == (0, [])
    status, linhas = validar(repo, capsys, "--base", "main")
    assert status == 1
    assert "mudou desde main (veredito falso → enganoso)" in linhas[0]
    add_correction(repo)
    git(repo, "commit", "-q", "-am", "com correção")
    assert validar(repo, capsys, "--base", "main") == (0, [])


def test_base_desconhecida(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["checagens", "validar", "--raiz", str(repo), "--base", "nao-existe"]) == 2
    assert "revisão desconhecida" in capsys.readouterr().err
    assert main(["checagens", "validar", "--raiz", str(repo), "--base=--output=x"]) == 2


def test_repositorio_sem_commits(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(FIXTURES / "valida.md", projeto / CHECK)
    git(projeto, "init", "-q", "-b", "main")
    status = main(["checagens", "validar", "--raiz", str(projeto)])
    captured = capsys.readouterr()
    assert status == 0 and "repositório git" not in captured.err


def test_projeto_numa_subpasta_do_repositorio(
    tmp_path: Path, projeto: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(FIXTURES / "valida.md", projeto / CHECK)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "projeto em subpasta")
    edit(projeto, 'veredito = "falso"', 'veredito = "enganoso"')
    assert validar(projeto, capsys)[0] == 1
    (projeto / CHECK).unlink()
    status, linhas = validar(projeto, capsys)
    assert status == 1 and linhas[0].startswith(f"{CHECK}: a checagem estava publicada")
