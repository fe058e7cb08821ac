"""The build spine: golden output, determinism, incremental rebuilds, atomicity, strict mode."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from site_builder import build as build_module
from site_builder import workers as workers_module
from site_builder.build import build_site
from site_builder.collect import collect
from site_builder.errors import BuildError, ContentError, DuplicatePathError, StrictModeError
from site_builder.writer import StagedWriter
from tests.site_builder.conftest import REPO, add_checks, count_card_drawings, snapshot

GOLDEN = REPO / "tests" / "golden" / "site_minimo"
Edit = Callable[[str, str, str], None]


def test_golden_output(project: Path, tmp_path: Path) -> None:
    """The fixture site builds to the committed expected files (UPDATE_GOLDEN=1 rewrites them)."""
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    produced = snapshot(out)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        for rel, data in produced.items():
            target = GOLDEN / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        for rel in set(snapshot(GOLDEN)) - set(produced):
            (GOLDEN / rel).unlink()
    expected = snapshot(GOLDEN)
    assert sorted(produced) == sorted(expected)
    for rel, data in expected.items():
        assert produced[rel] == data, f"{rel} differs from the golden copy"


def test_same_inputs_same_bytes(project: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    build_site(project, first)
    build_site(project, second)
    assert snapshot(first) == snapshot(second)


def test_second_build_writes_nothing(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    mtimes = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    report = build_site(project, out)
    assert report.renderizados == []
    assert report.escritos == []
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == mtimes


def test_body_change_renders_only_that_page(project: Path, tmp_path: Path, edit: Edit) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    edit("content/metodologia/segunda.md", "Uma lista:", "Uma lista nova:")
    report = build_site(project, out)
    assert report.renderizados == ["metodologia/segunda/index.html"]
    assert report.escritos == ["metodologia/segunda/index.html"]
    assert "Uma lista nova:" in (out / "metodologia/segunda/index.html").read_text(encoding="utf-8")


def test_title_change_renders_pages_that_show_it(project: Path, tmp_path: Path, edit: Edit) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    edit("content/metodologia/segunda.md", 'titulo = "Segunda página"', 'titulo = "Segunda, renomeada"')
    report = build_site(project, out)
    assert sorted(report.renderizados) == [
        "index.html",
        "metodologia/index.html",
        "metodologia/primeira/index.html",
        "metodologia/segunda/index.html",
    ]


def test_template_change_renders_its_pages(project: Path, tmp_path: Path, edit: Edit) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    edit("templates/pagina.html", "Mais sobre o método", "Outras páginas do método")
    report = build_site(project, out)
    assert sorted(report.renderizados) == [
        "metodologia/primeira/index.html",
        "metodologia/segunda/index.html",
    ]
    edit("templates/base.html", "Pular para o conteúdo", "Ir para o conteúdo")
    report = build_site(project, out)
    html_pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    assert sorted(report.renderizados) == html_pages  # every page, and not the feed, sitemap or robots.txt


def _correct(project: Path, rel: str, old: str = "", new: str = "") -> None:
    """A published edit of check `rel`: `old` replaced by `new` in its header, with its correction."""
    path = project / rel
    head, body = path.read_text(encoding="utf-8").rsplit("+++\n", 1)
    assert old in head
    correction = '\n[[correcoes]]\ndata = 2026-10-20T10:00:00-03:00\nexplicacao = "Texto revisto."\n'
    path.write_text(f"{head.replace(old, new)}{correction}+++\n{body}", encoding="utf-8")


def test_filter_pages_render_again_for_their_own_rows_and_for_the_counts(
    project: Path, tmp_path: Path
) -> None:
    add_checks(project, 1, 1)
    copy = project / "content/checagens/copia-001.md"
    copy.write_text(copy.read_text(encoding="utf-8").replace('"falso"', '"enganoso"'), encoding="utf-8")
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    falso, impreciso, enganoso = (
        f"checagens/veredito/{v}/index.html" for v in ("falso", "impreciso", "enganoso")
    )
    _correct(project, "content/checagens/um.md")  # its row shows the correction; no count changes
    report = build_site(project, out, strict=True)
    assert falso in report.renderizados
    assert impreciso not in report.renderizados and enganoso not in report.renderizados
    _correct(project, "content/checagens/um.md", 'veredito = "falso"', 'veredito = "impreciso"')
    report = build_site(project, out, strict=True)
    # the counts moved: every filter page shows them, its rows unchanged or not
    assert enganoso in report.renderizados
    assert impreciso in report.renderizados and falso in report.removidos
    cold = tmp_path / "frio"
    build_site(project, cold, strict=True)
    assert snapshot(out) == snapshot(cold)


def test_check_cards_are_drawn_again_only_when_what_they_show_changes(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    drawn = count_card_drawings(monkeypatch)
    css = next((project / "templates/static").rglob("*.css"))
    css.write_text(css.read_text(encoding="utf-8") + "\n/* outra regra */\n", encoding="utf-8")
    report = build_site(project, out, strict=True)
    # a site-wide input changed: every card is made again, and found drawn in the image cache
    assert "checagens/afirmacao-um/compartilhar.png" in report.renderizados
    assert drawn == []
    assert not [p for p in report.escritos if p.endswith("compartilhar.png")]
    _correct(project, "content/checagens/um.md", "Uma afirmação verificável.", "Outra afirmação.")
    build_site(project, out, strict=True)
    assert drawn == ["Outra afirmação."]
    cold = tmp_path / "frio"
    build_site(project, cold, strict=True)
    assert snapshot(out) == snapshot(cold)


def test_fresh_checkout_with_new_mtimes_renders_nothing(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    for path in project.rglob("*"):
        if path.is_file():
            os.utime(path, (1, 1))
    assert build_site(project, out).renderizados == []


def test_removed_page_is_deleted(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    (project / "content/checagens/um.md").unlink()
    report = build_site(project, out)
    # its page and share image, and the verdict filter page it was the only check of
    assert report.removidos == [
        "checagens/afirmacao-um/compartilhar.png",
        "checagens/afirmacao-um/index.html",
        "checagens/veredito/falso/index.html",
    ]
    assert not (out / "checagens/afirmacao-um").exists()
    assert "afirmacao-um" not in (out / "checagens/index.html").read_text(encoding="utf-8")


def test_crash_mid_build_keeps_previous_output(
    project: Path, tmp_path: Path, edit: Edit, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    before = snapshot(out)
    edit("templates/base.html", "Pular para o conteúdo", "Ir para o conteúdo")  # every page is dirty
    real_render = build_module.render
    calls = {"n": 0}

    def render_then_crash(*args: object, **kwargs: object) -> bytes:
        calls["n"] += 1
        if calls["n"] == 5:
            raise RuntimeError("falha simulada no meio do build")
        return real_render(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "render", render_then_crash)
    with pytest.raises(RuntimeError, match="falha simulada"):
        build_site(project, out)
    assert calls["n"] == 5
    assert snapshot(out) == before  # same files, same bytes, no temporary file left


def test_template_change_rebuilds_check_pages_from_their_files(
    project: Path, tmp_path: Path, edit: Edit
) -> None:
    """A rebuild for a template change reads each unchanged check again (its summary alone is
    cached) and renders the same pages as a cold build of the changed templates."""
    out = tmp_path / "public"
    build_site(project, out)
    edit("templates/base.html", "Pular para o conteúdo", "Ir para o conteúdo")
    report = build_site(project, out)
    assert "checagens/afirmacao-um/index.html" in report.renderizados
    cold = tmp_path / "frio"
    build_site(project, cold)
    assert snapshot(out) == snapshot(cold)


def test_a_check_edited_during_the_build_stops_it_and_keeps_the_site(
    project: Path, tmp_path: Path, edit: Edit, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check whose file changes between the collect phase and its page is not rendered from
    bytes nobody judged: the build stops with a Portuguese error and the site stays as it was."""
    out = tmp_path / "public"
    build_site(project, out)
    before = snapshot(out)
    edit("templates/base.html", "Pular para o conteúdo", "Ir para o conteúdo")  # every page is dirty

    def collect_then_edit(*args: Any, **kwargs: Any) -> Any:
        ctx = collect(*args, **kwargs)
        edit("content/checagens/um.md", "\n+++\n", "\n+++\n\nParágrafo escrito durante o build.\n")
        return ctx

    monkeypatch.setattr("site_builder.build.collect", collect_then_edit)
    with pytest.raises(ContentError, match="mudou durante o build"):
        build_site(project, out)
    assert snapshot(out) == before


def test_killed_build_leftovers_are_removed(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    leftover = out / ".eleicoes-staging" / "000001"
    leftover.parent.mkdir()
    leftover.write_text("meia página", encoding="utf-8")
    build_site(project, out)
    assert not leftover.parent.exists()


def test_strict_fails_on_broken_internal_link(project: Path, tmp_path: Path, edit: Edit) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    before = snapshot(out)
    edit("content/metodologia/primeira.md", "(/metodologia/segunda/)", "(/metodologia/nao-existe/)")
    with pytest.raises(StrictModeError, match=r"link interno quebrado.*/metodologia/nao-existe/"):
        build_site(project, out, strict=True)
    assert snapshot(out) == before
    report = build_site(project, out)  # without --strict it is only a warning
    assert any("nao-existe" in warning for warning in report.avisos)


def test_broken_link_in_unchanged_page_is_still_reported(project: Path, tmp_path: Path) -> None:
    """Deleting a page breaks links in pages that were not re-rendered; strict still sees it."""
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    (project / "content/metodologia/segunda.md").unlink()
    # Named in the Markdown file that wrote the link, at its line (issue 23).
    with pytest.raises(
        StrictModeError,
        match=r"content/metodologia/primeira\.md:\d+: link interno quebrado: /metodologia/segunda/ "
        r"\(na página metodologia/primeira/index\.html\)",
    ):
        build_site(project, out, strict=True)


def test_strict_fails_on_missing_asset(project: Path, tmp_path: Path, edit: Edit) -> None:
    edit("templates/base.html", "asset('favicon.svg')", "asset('nao-existe.svg')")
    with pytest.raises(StrictModeError, match=r"templates/static/nao-existe\.svg"):
        build_site(project, tmp_path / "public", strict=True)


def test_duplicate_slug_fails_before_writing(project: Path, tmp_path: Path) -> None:
    """Two checks with one address: the desk's rule names both files (the writer would refuse too)."""
    text = (project / "content/checagens/um.md").read_text(encoding="utf-8")
    (project / "content/checagens/dois.md").write_text(
        text.replace('id = "t-1"', 'id = "t-9"'), encoding="utf-8"
    )
    with pytest.raises(
        BuildError, match=r"um\.md:slug: 'afirmacao-um' já é usado por content/checagens/dois\.md"
    ):
        build_site(project, tmp_path / "public", strict=True)


def test_writer_refuses_one_path_twice(tmp_path: Path) -> None:
    writer = StagedWriter(tmp_path)
    writer.claim("checagens/a/index.html")
    with pytest.raises(DuplicatePathError, match=r"checagens/a/index\.html"):
        writer.claim("checagens/a/index.html")


def test_bad_content_fails_with_file_name_and_keeps_output(project: Path, tmp_path: Path, edit: Edit) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    before = snapshot(out)
    edit("content/checagens/um.md", 'veredito = "falso"', 'veredito = "mentira"')
    edit("content/metodologia/primeira.md", "ordem = 1", "ordem = [")
    with pytest.raises(BuildError) as caught:  # strict: the default build isolates both files
        build_site(project, out, strict=True)
    message = str(caught.value)
    assert "content/checagens/um.md:5: veredito: 'mentira' não existe" in message
    assert "content/metodologia/primeira.md:4: ordem: valor inválido: textos vão entre aspas" in message
    assert snapshot(out) == before


def test_two_person_rule_at_build(project: Path, tmp_path: Path, edit: Edit) -> None:
    """A merged check approved by its own author is not published, and strict mode fails."""
    edit("content/checagens/um.md", 'revisor = "editor-b"', 'revisor = "editor-a"')
    report = build_site(project, tmp_path / "public")
    assert not (tmp_path / "public/checagens/afirmacao-um").exists()
    assert "afirmacao-um" not in (tmp_path / "public/checagens/index.html").read_text(encoding="utf-8")
    assert (
        "content/checagens/um.md:9: revisor: o revisor é o próprio autor: outra pessoa precisa aprovar"
        in "".join(report.avisos)
    )
    with pytest.raises(StrictModeError, match="outra pessoa precisa aprovar"):
        build_site(project, tmp_path / "estrito", strict=True)


def test_two_person_rule_at_build_reads_the_history(project: Path, tmp_path: Path, edit: Edit) -> None:
    """The `revisor` field alone is not enough: the approval must be recorded, by that person."""
    edit("content/checagens/um.md", 'pessoa = "editor-b"', 'pessoa = "editor-a"')
    report = build_site(project, tmp_path / "public")
    assert not (tmp_path / "public/checagens/afirmacao-um").exists()
    assert any("aprovação foi registrada pelo próprio autor" in a for a in report.avisos)


def test_drafts_are_never_published(project: Path, tmp_path: Path) -> None:
    """The fixture draft has a reviewer, a publication date and an unknown field: still nothing of it."""
    out = tmp_path / "public"
    report = build_site(project, out, strict=True)
    assert not (out / "checagens/rascunho").exists()
    assert all(b"Um rascunho" not in data for data in snapshot(out).values())
    assert report.avisos == []


def test_draft_wins_over_everything_else(project: Path, tmp_path: Path, edit: Edit) -> None:
    edit("content/checagens/um.md", 'status = "publicada"', 'status = "rascunho"')
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    assert not (out / "checagens/afirmacao-um").exists()
    assert all(b"Uma afirma" not in data for data in snapshot(out).values())


def _in_small_parallel_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers for a small project: chunks of 4 files, every one handed over."""
    monkeypatch.setattr(workers_module, "PARALLEL_MIN", 10)
    monkeypatch.setattr(workers_module, "MIN_HANDED_OVER", 1)
    monkeypatch.setattr(workers_module, "CHUNK", 4)


def test_parallel_and_serial_builds_agree(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checks read and bodies converted by worker processes give the same site as in one process."""
    for i in range(30):
        (project / f"content/metodologia/extra-{i:02d}.md").write_text(
            f'+++\ntitulo = "Extra {i}"\ndescricao = "Extra {i}."\nordem = {10 + i}\n'
            f"atualizado_em = 2026-10-20\n+++\n\n*texto* {i}\n",
            encoding="utf-8",
        )
    add_checks(project, 0, 14)
    _in_small_parallel_chunks(monkeypatch)
    build_site(project, tmp_path / "paralelo", workers=2)
    build_site(project, tmp_path / "serial", workers=1)
    assert snapshot(tmp_path / "paralelo") == snapshot(tmp_path / "serial")
    assert (tmp_path / "paralelo/checagens/copia-013/index.html").is_file()


def test_checks_read_by_workers_report_the_same_problems_in_order(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused check read by a worker names the same file, field and line as one read here,
    and every problem of the build is listed, in file order."""
    add_checks(project, 0, 14)
    checks = project / "content/checagens"
    (checks / "copia-002.md").write_text(
        (checks / "copia-002.md").read_text(encoding="utf-8") + "\n[veja](javascript:alert(1))\n",
        encoding="utf-8",
    )
    (checks / "copia-009.md").write_bytes(b'+++\nid = "latin"\n+++\n\xe9\n')
    _in_small_parallel_chunks(monkeypatch)
    messages = []
    for workers in (2, 1):
        with pytest.raises(BuildError) as refused:
            build_site(project, tmp_path / f"saida-{workers}", workers=workers, strict=True)
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    assert messages[0].index("copia-002.md") < messages[0].index("copia-009.md")
    assert "javascript" in messages[0]
    assert "não está em UTF-8" in messages[0]


def test_same_size_edit_is_rebuilt(project: Path, tmp_path: Path, edit: Edit) -> None:
    """The stat fast path never hides an edit that keeps the file size."""
    out = tmp_path / "public"
    build_site(project, out)
    edit("content/metodologia/segunda.md", "um\n2. dois", "UM\n2. DOIS")
    assert build_site(project, out).renderizados == ["metodologia/segunda/index.html"]
    assert "DOIS" in (out / "metodologia/segunda/index.html").read_text(encoding="utf-8")


def test_build_restores_garbage_collection(project: Path, tmp_path: Path, edit: Edit) -> None:
    """The build pauses cyclic GC for speed and always turns it back on, even when it fails."""
    import gc

    assert gc.isenabled()
    build_site(project, tmp_path / "public")
    assert gc.isenabled()
    edit("content/checagens/um.md", 'veredito = "falso"', 'veredito = "mentira"')
    with pytest.raises(BuildError):
        build_site(project, tmp_path / "public", strict=True)
    assert gc.isenabled()
