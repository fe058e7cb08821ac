"""The marked section of a shared document: replaced in place, appended when absent."""

from __future__ import annotations

from pathlib import Path

from site_builder.marked_section import replace_section, write_marked_section


def test_replace_section_keeps_the_rest_of_the_document() -> None:
    doc = "# Doc\n\n<!-- BEGIN A -->\nvelho\n<!-- END A -->\n\n<!-- BEGIN B -->\nb\n<!-- END B -->\n"
    novo = replace_section(doc, "A", "novo\n\n")
    assert novo == "# Doc\n\n<!-- BEGIN A -->\nnovo\n<!-- END A -->\n\n<!-- BEGIN B -->\nb\n<!-- END B -->\n"


def test_replace_section_appends_a_missing_section() -> None:
    assert replace_section("# Doc\n\n", "C", "c") == "# Doc\n\n<!-- BEGIN C -->\nc\n<!-- END C -->\n"


def test_write_marked_section_starts_a_missing_file_and_rewrites_it(tmp_path: Path) -> None:
    arquivo = tmp_path / "docs" / "X.md"
    write_marked_section(arquivo, "A", "um", "# X\n")
    write_marked_section(arquivo, "A", "dois", "# X\n")
    assert arquivo.read_text(encoding="utf-8") == "# X\n\n<!-- BEGIN A -->\ndois\n<!-- END A -->\n"
    assert [p.name for p in arquivo.parent.iterdir()] == ["X.md"]  # no temporary file left behind
