"""Subcommands for capture, queue and drafts (`eleicoes redes ...`, `eleicoes checagens fila|rascunho`)."""

from __future__ import annotations

from typing import Any


def register(checagens_sub: Any, redes_sub: Any) -> None:
    """Add the capture, queue and draft subcommands."""
    del checagens_sub, redes_sub  # no subcommand yet
