"""The typed context of a build: what the collector read from `content/` and `data/`.

The records of checks and candidates belong to the content model (`site_builder/conteudo/registros.py`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder.config import SiteConfig
from site_builder.conteudo.editores import Registro
from site_builder.conteudo.registros import Candidato, Checagem, ChecagemResumo, Fonte

if TYPE_CHECKING:
    from site_builder.debates import DebatePagina
    from site_builder.projecao import Corrida


@dataclass(frozen=True)
class Pagina:
    """A Markdown page: a methodology page or the introduction of a section."""

    secao: str
    slug: str
    titulo: str
    descricao: str
    ordem: int
    fonte: Fonte
    atualizado_em: dt.date | None = None  # optional front matter: the sitemap's lastmod

    @property
    def url(self) -> str:
        """Root-relative URL of the page."""
        return f"/{self.secao}/{self.slug}/"


@dataclass(frozen=True)
class CopiaArquivada:
    """An archived copy of a post, published as a static file next to the pages."""

    origem: str  # path relative to the project root
    local: str  # the same file's path on this machine, read only when the output must be written
    saida: str  # output path
    sha256: str


@dataclass(frozen=True)
class SiteContext:
    """Everything the render phase may use; built once by the collect phase."""

    config: SiteConfig
    secoes: dict[str, Pagina]
    metodologia: list[Pagina]
    candidatos: dict[str, Candidato]
    checagens: list[ChecagemResumo]  # published only, newest first
    projecoes: tuple[Corrida, ...] = ()
    debates: tuple[DebatePagina, ...] = ()
    fontes: list[Fonte] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
    copias: tuple[CopiaArquivada, ...] = ()  # archived copies linked from published checks
    raiz: Path | None = None  # the project folder (check pages read their file again when rendered)
    completas: dict[str, Checagem] = field(default_factory=dict)  # checks this build parsed, by path
    editores: Registro = field(default_factory=Registro)  # names on the pages come from it
    recusas: list[str] = field(default_factory=list)  # files refused (see `collect`'s `isolar`)
    # The files whose last accepted version is kept (`last_good`) that this build accepted: path -> SHA-256.
    aceitos: dict[str, str] = field(default_factory=dict)
