"""`eleicoes checagens aprovacao`: the GitHub account that approved the pull request is the
registered reviewer of every published check it changes. A recorded `pull_request_review` event
(tests/fixtures/github/pull_request_review.json) drives it over a real git repository."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from eleicoes import main
from tests.checagens.conftest import REPO

EVENTO = json.loads((REPO / "tests/fixtures/github/pull_request_review.json").read_text(encoding="utf-8"))
CHECAGEM = "content/checagens/demo-helena-leitos.md"  # autor fernanda-lima, revisor carla-menezes


def _git(raiz: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=Redação", "-c", "user.email=redacao@example.org", *args],
        cwd=raiz,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def _commit(raiz: Path, mensagem: str) -> str:
    _git(raiz, "add", "-A")
    _git(raiz, "commit", "-q", "-m", mensagem)
    return _git(raiz, "rev-parse", "HEAD")


@pytest.fixture
def repositorio(tmp_path: Path) -> tuple[Path, str]:
    """The desk's repository: the target branch holds the registry; the pull request's commit
    (checked out) publishes one check. Returns (folder, commit of the target branch)."""
    raiz = tmp_path / "redacao"
    (raiz / "content" / "checagens").mkdir(parents=True)
    shutil.copy(REPO / "content/editores.toml", raiz / "content/editores.toml")
    _git(raiz, "init", "-q", "-b", "main")
    base = _commit(raiz, "registro de editores")
    shutil.copy(REPO / CHECAGEM, raiz / CHECAGEM)
    return raiz, base


def _evento(raiz: Path, base: str, tmp_path: Path, **review: str) -> Path:
    head = (
        _commit(raiz, "checagem dos leitos")
        if _git(raiz, "status", "--porcelain")
        else _git(raiz, "rev-parse", "HEAD")
    )
    evento: dict[str, Any] = copy.deepcopy(EVENTO)
    evento["pull_request"]["base"]["sha"] = base
    evento["pull_request"]["head"]["sha"] = head
    evento["review"]["commit_id"] = review.pop("commit_id", head)
    for chave, valor in review.items():
        if chave == "login":
            evento["review"]["user"]["login"] = evento["sender"]["login"] = valor
        elif chave == "sem_revisao":
            del evento["review"]
        else:
            evento["review"][chave] = valor
    caminho = tmp_path / "evento.json"
    caminho.write_text(json.dumps(evento), encoding="utf-8")
    return caminho


def _rodar(raiz: Path, evento: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["checagens", "aprovacao", "--evento", str(evento), "--raiz", str(raiz)])
    saida = capsys.readouterr()
    return status, saida.out, saida.err


def test_registered_reviewer_approves(
    repositorio: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raiz, base = repositorio
    status, out, err = _rodar(raiz, _evento(raiz, base, tmp_path), capsys)
    assert (status, out) == (0, "")
    assert "aprovado por @carla-menezes-demo, revisor registrado de 1 checagem(ns)" in err


def test_github_logins_ignore_case(
    repositorio: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raiz, base = repositorio
    assert _rodar(raiz, _evento(raiz, base, tmp_path, login="Carla-Menezes-DEMO"), capsys)[0] == 0


def test_author_cannot_approve(
    repositorio: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raiz, base = repositorio
    status, out, _ = _rodar(raiz, _evento(raiz, base, tmp_path, login="fernanda-lima-demo"), capsys)
    assert status == 1
    assert out.splitlines() == [
        "@fernanda-lima-demo abriu o pull request e não pode aprová-lo",
        f"{CHECAGEM}: quem aprovou foi @fernanda-lima-demo ('fernanda-lima'), mas o revisor da checagem é "
        "'carla-menezes' (@carla-menezes-demo); a aprovação precisa ser dessa pessoa",
        f"{CHECAGEM}: @fernanda-lima-demo é a conta da autora ou do autor ('fernanda-lima')",
    ]


def test_unregistered_account_cannot_approve(
    repositorio: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raiz, base = repositorio
    status, out, _ = _rodar(raiz, _evento(raiz, base, tmp_path, login="carla-menezes-dem0"), capsys)
    assert status == 1
    assert "quem aprovou foi @carla-menezes-dem0, que não está no registro de editores" in out


def test_registry_changed_by_the_pull_request_does_not_count(
    repositorio: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raiz, base = repositorio
    registro = raiz / "content/editores.toml"
    registro.write_text(
        registro.read_text(encoding="utf-8").replace('"carla-menezes-demo"', '"conta-de-fachada"'),
        encoding="utf-8",
    )
    status, out, err = _rodar(raiz, _evento(raiz, base, tmp_path, login="conta-de-fachada"), capsys)
    assert status == 1
    assert "o revisor da checagem é 'carla-menezes' (@carla-menezes-demo)" in out
    assert "content/editores.toml muda neste pull request" in err


@pytest.mark.parametrize(
    ("mudanca", "mensagem"),
    [
        ({"state": "commented"}, "a revisão de @carla-menezes-demo não é uma aprovação (estado 'commented')"),
        ({"state": "changes_requested"}, "não é uma aprovação (estado 'changes_requested')"),
        ({"commit_id": "0" * 40}, "a aprovação de @carla-menezes-demo é de um commit anterior"),
        ({"sem_revisao": ""}, f"aguardando a aprovação do revisor registrado de: {CHECAGEM}"),
    ],
)
def test_anything_but_an_approval_of_this_commit_fails(
    repositorio: tuple[Path, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mudanca: dict[str, str],
    mensagem: str,
) -> None:
    raiz, base = repositorio
    status, out, _ = _rodar(raiz, _evento(raiz, base, tmp_path, **mudanca), capsys)
    assert status == 1
    assert mensagem in out


def test_pull_request_without_published_checks_has_nothing_to_verify(
    repositorio: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raiz, base = repositorio
    (raiz / CHECAGEM).write_text(
        (raiz / CHECAGEM).read_text(encoding="utf-8").replace('status = "publicada"', 'status = "rascunho"'),
        encoding="utf-8",
    )
    status, out, err = _rodar(raiz, _evento(raiz, base, tmp_path, sem_revisao=""), capsys)
    assert (status, out) == (0, "")
    assert "nenhuma checagem publicada muda neste pull request" in err


def test_broken_event_is_a_usage_error(
    repositorio: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raiz, _ = repositorio
    evento = tmp_path / "evento.json"
    evento.write_text('{"action": "submitted"}', encoding="utf-8")
    status, _, err = _rodar(raiz, evento, capsys)
    assert status == 2
    assert "erro: o evento do GitHub não tem pull_request.base.sha" in err


def test_workflow_runs_the_approval_check_on_every_review() -> None:
    workflow = (REPO / ".github/workflows/checagens.yml").read_text(encoding="utf-8")
    assert "pull_request_review:" in workflow and "name: aprovacao" in workflow
    assert 'eleicoes checagens aprovacao --evento "$GITHUB_EVENT_PATH"' in workflow
    guide = (REPO / "docs/CHECAGENS.md").read_text(encoding="utf-8")
    assert "`checagens / aprovacao`" in guide and "content/editores.toml" in guide
