"""Debate pages (issue 7): one page per debate from `data/debates/<id>/`.

Phase 1 (`collect`) reads each debate's stored stages (turns, evaluations, checks, scoreboard)
into typed records; phase 2 (`plan`) turns them into artifacts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from site_builder.artifact import Artifact

if TYPE_CHECKING:
    from site_builder.collect import Reader
    from site_builder.records import SiteContext


@dataclass(frozen=True)
class DebatePagina:
    """One debate as its page shows it."""

    id: str


def collect(reader: Reader) -> tuple[DebatePagina, ...]:
    """The debates stored under `data/debates/`."""
    return ()


def plan(ctx: SiteContext) -> list[Artifact]:
    """The page of every debate."""
    return []
