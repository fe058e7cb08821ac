"""Front matter of content files: a TOML block between two `+++` lines, then the Markdown body.

TOML rather than YAML: it is in the standard library, it has no implicit type guessing
(`no` stays a string, `2026-10-25` is a real date) and its errors name a line.
"""

from __future__ import annotations

import tomllib
from typing import Any

from site_builder.errors import ContentError

DELIMITER = "+++"


def split_front_matter(text: str, path: str) -> tuple[dict[str, Any], str]:
    """Return (front matter, Markdown body) of a content file; raise ContentError when malformed."""
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if not lines or lines[0].strip() != DELIMITER:
        raise ContentError(path, f"o arquivo deve começar com uma linha '{DELIMITER}' (front matter em TOML)")
    for index in range(1, len(lines)):
        if lines[index].strip() == DELIMITER:
            header = "\n".join(lines[1:index])
            body = "\n".join(lines[index + 1 :])
            try:
                return tomllib.loads(header), body.lstrip("\n")
            except tomllib.TOMLDecodeError as exc:
                raise ContentError(path, f"front matter inválido: {exc}") from exc
    raise ContentError(path, f"front matter sem a linha '{DELIMITER}' de fechamento")
