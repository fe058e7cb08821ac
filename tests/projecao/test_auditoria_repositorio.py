"""The audit steps of a capture page name the public repository (from the project's own
content/site.toml) and the exact commit of the model to rerun (issue 23, point 7)."""

from __future__ import annotations

import html
import json
import re
import shutil
import tomllib
from pathlib import Path

from site_builder.build import build_site

REPO = Path(__file__).resolve().parents[2]
CAPTURE = "2026-10-04T21-39-46Z"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_capture_page_names_repository_and_commit(project: Path, tmp_path: Path) -> None:
    shutil.copy2(REPO / "content" / "site.toml", project / "content" / "site.toml")
    repositorio = tomllib.loads((REPO / "content" / "site.toml").read_text(encoding="utf-8")).get(
        "repositorio", ""
    )
    assert repositorio.startswith("https://"), "content/site.toml não define o repositório público"
    captura = next((project / "data").rglob(f"{CAPTURE}/captura.json"))
    root = json.loads(captura.read_bytes())
    root.setdefault("modelo", {})["commit"] = COMMIT
    captura.write_text(json.dumps(root, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    page = (out / "projecao/6257-presidente/capturas" / CAPTURE / "index.html").read_text(encoding="utf-8")
    codes = [html.unescape(c) for c in re.findall(r"<pre><code>(.*?)</code></pre>", page, re.S)]
    clone = f"git clone -q {repositorio} eleicoes-codigo"
    assert f"{clone} && git -C eleicoes-codigo checkout -q {COMMIT}" in codes
    web = repositorio.removesuffix(".git")
    assert f'<a href="{web}/tree/{COMMIT}">commit <code>{COMMIT}</code></a>' in page
    assert f'<a href="{web}">repositório público</a>' in page


def test_capture_without_commit_names_the_model_version(project: Path, tmp_path: Path) -> None:
    """A reading that recorded no commit names the model version its saida.json records, instead of
    sending the reader to look for it."""
    shutil.copy2(REPO / "content" / "site.toml", project / "content" / "site.toml")
    saida = next((project / "data").rglob(f"{CAPTURE}/saida.json"))
    versao = json.loads(saida.read_bytes())["modelo"]["versao"]
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    page = (out / "projecao/6257-presidente/capturas" / CAPTURE / "index.html").read_text(encoding="utf-8")
    assert "esta leitura não registrou o commit do modelo" in page
    assert f"use a versão <code>{versao}</code> do modelo" in page
