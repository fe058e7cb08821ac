"""The build enforces the correction rule itself (issue 23, item 10): a published check whose
verdict or text changed with no new correction is refused, compared with the record of what the
site published (`checagens/publicadas.json`) or, on a fresh clone, with the committed ledger
(`content/checagens/publicadas.json`, written by `eleicoes checagens registrar`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from eleicoes import main
from site_builder import registro_publicado
from site_builder.build import build_site
from site_builder.conteudo import publicado
from site_builder.conteudo.frontmatter import split_body
from site_builder.conteudo.registros import ChecagemResumo
from site_builder.errors import BuildError

CHECK = "content/checagens/um.md"
PAGE = "checagens/afirmacao-um/index.html"
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


def edit(root: Path, old: str, new: str) -> None:
    path = root / CHECK
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_build_recusa_veredito_mudado_sem_correcao(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(site, out, strict=True, workers=1)
    record = json.loads((out / "checagens" / "publicadas.json").read_text(encoding="utf-8"))
    assert record["checagens"]["t-1"]["veredito"] == "falso"
    edit(site, 'veredito = "falso"', 'veredito = "enganoso"')
    with pytest.raises(BuildError) as erro:
        build_site(site, out, strict=True, workers=1)
    assert (
        f"{CHECK}:1: correcoes: a checagem publicada mudou desde a última publicação do site "
        "(veredito falso → enganoso)"
    ) in str(erro.value)
    # Lenient (the election night): the check is left out, its published page stays, the rest builds.
    report = build_site(site, out, workers=1)
    assert [r for r in report.recusados if r.startswith(CHECK)]
    assert "Falso" in (out / PAGE).read_text(encoding="utf-8")
    record = json.loads((out / "checagens" / "publicadas.json").read_text(encoding="utf-8"))
    assert record["checagens"]["t-1"]["veredito"] == "falso"  # still what the site shows
    # With a dated correction the change is published.
    edit(site, "\n+++\n", CORRECAO + "+++\n")
    report = build_site(site, out, strict=True, workers=1)
    assert "Enganoso" in (out / PAGE).read_text(encoding="utf-8")
    record = json.loads((out / "checagens" / "publicadas.json").read_text(encoding="utf-8"))
    assert record["checagens"]["t-1"]["veredito"] == "enganoso"
    assert len(record["checagens"]["t-1"]["correcoes"]) == 1


def test_texto_mudado_sem_correcao_e_recusado(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(site, out, strict=True, workers=1)
    body = (site / CHECK).read_text(encoding="utf-8").rsplit("+++", 1)[1].strip().split("\n")[0]
    edit(site, body, body + " Texto acrescentado depois.")
    with pytest.raises(BuildError, match="mudou desde a última publicação do site \\(explicação\\)"):
        build_site(site, out, strict=True, workers=1)


def test_clone_novo_compara_com_o_registro_commitado(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fresh clone has no site of its own: the committed ledger is what the build compares with."""
    assert main(["checagens", "registrar", "--raiz", str(site)]) == 0
    assert main(["checagens", "registrar", "--raiz", str(site), "--verificar"]) == 0
    git(site, "init", "-q", "-b", "main")
    git(site, "add", "-A")
    git(site, "commit", "-q", "-m", "checagens e registro")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(site), str(clone))
    edit(clone, 'veredito = "falso"', 'veredito = "enganoso"')
    git(clone, "commit", "-q", "-am", "veredito trocado sem correção")
    with pytest.raises(BuildError, match=f"{CHECK}:1: correcoes: .*veredito falso → enganoso"):
        build_site(clone, tmp_path / "public-limpo", strict=True, workers=1)
    capsys.readouterr()
    assert main(["checagens", "registrar", "--raiz", str(clone)]) == 1  # refuses to record it
    assert "veredito falso → enganoso" in capsys.readouterr().out


def test_registro_ilegivel_recusa_o_build(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(site, out, strict=True, workers=1)
    (out / "checagens" / "publicadas.json").write_text("{ quebrado", encoding="utf-8")
    shutil.copy(out / PAGE, tmp_path / "antes.html")
    with pytest.raises(BuildError, match="registro de checagens publicadas ilegível"):
        build_site(site, out, workers=1)
    assert (out / PAGE).read_bytes() == (tmp_path / "antes.html").read_bytes()


def test_o_registro_de_uma_checagem_nova_vem_da_leitura_do_build(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check with no earlier record gets its record from what the build read of it (the
    checksum of its body taken there), without reading the file again; one that changed since
    it was published is compared reading its file (the rule's problems name its lines)."""
    lidos: list[str] = []
    real = registro_publicado._ler

    def contando(root: Path, check: ChecagemResumo) -> str:
        lidos.append(check.id)
        return real(root, check)

    monkeypatch.setattr(registro_publicado, "_ler", contando)
    out = tmp_path / "public"
    build_site(site, out, strict=True, workers=1)
    assert lidos == []
    record = json.loads((out / "checagens" / "publicadas.json").read_text(encoding="utf-8"))
    corpo = split_body((site / CHECK).read_text(encoding="utf-8"), CHECK)
    assert record["checagens"]["t-1"]["explicacao_sha256"] == publicado.explicacao_sha256(corpo)
    edit(site, "\n+++\n", CORRECAO + "+++\n")
    build_site(site, out, strict=True, workers=1)
    assert lidos == ["t-1"]
