"""Every rule of the desk, one failing fixture each, through `eleicoes checagens validar`.

Each file in tests/fixtures/checagens/invalidas/ breaks one rule; its `# espera: campo | trecho`
lines list exactly the problems `validar` must report (no more, no fewer).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from eleicoes import main
from site_builder.conteudo import regras
from site_builder.conteudo.registros import Fonte
from tests.checagens.conftest import FIXTURES

INVALIDAS = sorted((FIXTURES / "invalidas").iterdir())
ESPERA = re.compile(r"^# espera: (.*?) \| (.*)$", re.MULTILINE)
BUILD = re.compile(r"^# build: (\S+)$", re.MULTILINE)


def expectativas(path: Path) -> tuple[list[tuple[str, str]], str]:
    """(expected (field, fragment) pairs, what the build does with the file)."""
    text = path.read_bytes().decode("utf-8", "replace")  # the Latin-1 fixture's header is ASCII
    found = BUILD.search(text)
    assert found, path.name
    return [(campo.strip(), trecho) for campo, trecho in ESPERA.findall(text)], found.group(1)


def destino(projeto: Path, fixture: Path) -> Path:
    folder = "candidatos" if fixture.suffix == ".toml" else "checagens"
    return projeto / "content" / folder / fixture.name


def onde(rel: str, campo: str) -> re.Pattern[str]:
    """Where a problem message starts: `arquivo:campo: ` or, when the field's line is known,
    `arquivo:linha: campo: ` (`arquivo: ` or `arquivo:linha: ` without a field)."""
    if not campo:
        return re.compile(re.escape(rel) + r"(?::\d+)?: ")
    return re.compile(re.escape(rel) + rf"(?::{re.escape(campo)}|:\d+: {re.escape(campo)}): ")


def assert_problemas(linhas: list[str], rel: str, esperados: list[tuple[str, str]]) -> None:
    """`linhas` are exactly the expected problems (see `onde`)."""
    assert len(linhas) == len(esperados), "\n".join(linhas)
    for campo, trecho in esperados:
        prefixo = onde(rel, campo)
        assert any(prefixo.match(linha) and trecho in linha for linha in linhas), (campo, trecho, linhas)


def test_fixture_valida_passa(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(FIXTURES / "valida.md", projeto / "content/checagens/valida.md")
    assert main(["checagens", "validar", "--raiz", str(projeto)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "tudo certo; verificados: 1 checagem e 1 candidato" in captured.err


@pytest.mark.parametrize("fixture", INVALIDAS, ids=lambda p: p.name)
def test_cada_regra_tem_fixture_que_falha(
    projeto: Path, fixture: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    esperados, _build = expectativas(fixture)
    assert esperados, f"{fixture.name}: sem linhas '# espera:'"
    alvo = destino(projeto, fixture)
    shutil.copy(fixture, alvo)
    assert main(["checagens", "validar", str(alvo), "--raiz", str(projeto)]) == 1
    captured = capsys.readouterr()
    rel = alvo.relative_to(projeto).as_posix()
    assert_problemas(captured.out.splitlines(), rel, esperados)
    assert re.search(r"\b(1 problema|\d+ problemas) em 1 arquivo \(", captured.err), captured.err


def test_id_e_endereco_unicos(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    valida = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    (projeto / "content/checagens/a.md").write_text(valida, encoding="utf-8")
    (projeto / "content/checagens/b.md").write_text(valida, encoding="utf-8")
    assert main(["checagens", "validar", "--raiz", str(projeto)]) == 1
    linhas = capsys.readouterr().out.splitlines()
    assert linhas == [
        "content/checagens/b.md:id: 'v-1' já é usado por content/checagens/a.md",
        "content/checagens/a.md:id: 'v-1' também é usado por content/checagens/b.md",
        "content/checagens/b.md:slug: 'valida' já é usado por content/checagens/a.md",
        "content/checagens/a.md:slug: 'valida' também é usado por content/checagens/b.md",
    ]


def test_validar_um_arquivo_acha_o_id_repetido_no_outro(
    projeto: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`validar FILE` on the first of two files with one id: the other file is read and named."""
    valida = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    (projeto / "content/checagens/a.md").write_text(valida, encoding="utf-8")
    (projeto / "content/checagens/b.md").write_text(valida.replace('slug = "valida"', 'slug = "b"'), "utf-8")
    alvo = projeto / "content/checagens/a.md"
    assert main(["checagens", "validar", str(alvo), "--raiz", str(projeto)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "content/checagens/a.md:id: 'v-1' também é usado por content/checagens/b.md"
    ]


def test_caminho_isolado_ainda_ve_o_projeto(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Validating one file still checks its id against every other file of the project."""
    valida = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    (projeto / "content/checagens/a.md").write_text(valida, encoding="utf-8")
    outro = projeto.parent / "fora.md"
    outro.write_text(valida.replace('slug = "valida"', 'slug = "outra"'), encoding="utf-8")
    assert main(["checagens", "validar", str(outro), "--raiz", str(projeto)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{outro.as_posix()}:id: 'v-1' já é usado por content/checagens/a.md"
    ]


def test_rascunho_aceita_qualquer_coisa_menos_id_ruim(
    projeto: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A draft (what the AI-assisted draft writes) is never read beyond its id: any field goes."""
    (projeto / "content/checagens/r.md").write_text(
        '+++\nid = "r-1"\nstatus = "rascunho"\nveredito = "talvez"\nrevisor = "ninguem"\n'
        'publicado_em = 2026-10-10T10:00:00-03:00\n[rascunho]\nfatos = ["um", "dois"]\n+++\n',
        encoding="utf-8",
    )
    assert main(["checagens", "validar", "--raiz", str(projeto)]) == 0
    assert capsys.readouterr().out == ""


def test_caminho_inexistente_e_erro_de_uso(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["checagens", "validar", str(projeto / "nao-existe.md"), "--raiz", str(projeto)]) == 2
    assert "arquivo ou pasta não encontrado" in capsys.readouterr().err


def test_sem_git_avisa_que_nao_comparou(projeto: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(FIXTURES / "valida.md", projeto / "content/checagens/valida.md")
    assert main(["checagens", "validar", "--raiz", str(projeto)]) == 0
    assert "não é um repositório git: a regra de correções" in capsys.readouterr().err
    assert main(["checagens", "validar", "--raiz", str(projeto), "--base", "main"]) == 2


def test_mensagem_tem_arquivo_campo_e_problema() -> None:
    problema = regras.Problema("content/checagens/x.md", "fontes[2].url", "use https://")
    assert str(problema) == "content/checagens/x.md:fontes[2].url: use https://"
    assert str(regras.Problema("x.md", "", "vazio")) == "x.md: vazio"


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://www.ibge.gov.br/", True),
        ("http://datasus.saude.gov.br/x?y=1", True),
        ("https://8.8.8.8/", True),
        ("ftp://ibge.gov.br/", False),
        ("https://localhost/", False),
        ("https://intranet/", False),
        ("https://10.0.0.1/", False),
        ("https://[::1]/", False),
        ("https://ibge.gov.br/a b", False),
        ("javascript:alert(1)", False),
        # issue 22, item 8: forms a browser reads as another host than it seems
        ("http://127.1/", False),
        ("http://0x7f.1/", False),
        ("http://2130706433/", False),
        ("https://localhost./", False),
        ("https://127.0.0.1./", False),
        ("https://ibge.gov.br@golpe.example/", False),
        ("https://usuario:senha@ibge.gov.br/", False),
        ("https://ibge.gov.br:8443/", False),
        ("https://ibge.gov.br:99999/", False),
        ("https://ibge.gov.br:443/dados", True),
        ("http://www.1234.com.br/", True),
        ("https://site.123/", False),
    ],
)
def test_url_publica(url: str, ok: bool) -> None:
    assert (regras.url_publica(url) is None) is ok


def test_leitura_e_pura_e_deterministica() -> None:
    texto = (FIXTURES / "valida.md").read_text(encoding="utf-8")
    fonte = Fonte("content/checagens/valida.md", "x")
    primeira = regras.ler_checagem(texto, fonte, None, None)
    assert primeira == regras.ler_checagem(texto, fonte, None, None)
    assert primeira.problemas == () and primeira.aprovacao == ()
    checagem = primeira.checagem
    assert checagem is not None
    assert [o.alcance for o in checagem.ocorrencias] == [12000]
    assert [e.tipo for e in checagem.historico] == ["enviada", "aprovada"]


def test_workflow_do_pull_request_roda_o_validar() -> None:
    """The CI file the branch protection requires: validar against the target branch, strict build."""
    from tests.checagens.conftest import REPO

    workflow = (REPO / ".github/workflows/checagens.yml").read_text(encoding="utf-8")
    assert "pull_request:" in workflow and "fetch-depth: 0" in workflow
    assert 'eleicoes checagens validar --base "origin/$BRANCH_DESTINO"' in workflow
    assert "eleicoes build --strict" in workflow
    assert "name: validar" in workflow  # the status check named in docs/CHECAGENS.md
    guide = (REPO / "docs/CHECAGENS.md").read_text(encoding="utf-8")
    assert "`checagens / validar`" in guide and "Require approvals" in guide
