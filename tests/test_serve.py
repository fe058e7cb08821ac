"""The local site server (`eleicoes servir`, the demo): never a folder listing, a Portuguese page
while the site is being prepared."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.site_local import servir


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    with servir(tmp_path) as base:
        yield tmp_path, base


def _error(url: str) -> urllib.error.HTTPError:
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(url, timeout=30)
    return caught.value


def test_before_the_first_publish_the_root_says_the_site_is_being_prepared(served: tuple[Path, str]) -> None:
    folder, base = served
    (folder / "vazia").mkdir()
    answer = _error(base + "/")
    assert answer.code == 503 and answer.headers["Retry-After"]
    body = answer.read().decode("utf-8")
    assert "Preparando o site" in body and 'lang="pt-BR"' in body and 'http-equiv="refresh"' in body
    assert "Directory listing" not in body and "vazia" not in body


def test_a_folder_without_index_is_a_404_never_a_listing(served: tuple[Path, str]) -> None:
    folder, base = served
    (folder / "index.html").write_text("<h1>início</h1>", encoding="utf-8")
    (folder / "404.html").write_text("<h1>não encontrada</h1>", encoding="utf-8")
    (folder / "assets").mkdir()
    (folder / "assets" / "site.css").write_text("body{}", encoding="utf-8")
    answer = _error(base + "/assets/")
    assert answer.code == 404
    body = answer.read().decode("utf-8")
    assert "não encontrada" in body and "site.css" not in body
    with urllib.request.urlopen(base + "/", timeout=30) as page:
        assert "início" in page.read().decode("utf-8")


def test_server_serves_pages_and_404(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<h1>início</h1>", encoding="utf-8")
    (tmp_path / "404.html").write_text("<h1>não encontrada</h1>", encoding="utf-8")
    with servir(tmp_path) as base:
        with urllib.request.urlopen(base + "/") as response:
            assert response.headers["Content-Type"] == "text/html; charset=utf-8"
            assert "início" in response.read().decode("utf-8")
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(base + "/nao-existe/")
        assert caught.value.code == 404
        assert "não encontrada" in caught.value.read().decode("utf-8")
