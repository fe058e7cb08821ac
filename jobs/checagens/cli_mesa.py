"""Subcommands of `eleicoes checagens` for the desk's content (validation)."""

from __future__ import annotations

from typing import Any


def register(checagens_sub: Any) -> None:
    """Add the desk's subcommands to the `eleicoes checagens` parser."""
    del checagens_sub  # no subcommand yet
