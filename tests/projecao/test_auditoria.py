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
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobs.serve import make_server
from site_builder.build import build_site

SITE_URL = "https://teste.example.org"  # url_base of the fixture site
pytestmark = pytest.mark.skipif(
    shutil.which("curl") is None or shutil.which("sha256sum") is None,
    reason="curl e sha256sum são necessários para rodar os comandos de auditoria",
)


@pytest.fixture
def served(project: Path, tmp_path: Path) -> Iterator[tuple[Path, str]]:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    server = make_server(out, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield out, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


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
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    if shutil.which("eleicoes", path=env["PATH"]) is None:  # the documented stand-alone equivalent
        rerun = rerun.replace("eleicoes projetar", f"{sys.executable} -m model.cli projetar")
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
