"""Projection pages (issue 4): one page per race from `data/tse/`, its API JSON and its history.

Phase 1 (`collect`) reads the stored model outputs into typed records; phase 2 (`plan`) turns
them into artifacts. Nothing here computes the projection: the pages show `saida.json` as stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from site_builder.artifact import Artifact

if TYPE_CHECKING:
    from site_builder.collect import Reader
    from site_builder.records import SiteContext


@dataclass(frozen=True)
class Corrida:
    """One race followed on election night (president, or one state's governor runoff)."""

    id: str


def collect(reader: Reader) -> tuple[Corrida, ...]:
    """The races with stored readings under `data/tse/`."""
    return ()


def plan(ctx: SiteContext) -> list[Artifact]:
    """The projection pages, API files and history downloads of every race."""
    return []
