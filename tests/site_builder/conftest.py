"""Fixtures: a throw-away project (fixture content + the real templates) in a temporary folder."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder import build, markdown_cache, packs, share_image
from site_builder.packs import EntryStore

REPO = Path(__file__).resolve().parents[2]
FIXTURE_CONTENT = REPO / "tests" / "fixtures" / "site_minimo" / "content"
FIXTURE_DATA = REPO / "tests" / "fixtures" / "site_minimo" / "data"  # archived copies of posts


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes, keyed by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def make_project(root: Path) -> Path:
    """`root` filled with the fixture content and data and a copy of the real templates."""
    shutil.copytree(FIXTURE_CONTENT, root / "content")
    shutil.copytree(FIXTURE_DATA, root / "data")
    shutil.copytree(REPO / "templates", root / "templates")
    return root


def clear_build_caches(site: Path) -> None:
    """`site` without its cross-build caches, and the cached version keys recomputed on next use
    (the cache tests change their inputs, e.g. the Markdown version)."""
    shutil.rmtree(site / ".cache", ignore_errors=True)
    markdown_cache.cache_version.cache_clear()
    build._renderer_version.cache_clear()


def cold_output(site: Path, out: Path, *, drop_pages: bool) -> dict[str, bytes]:
    """A build into an empty output folder with no build state: only the cross-build caches stay
    (`drop_pages`: without the rendered pages either, so the caches below them are what is read)."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(build.state_path(site, out), ignore_errors=True)
    if drop_pages:
        shutil.rmtree(build.state_path(site, out).parent / build.PAGE_CACHE, ignore_errors=True)
    build.build_site(site, out, strict=True)
    return snapshot(out)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with the fixture content and data and a copy of the real templates."""
    return make_project(tmp_path / "projeto")


@pytest.fixture
def edit(project: Path) -> Callable[[str, str, str], None]:
    """Replace text in a project file (fails loudly if the text is not there)."""

    def replace(rel: str, old: str, new: str) -> None:
        path = project / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {rel}"
        path.write_text(text.replace(old, new), encoding="utf-8")

    return replace


def add_checks(project: Path, first: int, count: int) -> None:
    """Add `count` published checks, copies of the fixture's first one under new ids and slugs."""
    model = (project / "content/checagens/um.md").read_text(encoding="utf-8")
    head = model.split("\n", 3)
    for i in range(first, first + count):
        text = model.replace(head[1], f'id = "copia-{i:03d}"', 1).replace(
            head[2], f'slug = "copia-{i:03d}"', 1
        )
        (project / f"content/checagens/copia-{i:03d}.md").write_text(text, encoding="utf-8")


def count_card_drawings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The claims of the check cards drawn from here on, in order (the drawing still happens)."""
    drawn: list[str] = []
    real = share_image.render_checagem_png

    def counting(cartao: share_image.CartaoChecagem, compressao: int = share_image.COMPRESSAO_PNG) -> bytes:
        drawn.append(cartao.afirmacao)
        return real(cartao, compressao)

    monkeypatch.setattr(share_image, "render_checagem_png", counting)
    return drawn


def entries_where(store: EntryStore, wanted: Callable[[bytes], bool]) -> list[str]:
    """The keys of `store` whose payload reads back and satisfies `wanted` (entries are found by
    content: their keys are internal)."""
    found = []
    for key in store.entry_keys():
        payload = store.get_bytes(key)
        assert payload is not None, f"{key}: an entry the build wrote does not read back"
        if wanted(payload):
            found.append(key)
    return found


DAMAGES = ("truncated", "flipped", "empty", "torn index")


def damage_entry(store: EntryStore, key: str, damage: str) -> None:
    """Damage entry `key` of `store` on disk as a crash or a bad disk would: its pack cut in the
    middle of its payload, one byte of the payload flipped, the pack emptied, or the pack's index
    cut in the middle of a record."""
    where = store.location(key)
    assert where is not None, f"{key}: no such entry"
    pack, offset, length = where
    if damage == "truncated":
        with pack.open("r+b") as handle:
            handle.truncate(offset + length // 2)
    elif damage == "flipped":
        data = bytearray(pack.read_bytes())
        data[offset + length - 5] ^= 1
        pack.write_bytes(bytes(data))
    elif damage == "empty":
        pack.write_bytes(b"")
    elif damage == "torn index":  # as a writer killed in the middle of the entry's record leaves it
        packs._forget_writer(store.folder)  # that writer appends no more
        index = pack.with_suffix(packs.INDEX)
        records = index.read_bytes()
        size = packs._RECORD.size
        at = next(i for i in range(0, len(records), size) if records[i : i + 32] == bytes.fromhex(key))
        index.write_bytes(records[: at + size // 2])
    else:
        raise ValueError(damage)
