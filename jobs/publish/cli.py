"""Subcommands of this job for the `eleicoes` console script."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    """Add this job's subcommands to the `eleicoes` parser."""
    del sub  # no subcommand yet
