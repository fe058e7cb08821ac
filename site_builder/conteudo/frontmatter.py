"""Front matter of content files: a TOML block between two `+++` lines, then the Markdown body.

TOML rather than YAML: it is in the standard library, it has no implicit type guessing
(`no` stays a string, `2026-10-25` is a real date) and its errors name a line.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path
from typing import Any

from site_builder.errors import ContentError

DELIMITER = "+++"


def _split(text: str, path: str) -> tuple[str, str]:
    """(TOML header, Markdown body) of a content file; ContentError when the delimiters are wrong."""
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if lines[0].strip() != DELIMITER:
        raise ContentError(path, f"o arquivo deve começar com uma linha '{DELIMITER}' (front matter em TOML)")
    for index in range(1, len(lines)):
        if lines[index].strip() == DELIMITER:
            return "\n".join(lines[1:index]), "\n".join(lines[index + 1 :]).lstrip("\n")
    raise ContentError(path, f"front matter sem a linha '{DELIMITER}' de fechamento")


def _to_utc(value: Any) -> Any:
    """Aware date-times in UTC (the project's storage convention); naive ones stay naive."""
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.astimezone(dt.UTC)
    if isinstance(value, dict):
        return {k: _to_utc(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_to_utc(v) for v in value]
    return value


def parse_front_matter(text: str, path: str) -> dict[str, Any]:
    """The front matter of a content file as a dict; ContentError when malformed."""
    header, _body = _split(text, path)
    try:
        meta: dict[str, Any] = _to_utc(tomllib.loads(header))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(path, f"front matter inválido: {exc}") from exc
    return meta


def split_front_matter(text: str, path: str) -> tuple[dict[str, Any], str]:
    """(front matter, Markdown body) of a content file; ContentError when malformed."""
    return parse_front_matter(text, path), _split(text, path)[1]


def read_body(path: Path) -> str:
    """The Markdown body of a content file, read again at render time (bodies are not cached)."""
    return _split(path.read_text(encoding="utf-8"), str(path))[1]
