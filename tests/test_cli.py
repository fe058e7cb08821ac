"""The `eleicoes` console script and the demo server."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from eleicoes import COMMANDS, command_parser, main
from model.ptbr_cli import ArgumentParser

REPO = Path(__file__).resolve().parents[1]
# Heavy third-party packages: no subcommand's `--help` may import them.
THIRD_PARTY = frozenset(
    {"openai", "extruct", "boto3", "botocore", "faster_whisper", "ctranslate2", "av", "numpy", "warcio"}
)
# What `eleicoes --help` must not import: those, lighter packages and our own heavy modules.
HEAVY = THIRD_PARTY | {
    "apscheduler",
    "requests",
    "jinja2",
    "markdown",
    "jobs",
    "site_builder",
    "scheduler",
    "demo",
}
# What a job's `--help` must not import either: the scheduler and the demo that drives it.
NOT_A_JOB = THIRD_PARTY | {"apscheduler", "scheduler", "demo"}


def _choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(actions[0].choices) if actions else {}


def _walk(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for child in _choices(parser).values():
        found += _walk(child)
    return found


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "eleicoes", *args], cwd=REPO, capture_output=True, text=True, env=env
    )


def test_help_lists_every_subcommand_in_portuguese() -> None:
    result = _run("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("uso: eleicoes")
    assert "mostra esta ajuda e sai" in result.stdout and "usage" not in result.stdout
    for name in COMMANDS:
        assert name in result.stdout


def _loaded_after(args: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after `eleicoes ARGS` (a `--help` ends with SystemExit)."""
    code = (
        "import sys, eleicoes\n"
        f"try:\n    eleicoes.main({args!r})\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    return {m.split(".")[0] for m in result.stdout.splitlines()[-1].split()}


def test_help_imports_no_heavy_module() -> None:
    loaded = _loaded_after(["--help"])
    assert "eleicoes" in loaded
    assert not loaded & HEAVY


@pytest.mark.parametrize(
    ("args", "forbidden"),
    [
        (["projetar", "--help"], HEAVY),
        (["build", "--help"], NOT_A_JOB),
        (["publicar", "--help"], NOT_A_JOB),
        (["checagens", "validar", "--help"], NOT_A_JOB),
        (["debate", "placar", "--help"], NOT_A_JOB),
        (["tse", "--help"], NOT_A_JOB),
        (["servir", "--help"], THIRD_PARTY | {"apscheduler", "scheduler", "jinja2", "markdown"}),
    ],
)
def test_a_subcommand_imports_only_what_it_uses(args: list[str], forbidden: frozenset[str]) -> None:
    assert not _loaded_after(args) & forbidden


def test_table_matches_what_each_module_registers() -> None:
    """Every module registers exactly the subcommands the table gives it, with the same help line."""
    for module in sorted({c.module for c in COMMANDS.values()}):
        parser = command_parser(module)
        registered = _choices(parser)
        assert sorted(registered) == sorted(n for n, c in COMMANDS.items() if c.module == module)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps = {a.dest: a.help for a in sub._choices_actions}
        for name in registered:
            assert helps[name] == COMMANDS[name].help, name


def test_every_group_has_a_description_and_every_option_a_help_line() -> None:
    import scheduler  # `python scheduler.py` speaks like `eleicoes`

    parsers = [scheduler.build_parser()]
    for module in sorted({c.module for c in COMMANDS.values()}):
        parsers += _walk(command_parser(module))[1:]
    missing: list[str] = []
    for parser in parsers:
        if not parser.description:
            missing.append(f"{parser.prog}: sem descrição")
        assert isinstance(parser, ArgumentParser), parser.prog  # Portuguese texts
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            if action.help is None or not action.help.strip():
                missing.append(f"{parser.prog} {action.option_strings or action.dest}: sem ajuda")
    assert missing == []


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["nao-existe"], "escolha inválida: 'nao-existe'"),
        ([], "faltam argumentos obrigatórios: COMANDO"),
        (["projetar"], "faltam argumentos obrigatórios: SNAPSHOT_DIR"),
        (["projetar", "x", "--cargo", "prefeito"], "argumento --cargo: escolha inválida: 'prefeito'"),
        (["projetar", "x", "--uf"], "argumento --uf: espera um valor"),
        (["projetar", "x", "--extra"], "argumentos não reconhecidos: --extra"),
        (["servir", "--porta", "muitas"], "argumento --porta: valor inválido para int: 'muitas'"),
    ],
)
def test_usage_errors_are_one_portuguese_line(args: list[str], expected: str) -> None:
    result = _run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and expected in result.stderr, result.stderr
    assert "erro:" in result.stderr and "--help" in result.stderr


def test_model_cli_alone_speaks_portuguese() -> None:
    """`python -m model.cli` (what auditors run) stays standalone, with the same Portuguese texts."""
    result = subprocess.run(
        [sys.executable, "-m", "model.cli", "projetar", "--help"], cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0 and result.stdout.startswith("uso: python -m model.cli projetar")
    assert "opções:" in result.stdout


def test_build_command_and_bad_content(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "projeto"
    shutil.copytree(REPO / "content", root / "content")
    shutil.copytree(REPO / "templates", root / "templates")
    out = tmp_path / "public"
    assert main(["build", "--strict", "--raiz", str(root), "--saida", str(out)]) == 0
    assert (out / "index.html").is_file()
    assert "arquivos;" in capsys.readouterr().out
    (root / "content/site.toml").write_text("titulo = [", encoding="utf-8")
    assert main(["build", "--raiz", str(root), "--saida", str(out)]) == 1  # built with the last accepted one
    err = capsys.readouterr().err
    assert "TOML inválido" in err and "content/site.toml: arquivo recusado; o site foi feito com" in err
    shutil.rmtree(root / ".cache" / "eleicoes-aceitas")  # without it nothing can be built
    assert main(["build", "--raiz", str(root), "--saida", str(out)]) == 2
    err = capsys.readouterr().err
    assert "TOML inválido" in err and "mantido" in err
    assert (out / "index.html").is_file()


def test_repository_site_builds_strict(tmp_path: Path) -> None:
    """The content shipped in the repo (what `make demo` serves) builds with no warning."""
    assert main(["build", "--strict", "--raiz", str(REPO), "--saida", str(tmp_path / "public")]) == 0
