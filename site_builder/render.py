"""Jinja2 environment of the site: autoescape on, StrictUndefined, and the site's filters."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import jinja2

from site_builder import br_format, csp
from site_builder.assets import Asset

TEMPLATES_DIR = Path("templates")
MESES = (
    "janeiro", "fevereiro", "março", "abril", "maio", "junho",
    "julho", "agosto", "setembro", "outubro", "novembro", "dezembro",
)  # fmt: skip


# extends / include / import / from "name": a regex is 50x faster than parsing the template, and
# the templates reference each other only by literal names (a test checks it against Jinja's parser).
TEMPLATE_REFERENCE = re.compile(r"""{%-?\s*(?:extends|include|import|from)\s+["']([^"']+)["']""")


def data_extenso(value: dt.date, fuso: str) -> str:
    """'25 de outubro de 2026': a moment in the site's time zone, or a calendar date as it is."""
    local = value.astimezone(ZoneInfo(fuso)) if isinstance(value, dt.datetime) else value
    dia = "1º" if local.day == 1 else str(local.day)  # "1º de dezembro", as Brazilians write it
    return f"{dia} de {MESES[local.month - 1]} de {local.year}"


def make_environment(
    root: Path, assets: dict[str, Asset], fuso: str, avisos: list[str], bytecode: Path | None = None
) -> jinja2.Environment:
    """The environment every template renders in; `avisos` collects missing-asset warnings.

    `bytecode`: a folder where compiled templates are kept between builds (compiling the page
    templates is most of a one-page rebuild). Jinja keys each by the template's name and source
    checksum and by the Python version, and recompiles on any mismatch or unreadable file.
    """
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(root / TEMPLATES_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Templates do not change during a build: no stat of each template at each page.
        auto_reload=False,
        bytecode_cache=_bytecode_cache(bytecode) if bytecode is not None else None,
    )

    def asset(name: str) -> str:
        found = assets.get(name)
        if found is None:
            avisos.append(f"arquivo estático inexistente: templates/static/{name}")
            return f"/static/{name}"
        return "/" + found.path

    env.globals["asset"] = asset
    env.globals["csp"] = csp.policy()
    env.globals["plural"] = br_format.plural  # the one pluralization rule of the site
    env.filters["data_extenso"] = lambda value: data_extenso(value, fuso)
    env.filters["iso"] = lambda value: value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    return env


def _bytecode_cache(folder: Path) -> jinja2.BytecodeCache | None:
    """Jinja's file cache of compiled templates in `folder`; None when it cannot be made (the
    templates are then compiled in memory, as without a cache)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(folder))


def template_closure_hash(env: jinja2.Environment, name: str, cache: dict[str, str]) -> str:
    """Checksum of a template and of every template it extends, includes or imports."""
    if name in cache:
        return cache[name]
    loader = env.loader
    assert loader is not None
    seen: set[str] = set()
    pending = [name]
    digest = hashlib.sha256()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        source, _filename, _uptodate = loader.get_source(env, current)
        digest.update(current.encode() + b"\0" + source.encode("utf-8") + b"\0")
        pending.extend(TEMPLATE_REFERENCE.findall(source))
    cache[name] = digest.hexdigest()
    return cache[name]


def render(env: jinja2.Environment, template: str, context: dict[str, Any]) -> bytes:
    """Render one template to UTF-8 bytes."""
    return env.get_template(template).render(context).encode("utf-8")
