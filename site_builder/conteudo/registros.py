"""The records of the content model: what a check file and a candidate file hold, and the source
file they came from (identified by checksum). The validator and the build share them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class Fonte:
    """A source file the build read, identified by checksum (never by mtime)."""

    caminho: str  # POSIX path relative to the project root
    sha256: str


@dataclass(frozen=True)
class Candidato:
    """A candidate as the fact-check desk names them (`content/candidatos/<id>.toml`)."""

    id: str
    nome: str
    partido: str
    cor: str
    demonstracao: bool
    fonte: Fonte
    perfis: tuple[str, ...] = ()  # official profiles: schema.org `sameAs` of the claim's author

    @property
    def url(self) -> str:
        """Root-relative URL of the candidate's page."""
        return f"/candidatos/{self.id}/"


@dataclass(frozen=True)
class FonteConsultada:
    """A public source a check relies on (seed: "Compromisso com as fontes")."""

    url: str
    titulo: str
    acessado_em: dt.date


@dataclass(frozen=True)
class Ocorrencia:
    """One post where the candidate made the claim (seed: "Memória de checagens")."""

    url: str
    plataforma: str
    data: dt.datetime
    arquivo: str  # archived copy, path relative to the project root (data/redes/...); "" if none
    alcance: int | None  # people reached as the platform reports it; None when unknown


@dataclass(frozen=True)
class EventoHistorico:
    """One step of a check's history: review (two steps, seed: "Redação, em duas etapas") or
    a contestation the desk acted on."""

    tipo: str  # enviada | devolvida | aprovada | contestacao
    data: dt.datetime
    pessoa: str
    nota: str = ""
    resultado: str = ""  # contestacao only: mantida | corrigida


class Correcao(NamedTuple):  # a tuple: kept in the build cache of every check
    """A public correction of a published check (seed: "Política de correções")."""

    data: dt.datetime
    explicacao: str


def url_checagem(slug: str) -> str:
    """Root-relative URL of the page of the check with this slug."""
    return f"/checagens/{slug}/"


def ultima_correcao(correcoes: tuple[Correcao, ...]) -> dt.datetime | None:
    """Date of the latest correction (a check page's update date), None if never corrected."""
    return correcoes[-1].data if correcoes else None


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
    publicado_em: dt.datetime | None
    demonstracao: bool
    fonte: Fonte
    fontes: tuple[FonteConsultada, ...] = ()
    ocorrencias: tuple[Ocorrencia, ...] = ()
    historico: tuple[EventoHistorico, ...] = ()
    correcoes: tuple[Correcao, ...] = ()
    tema: str = ""  # a key of regras.TEMAS, or "" (optional)

    @property
    def url(self) -> str:
        """Root-relative URL of the check page."""
        return url_checagem(self.slug)

    @property
    def atualizado_em(self) -> dt.datetime | None:
        """Date of the latest correction (the page's update date), None if never corrected."""
        return ultima_correcao(self.correcoes)


class ChecagemResumo(NamedTuple):
    """What every build keeps of each check (cached per file, a tuple so 10,000 of them load fast):
    what listings, counts, corrections and the feed show. A check page reads the rest from its file."""

    id: str
    slug: str
    afirmacao: str
    veredito: str
    candidato: str
    status: str
    publicado_em: dt.datetime | None
    demonstracao: bool
    correcoes: tuple[Correcao, ...]
    arquivos: tuple[str, ...]  # archived copies of its occurrences
    fonte: Fonte | None  # None in the cache; set from the file's checksum on every build
    tema: str = ""  # a key of regras.TEMAS, or "" (optional)
    # The record's checksum of its body (`publicado.explicacao_sha256`), taken where the file was
    # read: the published record is made without reading the file again. "" when not known.
    explicacao_sha256: str = ""

    @property
    def url(self) -> str:
        """Root-relative URL of the check page."""
        return url_checagem(self.slug)

    @property
    def atualizado_em(self) -> dt.datetime | None:
        """Date of the latest correction (the page's update date), None if never corrected."""
        return ultima_correcao(self.correcoes)
