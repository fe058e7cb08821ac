"""A rebuild with no input changed skips the full pass (`site_builder.unchanged`), and never
hides a change: every kind of change makes a full build, which leaves what the full pass leaves."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from site_builder import build as build_module
from site_builder import last_good, unchanged
from site_builder.build import BuildReport, build_site
from site_builder.collect import collect
from site_builder.writer import StagedWriter
from tests.projecao.noite import runoff_capture, set_latest
from tests.site_builder.conftest import REPO, make_project, snapshot

Edit = Callable[[str, str, str], None]


def _recorded(project: Path, out: Path) -> None:
    """Build `project` into `out` and check that the next build stands on the record it left."""
    build_site(project, out)
    assert build_site(project, out).inalterado


@pytest.fixture
def trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Walks trusted at once: the tests' files are all written less than `RACY_NS` before their
    builds (each edit below is separated from the previous stamps by a whole build)."""
    monkeypatch.setattr(unchanged, "RACY_NS", 0)


@pytest.mark.usefixtures("trusted")
def test_nothing_changed_reads_nothing_and_repeats_the_report(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    (build_module.state_path(project, out) / unchanged.RECORD).unlink()
    full = build_site(project, out)  # the full pass, which renders nothing
    assert full.inalterado is False and full.renderizados == []
    files = snapshot(out)

    def fail(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("the content was read again")

    monkeypatch.setattr(build_module, "collect", fail)
    quick = build_site(project, out)
    assert quick.inalterado is True
    assert (quick.total, quick.avisos, quick.renderizados, quick.escritos, quick.removidos) == (
        full.total,
        full.avisos,
        [],
        [],
        [],
    )
    assert snapshot(out) == files
    assert "nada mudou desde o último build" in quick.resumo()


@pytest.mark.usefixtures("trusted")
def test_the_warnings_of_the_recorded_build_are_repeated(project: Path, tmp_path: Path, edit: Edit) -> None:
    out = tmp_path / "public"
    edit("content/secoes/inicio.md", "\n+++\n", "\n+++\n\nVeja [uma página](/nao-existe/).\n")
    full = build_site(project, out)
    quick = build_site(project, out)
    assert any("/nao-existe/" in a for a in full.avisos)
    assert quick.inalterado and quick.avisos == full.avisos


def _same_size_edit(project: Path) -> None:
    path = project / "content/checagens/um.md"
    text = path.read_text(encoding="utf-8")
    stat = path.stat()
    at = text.rindex("a")  # in the body: the check stays valid
    path.write_text(f"{text[:at]}o{text[at + 1 :]}", encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # size and mtime as they were


def _new_page(project: Path) -> None:
    model = (project / "content/metodologia").glob("*.md")
    source = next(iter(sorted(model)))
    shutil.copy(source, project / "content/metodologia/pagina-nova.md")


def _delete_page(project: Path) -> None:
    next(iter(sorted((project / "content/metodologia").glob("*.md")))).unlink()


def _rename_check(project: Path) -> None:
    (project / "content/checagens/um.md").rename(project / "content/checagens/um-outro-nome.md")


def _template(project: Path) -> None:
    path = project / "templates/base.html"
    path.write_text(path.read_text(encoding="utf-8").replace("Pular para", "Ir para"), encoding="utf-8")


def _static(project: Path) -> None:
    css = next(iter(sorted((project / "templates/static").rglob("*.css"))))
    css.write_text(css.read_text(encoding="utf-8") + "\n/* mudou */\n", encoding="utf-8")


def _data_file(project: Path) -> None:
    target = next(p for p in sorted((project / "data").rglob("*")) if p.is_file())
    target.write_bytes(target.read_bytes() + b"\n")


def _hidden_file(project: Path) -> None:
    (project / "content/checagens/.rascunho.md").write_text("oculto\n", encoding="utf-8")


def _chmod(project: Path) -> None:
    (project / "content/checagens/um.md").chmod(0o600)  # bytes, size and mtime alone: the ctime moves


def _output_deleted(project: Path) -> None:
    next(iter(sorted((project.parent / "public").rglob("index.html")))).unlink()


def _output_resized(project: Path) -> None:
    page = project.parent / "public" / "index.html"
    page.write_bytes(page.read_bytes() + b"\n")


def _copies_deleted(project: Path) -> None:
    shutil.rmtree(last_good.copies_root(project))


CHANGES = {
    "an edit that keeps size and mtime": _same_size_edit,
    "a new file": _new_page,
    "a deleted file": _delete_page,
    "a renamed file": _rename_check,
    "a template": _template,
    "a stylesheet": _static,
    "a data file": _data_file,
    "a hidden file": _hidden_file,
    "a chmod": _chmod,
    "an output deleted": _output_deleted,
    "an output of another size": _output_resized,
    "the accepted copies deleted": _copies_deleted,
}


@pytest.mark.usefixtures("trusted")
@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_every_kind_of_change_makes_a_full_build(tmp_path: Path, change: Callable[[Path], None]) -> None:
    """After the change, the build is a full one and leaves what the full pass leaves: the same
    project built the same way, its record dropped before the last build."""
    sites = []
    for name in ("com-registro", "sem-registro"):
        project = make_project(tmp_path / name / "projeto")
        out = tmp_path / name / "public"
        _recorded(project, out)
        change(project)
        sites.append((project, out))
    (build_module.state_path(*sites[1]) / unchanged.RECORD).unlink()
    reports = [build_site(project, out) for project, out in sites]
    assert reports[0].inalterado is False
    assert (reports[0].renderizados, reports[0].avisos) == (reports[1].renderizados, reports[1].avisos)
    assert snapshot(sites[0][1]) == snapshot(sites[1][1])
    assert snapshot(last_good.copies_root(sites[0][0])), "the full build puts the accepted copies back"


@pytest.mark.usefixtures("trusted")
def test_other_options_make_a_full_build(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    _recorded(project, out)
    assert build_site(project, out, strict=True).inalterado is False
    assert build_site(project, out, strict=True).inalterado
    assert build_site(project, out).inalterado is False
    assert build_site(project, tmp_path / "outra-saida").inalterado is False  # a record per output folder


@pytest.mark.usefixtures("trusted")
def test_a_change_during_the_build_makes_the_next_build_full(
    project: Path, tmp_path: Path, edit: Edit, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inputs are walked before they are read: an edit made after the build read the file
    is not taken as built."""
    out = tmp_path / "public"
    _recorded(project, out)

    def collect_then_edit(*args: Any, **kwargs: Any) -> Any:
        ctx = collect(*args, **kwargs)
        edit("content/secoes/inicio.md", "\n+++\n", "\n+++\n\nEscrito durante o build.\n")
        return ctx

    monkeypatch.setattr(build_module, "collect", collect_then_edit)
    _template(project)  # so that this build is a full one
    build_site(project, out)
    monkeypatch.undo()
    monkeypatch.setattr(unchanged, "RACY_NS", 0)
    report = build_site(project, out)
    assert report.inalterado is False
    assert "Escrito durante o build." in (out / "index.html").read_text(encoding="utf-8")


def test_files_changed_just_before_the_build_are_not_trusted(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A walk that saw a stamp less than `RACY_NS` old is not recorded: a second change in the
    same clock tick could leave the stamps as they were. (A window of a day: the project, written
    a moment ago, stays inside it however slow the machine.)"""
    monkeypatch.setattr(unchanged, "RACY_NS", 86_400 * 10**9)
    out = tmp_path / "public"
    build_site(project, out)
    build_site(project, out)
    assert build_site(project, out).inalterado is False
    assert not (build_module.state_path(project, out) / unchanged.RECORD).exists()


@pytest.mark.usefixtures("trusted")
def test_a_symlink_in_the_data_is_never_recorded(project: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "fora"
    elsewhere.mkdir()
    (project / "data" / "atalho").symlink_to(elsewhere)
    out = tmp_path / "public"
    build_site(project, out)
    build_site(project, out)
    assert build_site(project, out).inalterado is False


@pytest.mark.usefixtures("trusted")
def test_a_build_that_refused_a_file_is_not_recorded(project: Path, tmp_path: Path, edit: Edit) -> None:
    edit("content/checagens/um.md", 'veredito = "', 'veredito = "inexistente-')
    out = tmp_path / "public"
    build_site(project, out)
    first = build_site(project, out)
    second = build_site(project, out)
    assert first.recusados and second.recusados == first.recusados
    assert second.inalterado is False


@pytest.mark.usefixtures("trusted")
def test_a_full_build_drops_the_record_before_it_commits(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build killed after its commit leaves no record describing the output it replaced."""
    out = tmp_path / "public"
    _recorded(project, out)
    record = build_module.state_path(project, out) / unchanged.RECORD
    seen: list[bool] = []
    commit = StagedWriter.commit

    def watched(self: StagedWriter, *args: Any) -> Any:
        seen.append(record.exists())
        return commit(self, *args)

    monkeypatch.setattr(StagedWriter, "commit", watched)
    _template(project)
    build_site(project, out)
    assert seen == [False]


@pytest.mark.usefixtures("trusted")
def test_a_damaged_record_only_means_a_full_build(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    _recorded(project, out)
    record = build_module.state_path(project, out) / unchanged.RECORD
    record.write_bytes(b"\x80\x05 estragado")
    report: BuildReport = build_site(project, out)
    assert report.inalterado is False and report.renderizados == []
    assert build_site(project, out).inalterado


def test_the_operators_guide_names_the_record_and_the_window() -> None:
    """docs/OPERACAO.md tells operators where the record is and how recent a change must be to
    keep it from being recorded: the figures of this module, not copies that could drift."""
    guide = (REPO / "docs" / "OPERACAO.md").read_text(encoding="utf-8")
    section = guide.split("### A rebuild with nothing changed", 1)[1].split("\n### ", 1)[0]
    assert f"`{unchanged.RECORD}`" in section
    assert f"less than {unchanged.RACY_NS / 1e9:g} s before the build started" in section
    assert all(f"`{folder}/`" in section for folder in unchanged.FOLDERS)


# A build in a process of its own that names the top-level entries of the project it opened or
# listed (Python's audit events; a file read by path is opened, a folder walked is listed).
AUDIT = """
import os, sys
from pathlib import Path
root = os.path.realpath(sys.argv[1])
seen = set()
def hook(event, args):
    named = args and isinstance(args[0], (str, bytes, os.PathLike))
    if event in ("open", "os.listdir", "os.scandir") and named:
        path = os.path.realpath(os.fsdecode(args[0]))
        if path.startswith(root + os.sep):
            seen.add(os.path.relpath(path, root).split(os.sep)[0])
sys.addaudithook(hook)
from site_builder.build import build_site
build_site(Path(sys.argv[1]), Path(sys.argv[2]))
print(chr(10).join(sorted(seen)))
"""


def test_a_build_reads_nothing_outside_the_walked_folders(tmp_path: Path) -> None:
    """An input read elsewhere under the project would change unseen by the record: a project
    with every kind of page (checks, archived copies, a debate, a runoff race) is built and
    every file it opened or folder it listed lies under `FOLDERS` or the caches."""
    project = make_project(tmp_path / "projeto")
    debate = "data/debates/demo-governo-2026-10-15"
    shutil.copytree(REPO / debate, project / debate)
    for candidato in (REPO / "content/candidatos").iterdir():
        shutil.copy(candidato, project / "content/candidatos")
    race = project / "data/tse/6258/presidente"
    set_latest(race, runoff_capture(race, 0, 5.0))
    (project / "eleicoes.toml").write_text("[publicar]\n", encoding="utf-8")  # the jobs' settings
    done = subprocess.run(
        [sys.executable, "-c", AUDIT, str(project), str(tmp_path / "public")],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    read = set(done.stdout.split())
    assert set(unchanged.FOLDERS) <= read, "the hook sees the build's reads"
    assert read <= {*unchanged.FOLDERS, ".cache"}
    assert (tmp_path / "public" / "projecao/6258-presidente/index.html").is_file()


def test_an_untrusted_walk_stops_at_the_first_new_entry(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a live night the build follows a capture written a moment ago: the walk gives up there,
    in `data/`, without listing the content (a full build follows anyway)."""
    monkeypatch.setattr(unchanged, "RACY_NS", 0)  # the project as written so far is trusted
    assert unchanged.inputs(project) is not None
    capture = project / "data" / "captura" / "saida.json"
    capture.parent.mkdir()
    capture.write_text("{}\n", encoding="utf-8")
    os.utime(capture, ns=(capture.stat().st_atime_ns, time.time_ns() + 10**12))  # newer than any walk
    listed: list[str] = []
    scandir = os.scandir

    def listing(path: str) -> Any:
        listed.append(path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", listing)
    assert unchanged.inputs(project) is None
    assert listed and all("/data" in path for path in listed)
