"""What the last build produced: per output, the checksum of its inputs and of its bytes, and its
internal links. Kept in the output folder so a wiped folder means a full rebuild."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from site_builder.writer import write_atomic

MANIFEST_NAME = ".eleicoes-build.json"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class OutputRecord:
    """One output file as the last build left it."""

    entradas: str  # checksum of everything the output was made from
    sha256: str
    tamanho: int
    links: list[str]


def load_manifest(out: Path) -> dict[str, OutputRecord]:
    """The previous build's records; empty when absent or unreadable (then everything rebuilds)."""
    try:
        raw = json.loads((out / MANIFEST_NAME).read_text(encoding="utf-8"))
        if raw.get("versao") != FORMAT_VERSION:
            return {}
        return {path: OutputRecord(**record) for path, record in raw["saidas"].items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def save_manifest(out: Path, records: dict[str, OutputRecord]) -> None:
    """Write the manifest atomically, unless it already holds these bytes."""
    data = json.dumps(
        {"versao": FORMAT_VERSION, "saidas": {p: asdict(r) for p, r in sorted(records.items())}},
        ensure_ascii=False,
        indent=0,
        sort_keys=True,
    ).encode("utf-8")
    path = out / MANIFEST_NAME
    if path.exists() and path.read_bytes() == data:
        return
    write_atomic(path, data)
