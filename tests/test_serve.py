"""The local site server (`eleicoes servir`, the demo, the browser tests) behaves like the CDN: never
a folder listing, validators and 304s, Cache-Control, a Portuguese page while the site is being
prepared and for every error, no symlink or hidden file served, the Date header on a given clock."""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import http.client
import re
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobs.serve import make_server
from tests.support.servidor import em_segundo_plano
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


# --- issue 21/22: the local server behaves like the CDN ------------------------------------------


def _published(folder: Path) -> None:
    """A published site: home, 404 page, a hashed asset and a live JSON."""
    (folder / "index.html").write_text("<h1>início</h1>", encoding="utf-8")
    (folder / "404.html").write_text("<h1>não encontrada</h1>", encoding="utf-8")
    (folder / "static").mkdir()
    (folder / "static" / "estilo.0123456789.css").write_text("body{}", encoding="utf-8")
    (folder / "api" / "projecao").mkdir(parents=True)
    (folder / "api" / "projecao" / "6258-presidente.json").write_text('{"a": 1}', encoding="utf-8")


def _raw(
    base: str, path: str, method: str = "GET", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], str]:
    """One request sent as given (no client-side quoting): status, headers, body."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        conn.endheaders()
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read().decode("utf-8")
    finally:
        conn.close()


ENGLISH = re.compile(r"Error response|Error code|Nothing matches|Unsupported method|Bad request|Message:")


def test_files_carry_etag_and_last_modified_and_a_conditional_get_gets_304(served: tuple[Path, str]) -> None:
    folder, base = served
    _published(folder)
    live = "/api/projecao/6258-presidente.json"
    status, headers, body = _raw(base, live)
    assert status == 200 and body == '{"a": 1}'
    etag = headers["ETag"]
    assert etag == '"' + hashlib.md5(b'{"a": 1}', usedforsecurity=False).hexdigest() + '"'  # as S3 sends it
    assert email.utils.parsedate_to_datetime(headers["Last-Modified"])
    status, headers, body = _raw(base, live, headers={"If-None-Match": etag})
    assert (status, body, headers["ETag"]) == (304, "", etag)
    status, _, _ = _raw(base, live, headers={"If-Modified-Since": headers["Last-Modified"]})
    assert status == 304
    (folder / "api" / "projecao" / "6258-presidente.json").write_text('{"a": 2}', encoding="utf-8")
    status, headers, body = _raw(base, live, headers={"If-None-Match": etag})
    assert status == 200 and body == '{"a": 2}' and headers["ETag"] != etag


def test_cache_control_lets_a_cdn_revalidate_live_files_and_keep_hashed_assets(
    served: tuple[Path, str],
) -> None:
    folder, base = served
    _published(folder)
    assert _raw(base, "/")[1]["Cache-Control"] == "no-cache"
    assert _raw(base, "/api/projecao/6258-presidente.json")[1]["Cache-Control"] == "no-cache"
    assert "immutable" in _raw(base, "/static/estilo.0123456789.css")[1]["Cache-Control"]


def test_every_path_before_the_first_publish_gets_the_preparing_page(served: tuple[Path, str]) -> None:
    """Issue 21: a deep link opened before the first publish refreshes itself until the site is there."""
    folder, base = served
    for path in ("/projecao/6258-presidente/", "/api/projecao/6258-presidente.json", "/debates/x/"):
        status, headers, body = _raw(base, path)
        assert status == 503 and headers["Retry-After"], path
        assert "Preparando o site" in body and 'http-equiv="refresh"' in body and 'lang="pt-BR"' in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]  # a meta refresh is not a script
    _published(folder)
    assert _raw(base, "/projecao/6258-presidente/")[0] == 404
    assert _raw(base, "/api/projecao/6258-presidente.json")[0] == 200


def test_symlinks_and_hidden_files_are_never_served(
    served: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Issue 22: the served folder serves neither symlinks nor dot-names."""
    folder, base = served
    _published(folder)
    outside = tmp_path_factory.mktemp("fora")
    (outside / "segredo.html").write_text("segredo", encoding="utf-8")
    (folder / "ligado.html").symlink_to(outside / "segredo.html")
    (folder / "pasta-ligada").symlink_to(outside, target_is_directory=True)
    (folder / ".oculto.html").write_text("segredo", encoding="utf-8")
    (folder / ".eleicoes-staging").mkdir()
    (folder / ".eleicoes-staging" / "index.html").write_text("segredo", encoding="utf-8")
    for path in (
        "/ligado.html",
        "/pasta-ligada/segredo.html",
        "/.oculto.html",
        "/.eleicoes-staging/",
        "/%2eoculto.html",
    ):
        status, _, body = _raw(base, path)
        assert status == 404 and "segredo" not in body and "não encontrada" in body, path


def test_bad_paths_and_methods_get_a_short_portuguese_page(served: tuple[Path, str]) -> None:
    """Issue 22: `%00` in a path used to drop the connection; no answer is Python's English page."""
    folder, base = served
    _published(folder)
    (folder / "404.html").unlink()  # the server's own page, not the site's
    for path, method, code in (
        ("/a%00b.html", "GET", 400),
        ("/%00", "HEAD", 400),
        ("/%ff.html", "GET", 400),
        ("/nao-existe/", "GET", 404),
        ("/", "POST", 501),
    ):
        status, headers, body = _raw(base, path, method)
        assert status == code, (path, method)
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        assert method == "HEAD" or ('lang="pt-BR"' in body and not ENGLISH.search(body)), body
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as conn:  # a malformed request line
        conn.sendall(b"GET / HTTP/1.1 a mais\r\n\r\n")
        answer = conn.makefile("rb").read().decode("utf-8")
    assert "Pedido inválido" in answer and not ENGLISH.search(answer)


def test_the_date_header_comes_from_the_clock_given(tmp_path: Path) -> None:
    """The demo passes the replayed night's clock: the live pages compare ages with the night."""
    night = dt.datetime(2026, 10, 25, 21, 0, 5, tzinfo=dt.UTC)
    _published(tmp_path)
    server = make_server(tmp_path, port=0, clock=lambda: night)
    em_segundo_plano(server)
    try:
        _, headers, _ = _raw(f"http://127.0.0.1:{server.server_address[1]}", "/")
    finally:
        server.shutdown()
        server.server_close()
    assert email.utils.parsedate_to_datetime(headers["Date"]) == night
    assert email.utils.parsedate_to_datetime(headers["Last-Modified"]) <= night  # never after the Date
