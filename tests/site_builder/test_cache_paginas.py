"""The cache of rendered pages (`build.PAGE_CACHE`): a build into a wiped output folder takes each
page from it by its output key instead of rendering it; the pages are byte for byte those of a
build without any cache; an entry of other code, another converter or other templates is never
used; a corrupt entry is rendered again; a page whose render warned is never kept."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import markdown
import pytest

from site_builder import build as build_module
from site_builder import links, markdown_cache
from site_builder.build import PAGE_CACHE, build_site, state_path
from site_builder.packs import EntryStore
from tests.site_builder.conftest import (
    DAMAGES,
    REPO,
    clear_build_caches,
    cold_output,
    damage_entry,
    entries_where,
    make_project,
    snapshot,
)

GOLDEN = REPO / "tests" / "golden" / "site_minimo"  # what the builder made before it had a cache
PAGE = "checagens/afirmacao-um/index.html"
FORGED = b"<p>pagina forjada no cache</p>"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fixture project for the module (its builds only ever wipe outputs and caches)."""
    return make_project(tmp_path_factory.mktemp("cache-paginas") / "projeto")


@pytest.fixture(autouse=True)
def fresh_cache(site: Path) -> Iterator[None]:
    clear_build_caches(site)
    yield
    clear_build_caches(site)


def _store(site: Path, out: Path) -> EntryStore:
    return EntryStore(state_path(site, out).parent / PAGE_CACHE)


def _entry_of(site: Path, out: Path, page: bytes) -> str:
    """The key of the one entry holding the bytes `page`."""
    found = entries_where(_store(site, out), lambda payload: payload == page)
    assert len(found) == 1, f"entries holding the page: {found}"
    return found[0]


def _forge(site: Path, out: Path, golden: dict[str, bytes]) -> None:
    _store(site, out).put_bytes(_entry_of(site, out, golden[PAGE]), FORGED)


def _count_renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The templates rendered (a spy around the real `build.render`)."""
    rendered: list[str] = []
    real = build_module.render

    def counted(env: object, template: str, context: dict[str, object]) -> bytes:
        rendered.append(template)
        return real(env, template, context)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "render", counted)
    return rendered


def test_pages_from_the_cache_are_the_pages_of_a_build_without_cache(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    rendered = _count_renders(monkeypatch)
    filled = cold_output(site, out, drop_pages=False)
    assert "checagem.html" in rendered
    rendered.clear()
    from_cache = cold_output(site, out, drop_pages=False)
    assert rendered == [], "pages were rendered again although the cache holds them"
    golden = snapshot(GOLDEN)
    assert sorted(filled) == sorted(golden) == sorted(from_cache)
    for rel, data in golden.items():
        assert filled[rel] == data, f"{rel}: the build that filled the cache differs"
        assert from_cache[rel] == data, f"{rel}: the build from the cache differs"
    assert not _store(site, out).folder.is_relative_to(out)


def test_the_build_uses_the_page_cache_after_the_output_is_wiped(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    golden = cold_output(site, out, drop_pages=False)
    _forge(site, out, golden)
    assert cold_output(site, out, drop_pages=False)[PAGE] == FORGED


def test_a_change_of_the_builder_code_invalidates_every_entry(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    golden = cold_output(site, out, drop_pages=False)
    _forge(site, out, golden)
    real = build_module._code_hash
    monkeypatch.setattr(build_module, "_code_hash", lambda root: real(root) + "-outro-codigo")
    assert cold_output(site, out, drop_pages=False) == snapshot(GOLDEN)


def test_a_new_converter_version_invalidates_every_entry(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    golden = cold_output(site, out, drop_pages=False)
    _forge(site, out, golden)
    monkeypatch.setattr(markdown, "__version__", markdown.__version__ + ".outra")
    markdown_cache.cache_version.cache_clear()
    build_module._renderer_version.cache_clear()
    assert cold_output(site, out, drop_pages=False) == snapshot(GOLDEN)


def test_another_template_invalidates_the_pages_that_use_it(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    golden = cold_output(site, out, drop_pages=False)
    _forge(site, out, golden)
    template = site / "templates" / "checagem.html"
    before = template.read_bytes()
    try:
        template.write_bytes(before + b"{# outra versao #}")
        assert cold_output(site, out, drop_pages=False)[PAGE] == golden[PAGE]
    finally:
        template.write_bytes(before)


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_corrupt_entry_is_rendered_again_and_rewritten(site: Path, tmp_path: Path, damage: str) -> None:
    out = tmp_path / "public"
    golden = cold_output(site, out, drop_pages=False)
    key = _entry_of(site, out, golden[PAGE])
    damage_entry(_store(site, out), key, damage)
    assert _store(site, out).get_bytes(key) is None
    assert cold_output(site, out, drop_pages=False) == snapshot(GOLDEN)
    assert _store(site, out).get_bytes(key) == golden[PAGE]


def test_a_page_whose_render_warned_is_never_kept(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    template = site / "templates" / "checagem.html"
    before = template.read_bytes()
    try:
        template.write_bytes(
            before.replace(b"{% block conteudo %}", b"{% block conteudo %}{{ asset('nao-existe.css') }}", 1)
        )
        warnings = []
        for _ in range(2):
            shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(state_path(site, out), ignore_errors=True)
            report = build_site(site, out)
            warnings.append([a for a in report.avisos if "nao-existe.css" in a])
        assert warnings[0], "the fixture's check page did not warn"
        assert warnings[1] == warnings[0], "a page from the cache hid its warning"
    finally:
        template.write_bytes(before)


def _count_scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the pages scanned for their links (a spy around `build.internal_links`)."""
    scanned: list[int] = []
    real = links.internal_links

    def counted(html: str) -> tuple[str, ...]:
        scanned.append(len(html))
        return real(html)

    monkeypatch.setattr(build_module, "internal_links", counted)
    return scanned


def test_a_page_from_the_cache_is_not_scanned_for_links_again(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    scanned = _count_scans(monkeypatch)
    cold_output(site, out, drop_pages=False)
    assert scanned
    scanned.clear()
    assert cold_output(site, out, drop_pages=False) == snapshot(GOLDEN)
    assert scanned == [], "pages whose links are kept were scanned again"


def test_the_links_kept_for_a_page_still_find_its_broken_link(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    golden = cold_output(site, out, drop_pages=False)
    broken = b'<p><a href="/nao-existe/">quebrado</a></p>'
    _store(site, out).put_bytes(_entry_of(site, out, golden[PAGE]), broken)
    for _ in range(2):  # its links read from the page, then from the cache of links
        shutil.rmtree(out)
        shutil.rmtree(state_path(site, out), ignore_errors=True)
        report = build_site(site, out)
        assert [a for a in report.avisos if "/nao-existe/" in a and PAGE in a], report.avisos


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_entry_of_links_is_scanned_again(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=False)
    store = EntryStore(state_path(site, out).parent / build_module.LINKS_CACHE)
    damage_entry(store, store.entry_keys()[0], damage)
    scanned = _count_scans(monkeypatch)
    assert cold_output(site, out, drop_pages=False) == snapshot(GOLDEN)
    assert scanned, "a damaged entry of links was used"
