"""The conversion cache: pages built from it are byte for byte those of a build without it, an
entry of another converter or other rules is never used, and a corrupt entry is ignored."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import markdown
import pytest

from site_builder import markdown_cache, markdown_rapido, markdown_render, packs
from site_builder.build import state_path
from site_builder.conteudo.frontmatter import read_body
from tests.site_builder.conftest import (
    DAMAGES,
    REPO,
    clear_build_caches,
    cold_output,
    count_card_drawings,
    damage_entry,
    make_project,
    snapshot,
)
from tests.site_builder.test_enderecos import TRICKY, _checks

GOLDEN = REPO / "tests" / "golden" / "site_minimo"  # what the builder made before it had a cache
CHECK = "content/checagens/um.md"
FORGED = "<p>corpo forjado no cache</p>"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fixture project for the module (its builds only ever wipe outputs and caches)."""
    return make_project(tmp_path_factory.mktemp("cache") / "projeto")


@pytest.fixture(autouse=True)
def fresh_cache(site: Path) -> Iterator[None]:
    """Each test starts without a cache; `cache_version` is computed once per process, and tests
    that change its inputs recompute it."""
    clear_build_caches(site)
    yield
    clear_build_caches(site)


def _conversions(site: Path, out: Path) -> markdown_cache.MarkdownCache:
    return markdown_cache.MarkdownCache(state_path(site, out).parent / markdown_cache.FOLDER)


def _forge(site: Path, out: Path) -> None:
    """Replace the cached HTML of one check's body by other (well-formed) HTML."""
    cache = _conversions(site, out)
    key = cache.key(read_body(site / CHECK))
    found = cache.get(key)
    assert found is not None, "the build stored no conversion of the check's body"
    cache.put(key, markdown_cache.Converted(FORGED, found.addresses))


def test_cached_pages_are_the_pages_of_a_build_without_cache(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    filled = cold_output(site, out, drop_pages=True)  # every body converted and stored
    from_cache = cold_output(site, out, drop_pages=True)  # every body read back from the cache
    golden = snapshot(GOLDEN)
    assert sorted(filled) == sorted(golden) == sorted(from_cache)
    for rel, data in golden.items():
        assert filled[rel] == data, f"{rel}: the build that filled the cache differs"
        assert from_cache[rel] == data, f"{rel}: the build from the cache differs"
    assert _conversions(site, out).folder.is_dir()
    assert not _conversions(site, out).folder.is_relative_to(out)


def test_the_build_uses_the_cache_after_the_output_is_wiped(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    _forge(site, out)
    assert FORGED.encode() in b"".join(cold_output(site, out, drop_pages=True).values())


def test_a_new_converter_version_invalidates_every_entry(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    _forge(site, out)
    monkeypatch.setattr(markdown, "__version__", markdown.__version__ + ".outra")
    markdown_cache.cache_version.cache_clear()
    assert cold_output(site, out, drop_pages=True) == snapshot(GOLDEN)


@pytest.mark.parametrize("edited", ["conteudo/texto_seguro.py", "markdown_rapido.py"])
def test_a_change_of_the_rules_invalidates_every_entry(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edited: str
) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    _forge(site, out)
    package = tmp_path / "site_builder"  # the rules' sources, one of them edited
    for name in markdown_cache.RULE_SOURCES:
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(markdown_cache.PACKAGE / name, package / name)
    rules = package / edited
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# uma regra nova\n", encoding="utf-8")
    monkeypatch.setattr(markdown_cache, "PACKAGE", package)
    markdown_cache.cache_version.cache_clear()
    assert cold_output(site, out, drop_pages=True) == snapshot(GOLDEN)


@pytest.mark.parametrize("damage", ["not json", *DAMAGES])
def test_a_corrupt_entry_is_ignored_and_rewritten(site: Path, tmp_path: Path, damage: str) -> None:
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    key = _conversions(site, out).key(read_body(site / CHECK))
    payload = _conversions(site, out).get_bytes(key)
    assert payload is not None
    if damage == "not json":
        _conversions(site, out).put_bytes(key, b"{" + payload[1:])  # a checksum that holds
    else:
        damage_entry(_conversions(site, out), key, damage)
    assert _conversions(site, out).get(key) is None
    assert cold_output(site, out, drop_pages=True) == snapshot(GOLDEN)
    assert _conversions(site, out).get_bytes(key) == payload


def test_a_checked_read_gives_the_checksum_the_payload_was_checked_against(tmp_path: Path) -> None:
    """The build stages a cached page with the checksum its read checked, and stores a page
    with the checksum it staged it with: a wrong one given to the store only makes a miss."""
    key, other = "ab" * 32, "cd" * 32
    digest = hashlib.sha256(b"pagina").hexdigest()
    packs.EntryStore(tmp_path / "loja").put_bytes(key, b"pagina", digest)
    packs.EntryStore(tmp_path / "loja").put_bytes(other, b"pagina", hashlib.sha256(b"outra").hexdigest())
    store = packs.EntryStore(tmp_path / "loja")
    assert store.get_checked(key) == (b"pagina", digest)
    assert store.get_checked(other) is None
    assert store.get_bytes(other) is None


def test_the_store_is_pruned_to_its_newest_entries(tmp_path: Path) -> None:
    cache = markdown_cache.MarkdownCache(tmp_path / "markdown")
    keys = [cache.key(f"corpo {i}") for i in range(12)]
    for i, key in enumerate(keys):
        cache.put(key, markdown_cache.Converted(f"<p>{i}</p>", ()))
    cache.put(keys[2], markdown_cache.Converted("<p>2</p>", ()))  # stored again: now the newest
    assert cache.prune(limit=12, keep=5) == 0
    assert cache.prune(limit=10, keep=5) == 7
    expected = [*keys[8:], keys[2]]
    assert [k for k in keys if cache.get(k) is not None] == sorted(expected, key=keys.index)
    reread = markdown_cache.MarkdownCache(cache.folder)  # what another build finds
    assert reread.entry_keys() == expected
    assert [reread.get(k) for k in expected] == [
        markdown_cache.Converted(f"<p>{keys.index(k)}</p>", ()) for k in expected
    ]
    assert len(list(cache.folder.glob("*.pack"))) == 1


def test_many_packs_are_merged_into_one_with_every_entry(tmp_path: Path) -> None:
    """Each process that writes a store opens a pack of its own: past `max_packs` packs, pruning
    merges them, losing nothing."""
    folder = tmp_path / "markdown"
    keys = [markdown_cache.MarkdownCache(folder).key(f"corpo {i}") for i in range(6)]
    for i, key in enumerate(keys):  # six packs, as six processes would write
        packs._forget_writer(folder)
        markdown_cache.MarkdownCache(folder).put(key, markdown_cache.Converted(f"<p>{i}</p>", ()))
    packs._forget_writer(folder)
    assert len(list(folder.glob("*.pack"))) == 6
    assert markdown_cache.MarkdownCache(folder).prune(max_packs=8) == 0
    assert len(list(folder.glob("*.pack"))) == 6
    assert markdown_cache.MarkdownCache(folder).prune(max_packs=4) == 0
    assert len(list(folder.glob("*.pack"))) == 1
    reread = markdown_cache.MarkdownCache(folder)
    assert [reread.get(k) for k in keys] == [markdown_cache.Converted(f"<p>{i}</p>", ()) for i in range(6)]


def test_entries_of_the_earlier_one_file_per_entry_layout_are_removed(tmp_path: Path) -> None:
    cache = markdown_cache.MarkdownCache(tmp_path / "markdown")
    old = cache.folder / "ab" / ("c" * 62)
    old.parent.mkdir(parents=True)
    old.write_bytes(b"entrada antiga")
    cache.put(cache.key("corpo"), markdown_cache.Converted("<p></p>", ()))
    cache.prune()
    assert not old.parent.exists()
    assert markdown_cache.MarkdownCache(cache.folder).get(cache.key("corpo")) is not None


def test_a_large_store_is_pruned(tmp_path: Path) -> None:
    cache = markdown_cache.MarkdownCache(tmp_path / "markdown")
    keys = [cache.key(f"corpo {i}") for i in range(600)]
    for key in keys:
        cache.put(key, markdown_cache.Converted("<p></p>", ()))
    assert cache.prune(limit=1_000, keep=100) == 0  # below the limit: nothing goes
    assert cache.prune(limit=500, keep=100) == 500
    assert sum(cache.get(k) is not None for k in keys) == 100
    assert sum(markdown_cache.MarkdownCache(cache.folder).get(k) is not None for k in keys) == 100


def test_an_entry_is_found_by_the_stores_made_after_it(tmp_path: Path) -> None:
    store = packs.EntryStore(tmp_path / "loja")
    key = "ab" * 32
    assert store.get_bytes(key) is None
    store.put_bytes(key, b"conteudo")
    assert packs.EntryStore(store.folder).get_bytes(key) == b"conteudo"
    assert packs.EntryStore(store.folder).has(key)


def test_an_index_parsed_a_piece_at_a_time_reads_as_a_fresh_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """This process parses only what was appended to an index since it last read it: after more
    entries by two writers, a torn record (cut, then completed), a cut index and a prune, every
    new store reads exactly what a process that never read the indexes before reads."""
    folder = tmp_path / "loja"

    def fresh() -> list[tuple[str, tuple[Path, int, int] | None]]:
        with monkeypatch.context() as context:
            context.setattr(packs, "_PARSED", {})
            store = packs.EntryStore(folder)
            return [(key, store.location(key)) for key in store.entry_keys()]

    def read() -> list[tuple[str, tuple[Path, int, int] | None]]:
        store = packs.EntryStore(folder)
        found = [(key, store.location(key)) for key in store.entry_keys()]
        assert found == fresh()
        return found

    keys = [f"{i:02x}" * 32 for i in range(12)]
    packs.EntryStore(folder).put_bytes(keys[0], b"zero")
    assert [k for k, _ in read()] == keys[:1]
    for key in keys[1:4]:
        packs.EntryStore(folder).put_bytes(key, key.encode())
    packs._forget_writer(folder)  # the next entries in a second pack, as a worker writes them
    for key in keys[4:6]:
        packs.EntryStore(folder).put_bytes(key, key.encode())
    packs.EntryStore(folder).put_bytes(keys[1], b"de novo")  # a key stored again: the newest counts
    assert [k for k, _ in read()] == [keys[0], *keys[2:6], keys[1]]
    index = sorted(folder.glob("*" + packs.INDEX))[-1]
    whole = index.read_bytes()
    packs._forget_writer(folder)
    index.write_bytes(whole[: -packs._RECORD.size // 2])  # a writer killed in its last record
    assert [k for k, _ in read()] == keys[:6]  # the second storing of keys[1] is lost
    index.write_bytes(whole)  # the record completed
    assert [k for k, _ in read()] == [keys[0], *keys[2:6], keys[1]]
    rewritten = (
        whole[packs._RECORD.size : 2 * packs._RECORD.size]
        + whole[: packs._RECORD.size]
        + whole[2 * packs._RECORD.size :]
    )
    index.write_bytes(rewritten)  # the same file, as long, its records in another order
    assert [k for k, _ in read()] == [keys[0], *keys[2:4], keys[5], keys[4], keys[1]]
    index.write_bytes(whole[: packs._RECORD.size])  # cut to its first record
    packs.EntryStore(folder).put_bytes(keys[6], b"seis")
    assert [k for k, _ in read()] == [*keys[:5], keys[6]]
    assert packs.EntryStore(folder).prune(max_packs=1) == 0  # merged into one new pack
    for key in keys[7:]:
        packs.EntryStore(folder).put_bytes(key, key.encode())
    assert [k for k, _ in read()] == [*keys[:5], *keys[6:]]
    # The pruned packs are forgotten, not kept parsed.
    assert all(Path(path).exists() for path in packs._PARSED if Path(path).parent == folder)


def test_a_key_that_is_not_a_checksum_is_refused(tmp_path: Path) -> None:
    store = packs.EntryStore(tmp_path / "loja")
    with pytest.raises(ValueError, match="chave de cache inválida"):
        store.put_bytes("nao-e-um-sha256", b"x")


BODIES = [*TRICKY, *_checks()]


@pytest.mark.parametrize("text", BODIES, ids=[str(i) for i in range(len(BODIES))])
def test_one_conversion_reads_the_addresses_the_link_rules_read(text: str) -> None:
    renderer = markdown_render.MarkdownRenderer()
    html, addresses = renderer.convert_with_addresses(text)
    assert html == markdown_render.MarkdownRenderer().convert(text)
    assert addresses == markdown_render.MarkdownRenderer().addresses(text)


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of body parses: Python-Markdown's block parses (one per conversion, shortened
    readings included) and the conversions of its fast path (`markdown_rapido`)."""
    parses = [0]
    real = markdown.blockparser.BlockParser.parseDocument
    fast = markdown_rapido.convert

    def counted(self: markdown.blockparser.BlockParser, lines: list[str]) -> object:
        parses[0] += 1
        return real(self, lines)

    def counted_fast(text: str) -> tuple[str, list[str]] | None:
        converted = fast(text)
        parses[0] += converted is not None
        return converted

    monkeypatch.setattr(markdown.blockparser.BlockParser, "parseDocument", counted)
    monkeypatch.setattr(markdown_rapido, "convert", counted_fast)
    return parses


def test_a_cold_build_parses_each_body_once_and_a_warm_cache_none(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bodies = {
        read_body(path)
        for path in sorted((site / "content").rglob("*.md"))
        if 'status = "rascunho"' not in path.read_text(encoding="utf-8")  # a draft is not read
    }
    parses = _count_parses(monkeypatch)
    out = tmp_path / "public"
    cold_output(site, out, drop_pages=True)
    assert parses[0] == len(bodies)  # the link rules' reading and the page share one parse
    parses[0] = 0
    cold_output(site, out, drop_pages=True)
    assert parses[0] == 0


def test_drawn_images_come_back_from_the_cache_after_the_output_is_wiped(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Share images (`Artifact.guardar`) are drawn once: a wiped output gets the same bytes back
    from the cache without drawing; a corrupt entry is drawn again."""
    from site_builder import build as build_module
    from site_builder import share_image

    out = tmp_path / "public"
    first = cold_output(site, out, drop_pages=True)
    images = [rel for rel in first if rel.endswith(share_image.FILE_NAME)]
    assert any(rel.startswith("checagens/") for rel in images), "the fixture site has no check card"
    drawn = count_card_drawings(monkeypatch)
    assert cold_output(site, out, drop_pages=True) == first
    assert drawn == []
    store = packs.EntryStore(state_path(site, out).parent / build_module.IMAGE_CACHE)
    for key in store.entry_keys():
        damage_entry(store, key, "flipped")  # every image entry damaged
    assert cold_output(site, out, drop_pages=True) == first
    assert drawn, "a damaged image entry was used instead of drawing the image again"
