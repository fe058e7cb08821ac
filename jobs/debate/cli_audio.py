"""Subcommands of `eleicoes debate` owned by this part of the job."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    """Add this part's subcommands to the `eleicoes debate` parser."""
    del sub  # no subcommand yet
