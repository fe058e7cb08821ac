"""An incremental build is a cold build: after each edit of a random sequence (checks corrected,
their verdict, claim or theme changed, checks added and deleted, a candidate renamed, the site's
title, a stylesheet, a template and a methodology page edited), the output folder a site's
rebuilds keep holds exactly what a cold build of the same content makes in a copy of the project
with no build state or cache. Every key by which a rebuild leaves an output as it was (filter
pages, listing rows, check cards, the published record) is tested here against the one thing
that cannot be stale."""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.build import build_site
from site_builder.conteudo.regras import TEMAS
from tests.site_builder.conftest import add_checks, make_project, snapshot

VERDICTS = ("verdadeiro", "impreciso", "enganoso", "falso", "sem_dados")
CHECKS = "content/checagens"
SECOND_CANDIDATE = "content/candidatos/bia-teste.toml"


def _project(root: Path) -> Path:
    """The fixture project with a second candidate and six more checks, of both candidates,
    several verdicts and themes."""
    project = make_project(root)
    model = (project / "content/candidatos/ana-teste.toml").read_text(encoding="utf-8")
    (project / SECOND_CANDIDATE).write_text(model.replace("Ana Teste", "Bia Teste"), encoding="utf-8")
    add_checks(project, 1, 6)
    for i in range(1, 7):
        path = project / f"{CHECKS}/copia-{i:03d}.md"
        text = path.read_text(encoding="utf-8").replace('"falso"', f'"{VERDICTS[i % len(VERDICTS)]}"', 1)
        if i % 2:
            text = text.replace('candidato = "ana-teste"', 'candidato = "bia-teste"', 1)
        path.write_text(_with_theme(text, list(TEMAS)[i % 3]), encoding="utf-8")
    return project


def _with_theme(text: str, tema: str) -> str:
    if re.search(r'^tema = ".*"$', text, re.MULTILINE):
        return re.sub(r'^tema = ".*"$', f'tema = "{tema}"', text, count=1, flags=re.MULTILINE)
    return text.replace("demonstracao = true\n", f'demonstracao = true\ntema = "{tema}"\n', 1)


def _published(project: Path) -> list[Path]:
    return sorted(
        p for p in (project / CHECKS).glob("*.md") if 'status = "publicada"' in p.read_text("utf-8")
    )


def _corrected(
    path: Path, step: int, change: Callable[[str], str] = lambda head: head, body: str = ""
) -> None:
    """A published edit: `change` applied to the header, `body` added, with a public correction."""
    head, rest = path.read_text(encoding="utf-8").rsplit("+++\n", 1)
    correction = (
        f'\n[[correcoes]]\ndata = 2026-11-{step + 1:02d}T10:00:00-03:00\nexplicacao = "Revisão {step}."\n'
    )
    path.write_text(f"{change(head)}{correction}+++\n{rest}{body}", encoding="utf-8")


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


KINDS = (
    "body",
    "verdict",
    "claim",
    "theme",
    "add",
    "delete",
    "candidate",
    "title",
    "css",
    "template",
    "page",
)


def _edit(project: Path, step: int, kind: str, rng: random.Random) -> str:
    """One edit an editor or a developer could make (`kind`, of `KINDS`); what it was."""
    check = rng.choice(_published(project))
    if kind == "body":
        _corrected(check, step, body=f"\nParágrafo novo {step}.\n")
    elif kind == "verdict":
        current = re.search(r'^veredito = "(\w+)"$', check.read_text("utf-8"), re.MULTILINE)
        assert current is not None
        new = rng.choice([v for v in VERDICTS if v != current.group(1)])
        _corrected(check, step, lambda head: head.replace(current.group(0), f'veredito = "{new}"', 1))
    elif kind == "claim":
        _corrected(
            check,
            step,
            lambda head: re.sub(
                r'^afirmacao = ".*"$', f'afirmacao = "Afirmação {step}."', head, count=1, flags=re.MULTILINE
            ),
        )
    elif kind == "theme":  # not part of what the correction rule compares: no correction needed
        check.write_text(_with_theme(check.read_text("utf-8"), rng.choice(list(TEMAS))), encoding="utf-8")
    elif kind == "add":  # a copy of the chosen check under a new id and address
        text = re.sub(
            r'^id = ".*"$', f'id = "novo-{step}"', check.read_text("utf-8"), count=1, flags=re.MULTILINE
        )
        text = re.sub(r'^slug = ".*"$', f'slug = "novo-{step}"', text, count=1, flags=re.MULTILINE)
        (project / f"{CHECKS}/novo-{step}.md").write_text(text, encoding="utf-8")
    elif kind == "delete":
        check.unlink()
    elif kind == "candidate":
        _replace(project / SECOND_CANDIDATE, 'nome = "', f'nome = "{step} ')
    elif kind == "title":
        _replace(project / "content/site.toml", 'titulo = "', f'titulo = "{step} ')
    elif kind == "css":
        css = project / "templates/static/estilo.css"
        css.write_text(css.read_text("utf-8") + f"\n/* regra {step} */\n", encoding="utf-8")
    elif kind == "template":
        _replace(
            project / "templates/checagem.html",
            "{% block conteudo %}",
            f"{{% block conteudo %}}<!-- {step} -->",
        )
    else:
        _replace(project / "content/metodologia/segunda.md", "Uma lista", f"Uma lista {step}")
    return f"{kind} {check.name}"


@pytest.mark.parametrize("seed", [1, 2])
def test_every_rebuild_leaves_what_a_cold_build_makes(tmp_path: Path, seed: int) -> None:
    project = _project(tmp_path / "projeto")
    out = tmp_path / "public"
    build_site(project, out)
    rng = random.Random(seed)
    done = []
    for step, kind in enumerate(rng.sample(KINDS, len(KINDS))):  # each kind once, in a random order
        done.append(_edit(project, step, kind, rng))
        report = build_site(project, out)
        assert not report.recusados, (done, report.recusados)
        cold_project = tmp_path / f"frio-{step}"
        shutil.copytree(project, cold_project, ignore=shutil.ignore_patterns(".cache"))
        cold = tmp_path / f"frio-{step}-public"
        build_site(cold_project, cold)
        incremental, expected = snapshot(out), snapshot(cold)
        assert sorted(incremental) == sorted(expected), done
        stale = [rel for rel, data in expected.items() if incremental[rel] != data]
        assert not stale, (done, stale)
        shutil.rmtree(cold_project)
        shutil.rmtree(cold)
