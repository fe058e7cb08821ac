"""Static assets (`templates/static/`): published under content-hashed names so a CDN can cache
them for a year, and a changed file gets a new URL."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from site_builder.errors import BuildError

STATIC_DIR = Path("templates") / "static"


@dataclass(frozen=True)
class Asset:
    """One static file and the hashed path it is published under."""

    name: str  # path under templates/static/, e.g. "estilo.css"
    path: str  # output path, e.g. "static/estilo.1a2b3c4d5e.css"
    data: bytes


def hashed_name(name: str, data: bytes) -> str:
    """`estilo.css` -> `estilo.<10 hex of SHA-256>.css`."""
    digest = hashlib.sha256(data).hexdigest()[:10]
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.{digest}.{ext}" if dot else f"{name}.{digest}"


def collect_assets(root: Path) -> dict[str, Asset]:
    """Every file under templates/static/, keyed by its name there."""
    base = root / STATIC_DIR
    assets: dict[str, Asset] = {}
    for path in sorted(base.rglob("*")):
        if path.is_symlink():  # never followed: it may point outside the project
            rel = path.relative_to(root).as_posix()
            raise BuildError(f"{rel}: é um link simbólico; o site só publica arquivos do próprio projeto")
        if not path.is_file():
            continue
        name = path.relative_to(base).as_posix()
        data = path.read_bytes()
        assets[name] = Asset(name, f"static/{hashed_name(name, data)}", data)
    return assets
