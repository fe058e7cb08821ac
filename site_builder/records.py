"""Records the collector reads from `content/` and `data/`: the typed context of a build."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from site_builder.config import SiteConfig

if TYPE_CHECKING:
    from site_builder.debates import DebatePagina
    from site_builder.projecao import Corrida


@dataclass(frozen=True)
class Fonte:
    """A source file the build read, identified by checksum (never by mtime)."""

    caminho: str  # POSIX path relative to the project root
    sha256: str


@dataclass(frozen=True)
class Pagina:
    """A Markdown page: a methodology page or the introduction of a section."""

    secao: str
    slug: str
    titulo: str
    descricao: str
    ordem: int
    fonte: Fonte

    @property
    def url(self) -> str:
        """Root-relative URL of the page."""
        return f"/{self.secao}/{self.slug}/"


@dataclass(frozen=True)
class Candidato:
    """A candidate as the fact-check desk names them (`content/candidatos/<id>.toml`)."""

    id: str
    nome: str
    partido: str
    cor: str
    demonstracao: bool
    fonte: Fonte


@dataclass(frozen=True)
class Checagem:
    """A social-media fact-check written by the desk (`content/checagens/<arquivo>.md`)."""

    id: str
    slug: str
    afirmacao: str
    veredito: str
    candidato: str
    status: str
    autor: str
    revisor: str
    publicado_em: dt.datetime
    demonstracao: bool
    fonte: Fonte

    @property
    def url(self) -> str:
        """Root-relative URL of the check page."""
        return f"/checagens/{self.slug}/"


@dataclass(frozen=True)
class SiteContext:
    """Everything the render phase may use; built once by the collect phase."""

    config: SiteConfig
    secoes: dict[str, Pagina]
    metodologia: list[Pagina]
    candidatos: dict[str, Candidato]
    checagens: list[Checagem]  # published only, newest first
    projecoes: tuple[Corrida, ...] = ()
    debates: tuple[DebatePagina, ...] = ()
    fontes: list[Fonte] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
