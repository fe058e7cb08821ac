"""A section of a Markdown document kept between `<!-- BEGIN name -->` and `<!-- END name -->`.

Benchmarks and quality jobs each own one such section of a shared document (docs/PERFORMANCE.md,
docs/QUALIDADE.md) and rewrite only theirs, leaving every other section alone.
"""

from __future__ import annotations

from pathlib import Path

from site_builder.writer import write_atomic


def replace_section(document: str, name: str, content: str) -> str:
    """`document` with the block `name` holding `content`: replaced where the markers exist,
    else appended after a blank line."""
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    block = f"{begin}\n{content.rstrip()}\n{end}"
    if begin in document and end in document:
        before, rest = document.split(begin, 1)
        return before + block + rest.split(end, 1)[1]
    return document.rstrip("\n") + "\n\n" + block + "\n"


def write_marked_section(path: Path, name: str, content: str, new_document: str = "") -> None:
    """Rewrite the block `name` of the file at `path` (atomically); a missing file starts as
    `new_document`."""
    current = path.read_text(encoding="utf-8") if path.exists() else new_document
    write_atomic(path, replace_section(current, name, content).encode("utf-8"))
