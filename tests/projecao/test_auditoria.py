"""Anyone can audit from the site alone: the commands printed on a capture's page, run as written
against the built site served on loopback, download the files, verify them and rerun the model to
the same bytes."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.build import build_site
from tests.support.site_local import servir

SITE_URL = "https://teste.example.org"  # url_base of the fixture site
REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(
    shutil.which("curl") is None or shutil.which("sha256sum") is None,
    reason="curl e sha256sum são necessários para rodar os comandos de auditoria",
)


@pytest.fixture
def served(project: Path, tmp_path: Path) -> Iterator[tuple[Path, str]]:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    with servir(out) as base:
        yield out, base


def stdlib_python(tmp_path: Path) -> Path:
    """A folder whose `python3` is a bare interpreter (3.11+, without this project installed) when
    the machine has one, else this test's interpreter."""
    folder = tmp_path / "bin"
    folder.mkdir()
    chosen = sys.executable
    for candidate in ("/usr/bin/python3", "/bin/python3"):
        done = (
            subprocess.run(
                [
                    candidate,
                    "-c",
                    "import sys, importlib.util as u; sys.exit(0 if sys.version_info >= (3, 11) "
                    "and u.find_spec('site_builder') is None else 1)",
                ],
                capture_output=True,
                check=False,
            )
            if Path(candidate).is_file()
            else None
        )
        if done is not None and done.returncode == 0:
            chosen = candidate
            break
    (folder / "python3").symlink_to(chosen)
    return folder


def commands(page: str) -> list[str]:
    return [html.unescape(c) for c in re.findall(r"<pre><code>(.*?)</code></pre>", page, re.S)]


def test_commands_on_a_capture_page_rerun_it(served: tuple[Path, str], tmp_path: Path) -> None:
    out, base = served
    race = "projecao/6257-presidente/capturas/"
    page = (out / race / "2026-10-04T21-39-46Z/index.html").read_text(encoding="utf-8")
    repo, download, rerun = commands(page)
    assert repo == "eleicoes auditar data/tse/6257/presidente/2026-10-04T21-39-46Z"
    assert download.count("sha256sum -c") == 2  # this reading and the previous one, both verified
    assert download.startswith(
        f"mkdir 2026-10-04T21-36-05Z && cd 2026-10-04T21-36-05Z && curl -sfO {SITE_URL}/"
    )
    work = tmp_path / "auditoria"
    work.mkdir()
    env = {**os.environ, "PATH": f"{stdlib_python(tmp_path)}{os.pathsep}{os.environ['PATH']}"}
    assert rerun.startswith("PYTHONPATH=eleicoes-codigo python3 -m model.cli projetar 2026-10-04T21-39-46Z")
    # Nothing of the project but its model/ folder: no installed package, no other module.
    shutil.copytree(
        REPO / "model", work / "eleicoes-codigo" / "model", ignore=shutil.ignore_patterns("__pycache__")
    )
    subprocess.run(["bash", "-c", download.replace(SITE_URL, base)], cwd=work, env=env, check=True)
    assert sorted(p.name for p in (work / "2026-10-04T21-39-46Z").iterdir()) == sorted(
        p.name for p in (out / race / "2026-10-04T21-39-46Z").iterdir() if p.name != "index.html"
    )
    done = subprocess.run(
        ["bash", "-c", rerun], cwd=work, env=env, capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "idênticos"
    # A tampered file is caught by the download check.
    target = out / race / "2026-10-04T21-39-46Z/sp-c0001-e006257-u.json"
    target.write_bytes(target.read_bytes() + b"\n")
    shutil.rmtree(work / "2026-10-04T21-39-46Z")
    shutil.rmtree(work / "2026-10-04T21-36-05Z")
    failed = subprocess.run(
        ["bash", "-c", download.replace(SITE_URL, base)], cwd=work, env=env, capture_output=True, check=False
    )
    assert failed.returncode != 0
