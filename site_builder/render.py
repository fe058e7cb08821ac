"""Jinja2 environment of the site: autoescape on, StrictUndefined, and the site's filters."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import pickle
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import jinja2
from markupsafe import Markup

from site_builder import br_format, csp
from site_builder.assets import Asset
from site_builder.writer import write_atomic

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
    env.globals[ROWS_GLOBAL] = _rows  # a build puts its `ListingRows.rows` here
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


ROWS_GLOBAL = "linhas_em_cache"  # what a checks listing (`_macros.html`) calls for its rows
ROWS_TEMPLATE = "_macros.html"  # where the row macro (`linha_checagem`) is defined
_ROWS_FORMAT = 1  # of the rows file's pickle

Row = Callable[[dict[str, Any]], str]  # the row macro, as the listing passes it


def _rows(summaries: list[dict[str, Any]], macro: Row) -> Markup:
    """A listing's rows rendered on the spot (an environment outside a build)."""
    return Markup("").join(macro(summary) for summary in summaries)


@dataclass
class ListingRows:
    """The rows of the checks listings, each rendered once and kept between builds: a row is the
    listing macro of one check summary, under the summary's `chave` (what a listing shows of the
    check, `pages.listing_key`), all under `salt` (the row macro's templates, the site's settings,
    the builder's code and the renderer's version). The listings that show every check are most
    of a one-page rebuild; with the rows kept, one re-renders only the row of the edited check.

    The file in `path` is read the first time a row is asked for (a no-op rebuild renders no
    listing, so never reads it) and holds one salt's rows: any other salt starts it empty."""

    path: Path
    salt: Callable[[], str]  # computed when the file is first read
    rendered: int = 0  # rows this build had to render
    _salt: str = ""
    _kept: dict[str, str] | None = None  # the rows of the file, once read
    _used: dict[str, str] = field(default_factory=dict)  # rows this build showed, by key

    def rows(self, summaries: list[dict[str, Any]], macro: Row) -> Markup:
        """The HTML of a listing's rows, one per summary (`ROWS_GLOBAL`: one call per listing,
        not one per row, as a call from a template costs more than the lookup)."""
        used = self._used
        parts = []
        for summary in summaries:
            key = summary.get("chave", "")
            html = used.get(key)
            if html is None:
                html = self._stored().get(key) if key else None
                if html is None:
                    html = str(macro(summary))
                    self.rendered += 1
                if key:  # a summary without a key is not a listing's: its row is not kept
                    used[key] = html
            parts.append(html)
        return Markup("".join(parts))  # noqa: S704 - the macro's own output, escaped when it was rendered

    def _stored(self) -> dict[str, str]:
        if self._kept is None:
            self._salt = self.salt()
            self._kept = {}
            try:
                kept = pickle.loads(self.path.read_bytes())  # noqa: S301 - written by this builder, in .cache
            except Exception:  # missing or damaged: the rows are rendered again
                kept = None
            if isinstance(kept, tuple) and len(kept) == 3 and kept[:2] == (_ROWS_FORMAT, self._salt):
                self._kept = kept[2]
        return self._kept

    def save(self, live: set[str]) -> None:
        """Keep the rows of the checks whose keys are in `live` (the site's checks): called when
        this build rendered any (`rendered`)."""
        rows = {key: html for key, html in {**self._stored(), **self._used}.items() if key in live}
        with contextlib.suppress(OSError):  # a cache not written only means rendering the rows again
            write_atomic(self.path, pickle.dumps((_ROWS_FORMAT, self._salt, rows), pickle.HIGHEST_PROTOCOL))
