"""Every `eleicoes` failure is one Portuguese line on stderr and a non-zero exit, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from model.ptbr_cli import DEBUG_ENV, describe

REPO = Path(__file__).resolve().parents[1]


def _eleicoes(*args: str, debug: bool = False) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != DEBUG_ENV}
    if debug:
        env[DEBUG_ENV] = "1"
    return subprocess.run(
        [sys.executable, "-m", "eleicoes", *args], cwd=REPO, capture_output=True, text=True, env=env
    )


def _one_line(result: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if not line.startswith("aguardando")]
    assert len(lines) == 1, result.stderr
    assert "erro:" in lines[0]
    for text in expected:
        assert text in lines[0], lines[0]


@pytest.fixture
def built_site(tmp_path: Path) -> Path:
    out = tmp_path / "public"
    out.mkdir()
    (out / "index.html").write_text("<h1>início</h1>", encoding="utf-8")
    return out


@pytest.mark.parametrize("command", ["build", "publicar"])
def test_lock_path_that_is_a_folder(tmp_path: Path, built_site: Path, command: str) -> None:
    root = tmp_path / "projeto"
    (root / ".cache/eleicoes.lock").mkdir(parents=True)
    extra = ["--entrada", str(built_site), "--destino", str(tmp_path / "destino")]
    result = _eleicoes(command, "--raiz", str(root), *(extra if command == "publicar" else []))
    _one_line(result, f"eleicoes {command}: erro:", "eleicoes.lock é uma pasta")


def test_debug_variable_shows_the_traceback(tmp_path: Path) -> None:
    root = tmp_path / "projeto"
    (root / ".cache/eleicoes.lock").mkdir(parents=True)
    result = _eleicoes("build", "--raiz", str(root), debug=True)
    assert result.returncode != 0
    assert "Traceback" in result.stderr and "IsADirectoryError" in result.stderr


def test_config_that_cannot_be_read(tmp_path: Path, built_site: Path) -> None:
    root = tmp_path / "projeto"
    (root / "eleicoes.toml").mkdir(parents=True)
    result = _eleicoes("publicar", "--raiz", str(root), "--entrada", str(built_site))
    _one_line(result, "eleicoes.toml é uma pasta")


def test_config_that_is_not_toml(tmp_path: Path, built_site: Path) -> None:
    root = tmp_path / "projeto"
    root.mkdir()
    (root / "eleicoes.toml").write_text("[publicar\n", encoding="utf-8")
    result = _eleicoes("publicar", "--raiz", str(root), "--entrada", str(built_site))
    _one_line(result, "TOML inválido")


def test_missing_snapshot_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nao-existe"
    _one_line(_eleicoes("projetar", str(missing)), str(missing))
    auditor = subprocess.run(
        [sys.executable, "-m", "model.cli", "projetar", str(missing)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    _one_line(auditor, str(missing))


def test_unexpected_failure_is_one_line_naming_the_debug_variable() -> None:
    line = describe(RuntimeError("algo\nquebrou"))
    assert "\n" not in line and "RuntimeError: algo quebrou" in line and DEBUG_ENV in line
    assert describe(FileNotFoundError(2, "No such file or directory", "/x/y")) == "/x/y não existe"


def test_scheduler_errors_are_one_line_too(tmp_path: Path) -> None:
    root = tmp_path / "projeto"
    (root / "eleicoes.toml").mkdir(parents=True)
    result = subprocess.run(
        [sys.executable, "scheduler.py", "--raiz", str(root), "--duracao-s", "1"],
        cwd=REPO, capture_output=True, text=True,
    )  # fmt: skip
    _one_line(result, "scheduler.py: erro:", "eleicoes.toml é uma pasta")
