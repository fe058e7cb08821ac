"""The cache of checks as read (`collect.CHECKS_CACHE`): a build into a wiped output folder takes
each check's verdict and record from it instead of judging the file again; its pages are byte for
byte those of a build without any cache; an entry of other code, another converter, another
registry or other bytes is never used; a corrupt entry is ignored; a refused check is not kept."""

from __future__ import annotations

import dataclasses
import pickle
import shutil
from collections.abc import Iterator
from pathlib import Path

import markdown
import pytest

from site_builder import build as build_module
from site_builder import collect, markdown_cache
from site_builder.build import build_site, state_path
from site_builder.conteudo import regras
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
CHECK = "content/checagens/um.md"
FORGED = "Afirmação forjada no cache de checagens"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fixture project for the module (its builds only ever wipe outputs and caches)."""
    return make_project(tmp_path_factory.mktemp("cache-checagens") / "projeto")


@pytest.fixture(autouse=True)
def fresh_cache(site: Path) -> Iterator[None]:
    clear_build_caches(site)
    yield
    clear_build_caches(site)


def _store(site: Path, out: Path) -> EntryStore:
    return EntryStore(state_path(site, out).parent / collect.CHECKS_CACHE)


def _holds_check(payload: bytes) -> bool:
    _format, _entry, checagem = pickle.loads(payload)
    return checagem is not None and checagem.fonte.caminho == CHECK


def _entry_of(site: Path, out: Path) -> str:
    """The key of the one entry holding the check `CHECK`."""
    found = entries_where(_store(site, out), _holds_check)
    assert len(found) == 1, f"entries holding {CHECK}: {found}"
    return found[0]


def _forge(site: Path, out: Path) -> None:
    """Replace the cached record of `CHECK` by one with another claim (a well-formed entry)."""
    store = _store(site, out)
    key = _entry_of(site, out)
    payload = store.get_bytes(key)
    assert payload is not None
    fmt, entry, checagem = pickle.loads(payload)
    entry = {**entry, "afirmacao": FORGED}
    checagem = dataclasses.replace(checagem, afirmacao=FORGED)
    store.put_bytes(key, pickle.dumps((fmt, entry, checagem)))


def _count_readings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The check files the content rules read (a spy around the real `regras.ler_checagem`)."""
    read: list[str] = []
    real = regras.ler_checagem

    def counted(texto: str, fonte: object, *args: object, **kwargs: object) -> regras.ChecagemLida:
        read.append(fonte.caminho)  # type: ignore[attr-defined]
        return real(texto, fonte, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(regras, "ler_checagem", counted)
    return read


def test_pages_from_the_checks_cache_are_the_pages_of_a_build_without_cache(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    read = _count_readings(monkeypatch)
    filled = cold_output(site, out, drop_pages=True)
    assert CHECK in read
    read.clear()
    from_cache = cold_output(site, out, drop_pages=True)
    assert CHECK not in read, "the check was judged again although its cache entry holds"
    golden = snapshot(GOLDEN)
    assert sorted(filled) == sorted(golden) == sorted(from_cache)
    for rel, data in golden.items():
        assert filled[rel] == data, f"{rel}: the build that filled the cache differs"
        assert from_cache[rel] == data, f"{rel}: the build from the cache differs"
    assert not _store(site, out).folder.is_relative_to(out)


def test_the_build_uses_the_checks_cache_after_the_output_is_wiped(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    _forge(site, out)
    assert FORGED.encode() in b"".join(cold_output(site, out, drop_pages=True).values())


def test_a_change_of_the_builder_code_invalidates_every_entry(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    _forge(site, out)
    real = build_module._code_hash
    monkeypatch.setattr(build_module, "_code_hash", lambda root: real(root) + "-regras-novas")
    assert cold_output(site, out, drop_pages=True) == snapshot(GOLDEN)


def test_a_new_converter_version_invalidates_every_entry(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    _forge(site, out)
    monkeypatch.setattr(markdown, "__version__", markdown.__version__ + ".outra")
    markdown_cache.cache_version.cache_clear()
    assert cold_output(site, out, drop_pages=True) == snapshot(GOLDEN)


def test_another_registry_of_editors_invalidates_every_entry(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    _forge(site, out)
    registry = site / "content" / "editores.toml"
    before = registry.read_bytes()
    try:
        registry.write_bytes(before + b"\n# uma linha nova\n")
        assert FORGED.encode() not in b"".join(cold_output(site, out, drop_pages=True).values())
    finally:
        registry.write_bytes(before)


@pytest.mark.parametrize("damage", ["not a pickle", "other shape", *DAMAGES])
def test_a_corrupt_entry_is_ignored_and_rewritten(site: Path, tmp_path: Path, damage: str) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    key = _entry_of(site, out)
    payload = _store(site, out).get_bytes(key)
    if damage == "not a pickle":
        _store(site, out).put_bytes(key, b"isto nao e um pickle")
    elif damage == "other shape":
        _store(site, out).put_bytes(key, pickle.dumps(("outra", "forma")))
    else:
        damage_entry(_store(site, out), key, damage)
    assert collect._cached_check(_store(site, out), key) is None
    assert cold_output(site, out, drop_pages=True) == snapshot(GOLDEN)
    assert _store(site, out).get_bytes(key) == payload


def test_a_refused_check_is_never_kept(site: Path, tmp_path: Path) -> None:
    """A verdict with a problem may change with time alone (a date refused as in the future is
    valid later): such a check is judged again by every build."""
    out = tmp_path / "public"
    check = site / CHECK
    before = check.read_bytes()
    try:
        check.write_bytes(before.replace(b"publicado_em = 20", b"publicado_em = 29", 1))
        assert b"publicado_em = 29" in check.read_bytes()
        shutil.rmtree(out, ignore_errors=True)
        report = build_site(site, out)
        assert any("um.md" in r for r in report.recusados)
        with pytest.raises(AssertionError, match="entries holding"):
            _entry_of(site, out)
    finally:
        check.write_bytes(before)
