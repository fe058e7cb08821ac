"""The `eleicoes` console script and the demo server."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from jobs.cli import build_parser, main
from jobs.serve import make_server

REPO = Path(__file__).resolve().parents[1]


def _subcommands() -> list[str]:
    actions = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(actions[0].choices)


def test_help_lists_every_subcommand() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "jobs.cli", "--help"], cwd=REPO, capture_output=True, text=True, check=True
    )
    names = _subcommands()
    assert {"build", "demo", "servir"} <= set(names)
    for name in names:
        assert name in result.stdout


def test_build_command_and_bad_content(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "projeto"
    shutil.copytree(REPO / "content", root / "content")
    shutil.copytree(REPO / "templates", root / "templates")
    out = tmp_path / "public"
    assert main(["build", "--strict", "--raiz", str(root), "--saida", str(out)]) == 0
    assert (out / "index.html").is_file()
    assert "arquivos;" in capsys.readouterr().out
    (root / "content/site.toml").write_text("titulo = [", encoding="utf-8")
    assert main(["build", "--raiz", str(root), "--saida", str(out)]) == 2
    err = capsys.readouterr().err
    assert "TOML inválido" in err and "mantido" in err
    assert (out / "index.html").is_file()


def test_repository_site_builds_strict(tmp_path: Path) -> None:
    """The content shipped in the repo (what `make demo` serves) builds with no warning."""
    assert main(["build", "--strict", "--raiz", str(REPO), "--saida", str(tmp_path / "public")]) == 0


def test_server_serves_pages_and_404(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<h1>início</h1>", encoding="utf-8")
    (tmp_path / "404.html").write_text("<h1>não encontrada</h1>", encoding="utf-8")
    server = make_server(tmp_path, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with urllib.request.urlopen(base + "/") as response:
            assert response.headers["Content-Type"] == "text/html; charset=utf-8"
            assert "início" in response.read().decode("utf-8")
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(base + "/nao-existe/")
        assert caught.value.code == 404
        assert "não encontrada" in caught.value.read().decode("utf-8")
    finally:
        server.shutdown()
        server.server_close()
