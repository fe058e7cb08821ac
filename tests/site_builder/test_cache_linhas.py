"""The rows of the checks listings (`render.ListingRows`): each check's row is rendered once and
kept between builds under what a listing shows of the check (`pages.listing_key`); a listing
rendered again joins the kept rows. An incremental build gives the listings of a cold build
without any cache, byte for byte: an edited check's row changes in every listing that shows it,
a removed check leaves every listing; the kept rows are read (a forged row shows), and rows of
another row template are never used."""

from __future__ import annotations

import pickle
import re
import shutil
from pathlib import Path

from site_builder.build import ROWS_CACHE, build_site, state_path
from tests.site_builder.conftest import clear_build_caches, snapshot

EDITED = "content/checagens/um.md"
EDITED_URL = "/checagens/afirmacao-um/"
OTHER_URL = "/checagens/afirmacao-corrigida/"
FORGED = "  <li>linha forjada no cache</li>\n"


def _listings(files: dict[str, bytes]) -> dict[str, str]:
    """The pages that hold a checks listing, with their text."""
    texts = {rel: data.decode("utf-8") for rel, data in files.items() if rel.endswith(".html")}
    return {rel: text for rel, text in texts.items() if 'class="lista-checagens"' in text}


def _rows(page: str) -> list[str]:
    """The rows of the page's checks listing."""
    listing = page.split('<ul class="lista-checagens">\n', 1)[1].split("</ul>", 1)[0]
    return re.findall(r"  <li>.*?</li>\n", listing, flags=re.DOTALL)


def _cold(project: Path, out: Path) -> dict[str, bytes]:
    """What a build without any cache or state makes of the project as it is now."""
    clear_build_caches(project)
    shutil.rmtree(out, ignore_errors=True)
    build_site(project, out, strict=True)
    return snapshot(out)


def _rows_file(project: Path, out: Path) -> Path:
    return state_path(project, out).parent / ROWS_CACHE


def _edit_the_check(project: Path) -> None:
    """A published edit: a new verdict with its public correction (the row shows both)."""
    path = project / EDITED
    text = path.read_text(encoding="utf-8")
    assert 'veredito = "falso"' in text
    head, body = text.rsplit("+++\n", 1)
    correction = '\n[[correcoes]]\ndata = 2026-10-20T10:00:00-03:00\nexplicacao = "Veredito revisto."\n'
    head = head.replace('veredito = "falso"', 'veredito = "enganoso"')
    path.write_text(f"{head}{correction}+++\n{body}", encoding="utf-8")


def test_an_edited_check_changes_its_row_in_every_listing(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    before = _listings(snapshot(out))
    assert _rows_file(project, out).is_file(), "the first build kept no rows"
    _edit_the_check(project)
    report = build_site(project, out, strict=True)
    assert not report.recusados
    incremental = snapshot(out)
    cold = _cold(project, tmp_path / "frio")
    assert _listings(incremental) == _listings(cold)
    shown = {rel: row for rel, page in _listings(cold).items() for row in _rows(page) if EDITED_URL in row}
    assert set(shown) >= {"index.html", "checagens/index.html", "checagens/veredito/enganoso/index.html"}
    for rel, row in shown.items():
        assert "corrigida em" in row and "Enganoso" in row, f"{rel}: the edited row is stale: {row}"
        old_row = next(r for r in _rows(before[rel]) if EDITED_URL in r) if rel in before else None
        assert row != old_row
    assert EDITED_URL not in _listings(cold).get("checagens/veredito/falso/index.html", "")


def test_a_removed_check_leaves_every_listing(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    listed = [rel for rel, page in _listings(snapshot(out)).items() if OTHER_URL in page]
    assert len(listed) >= 3, f"the fixture check is listed on too few pages: {listed}"
    (project / "content/checagens/corrigida.md").unlink()
    build_site(project, out, strict=True)
    incremental = _listings(snapshot(out))
    assert not [rel for rel, page in incremental.items() if OTHER_URL in page]
    _edit_the_check(project)  # the next build that renders a row rewrites the rows file
    build_site(project, out, strict=True)
    _, _, kept = pickle.loads(_rows_file(project, out).read_bytes())
    assert [EDITED_URL in row for row in kept.values()] == [True], "the rows kept are not the site's"
    assert _listings(snapshot(out)) == _listings(_cold(project, tmp_path / "frio"))


def _forge(project: Path, out: Path) -> None:
    """The kept row of the check that is not edited replaced by a forged one."""
    path = _rows_file(project, out)
    version, salt, rows = pickle.loads(path.read_bytes())
    forged = {key: FORGED if OTHER_URL in row else row for key, row in rows.items()}
    assert forged != rows
    path.write_bytes(pickle.dumps((version, salt, forged)))


def test_a_listing_rendered_again_joins_the_kept_rows(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    _forge(project, out)
    _edit_the_check(project)  # every listing showing both checks is rendered again
    build_site(project, out, strict=True)
    page = snapshot(out)["checagens/index.html"].decode("utf-8")
    assert FORGED in _rows(page), "the listing rendered the row again instead of taking the kept one"
    assert any(EDITED_URL in row and "Enganoso" in row for row in _rows(page))


def test_rows_of_another_row_template_are_never_used(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    _forge(project, out)
    macros = project / "templates" / "_macros.html"
    macros.write_text(macros.read_text(encoding="utf-8") + "{# outra versão #}\n", encoding="utf-8")
    shutil.rmtree(out)
    shutil.rmtree(state_path(project, out))  # every page rendered, the kept rows as they are
    build_site(project, out, strict=True)
    assert FORGED not in snapshot(out)["checagens/index.html"].decode("utf-8")


def test_a_damaged_rows_file_is_rendered_again(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    _cold(project, out)
    path = _rows_file(project, out)
    path.write_bytes(path.read_bytes()[:100])
    _edit_the_check(project)
    build_site(project, out, strict=True)
    assert _listings(snapshot(out)) == _listings(_cold(project, tmp_path / "frio"))
    assert len(pickle.loads(path.read_bytes())[2]) == 2, "the rows file was not written whole again"
