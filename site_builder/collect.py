"""Phase 1 of the build: read `content/` (and later `data/`) into one typed SiteContext.

Nothing is rendered or written here. Every problem is collected with its file name, in
Portuguese, so an editor sees all of them at once.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from jobs.vereditos import VEREDITOS
from site_builder import debates, projecao
from site_builder.config import SiteConfig
from site_builder.errors import BuildError, ContentError
from site_builder.frontmatter import parse_front_matter
from site_builder.records import Candidato, Checagem, Fonte, Pagina, SiteContext
from site_builder.state import BuildState

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SECTIONS = ("inicio", "projecao", "debates", "checagens", "metodologia")
CHECK_STATUSES = ("rascunho", "em_revisao", "publicada")


@dataclass
class Reader:
    """Reads sources through the build cache and collects errors and warnings, in Portuguese."""

    root: Path
    config: SiteConfig
    cache: BuildState
    fontes: list[Fonte] = field(default_factory=list)
    erros: list[str] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)

    def parse(self, path: str, parser: Callable[[str, str], Any]) -> tuple[Any, Fonte] | None:
        """Read and parse one source (or take both from the cache); None after recording an error."""
        rel = path  # relative to the root, POSIX separators; strings, as pathlib is slow over 10,000 files
        full = f"{self.root}/{rel}"  # plain strings: pathlib costs add up over 10,000 files
        digest, data, cached = self.cache.read(full, rel)
        fonte = Fonte(rel, digest)
        self.fontes.append(fonte)
        if cached is not None:
            return cached.parsed, fonte
        assert data is not None
        try:
            parsed = parser(data.decode("utf-8"), rel)
        except UnicodeDecodeError:
            self.erros.append(f"{rel}: o arquivo não está em UTF-8")
            return None
        except ContentError as exc:
            self.erros.append(str(exc))
            return None
        self.cache.store(full, rel, digest, parsed)
        return parsed, fonte

    def markdown(self, path: str) -> tuple[dict[str, Any], Fonte] | None:
        return self.parse(path, parse_front_matter)

    def text_field(self, meta: dict[str, Any], key: str, fonte: Fonte, default: str | None = None) -> str:
        value = meta.get(key, default)
        if not isinstance(value, str) or not value.strip():
            self.erros.append(f"{fonte.caminho}: {key}: campo obrigatório, deve ser um texto não vazio")
            return ""
        return value.strip()


def _stem(rel: str) -> str:
    return rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _pagina(reader: Reader, path: str, secao: str) -> Pagina | None:
    parsed = reader.markdown(path)
    if parsed is None:
        return None
    meta, fonte = parsed
    slug = _stem(path)
    if not SLUG.match(slug):
        reader.erros.append(f"{fonte.caminho}: nome de arquivo inválido para endereço (use a-z, 0-9 e '-')")
    ordem = meta.get("ordem", 100)
    if not isinstance(ordem, int):
        reader.erros.append(f"{fonte.caminho}: ordem: deve ser um número inteiro")
        ordem = 100
    return Pagina(
        secao=secao,
        slug=slug,
        titulo=reader.text_field(meta, "titulo", fonte),
        descricao=reader.text_field(meta, "descricao", fonte),
        ordem=ordem,
        fonte=fonte,
    )


def _as_datetime(value: object, tz: ZoneInfo) -> dt.datetime | None:
    # TOML gives real dates; a bare date or a naive time is read as Brasília time.
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=tz)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day, tzinfo=tz)
    return None


def _parse_toml(text: str, path: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(path, f"TOML inválido: {exc}") from exc


def _candidato(reader: Reader, path: str) -> Candidato | None:
    parsed = reader.parse(path, _parse_toml)
    if parsed is None:
        return None
    meta, fonte = parsed
    cor = reader.text_field(meta, "cor", fonte)
    if cor and not re.fullmatch(r"#[0-9a-fA-F]{6}", cor):
        reader.erros.append(f"{fonte.caminho}: cor: use o formato #RRGGBB")
    return Candidato(
        id=_stem(path),
        nome=reader.text_field(meta, "nome", fonte),
        partido=reader.text_field(meta, "partido", fonte),
        cor=cor,
        demonstracao=bool(meta.get("demonstracao", False)),
        fonte=fonte,
    )


def _checagem(reader: Reader, path: str, candidatos: dict[str, Candidato]) -> Checagem | None:
    parsed = reader.markdown(path)
    if parsed is None:
        return None
    meta, fonte = parsed
    where = fonte.caminho
    slug = reader.text_field(meta, "slug", fonte, default=_stem(path))
    if slug and not SLUG.match(slug):
        reader.erros.append(f"{where}: slug: use apenas a-z, 0-9 e '-'")
    veredito = reader.text_field(meta, "veredito", fonte)
    if veredito and veredito not in VEREDITOS:
        reader.erros.append(f"{where}: veredito: '{veredito}' não existe (use {', '.join(VEREDITOS)})")
    status = reader.text_field(meta, "status", fonte)
    if status and status not in CHECK_STATUSES:
        reader.erros.append(f"{where}: status: '{status}' não existe (use {', '.join(CHECK_STATUSES)})")
    candidato = reader.text_field(meta, "candidato", fonte)
    if candidato and candidato not in candidatos:
        reader.erros.append(f"{where}: candidato: '{candidato}' não está em content/candidatos/")
    publicado_em = _as_datetime(meta.get("publicado_em"), ZoneInfo(reader.config.fuso_horario))
    if status == "publicada" and publicado_em is None:
        reader.erros.append(f"{where}: publicado_em: data obrigatória em checagem publicada")
    return Checagem(
        id=reader.text_field(meta, "id", fonte),
        slug=slug,
        afirmacao=reader.text_field(meta, "afirmacao", fonte),
        veredito=veredito,
        candidato=candidato,
        status=status,
        autor=str(meta.get("autor", "")).strip(),
        revisor=str(meta.get("revisor", "")).strip(),
        publicado_em=publicado_em or dt.datetime(1970, 1, 1, tzinfo=dt.UTC),
        demonstracao=bool(meta.get("demonstracao", False)),
        fonte=fonte,
    )


def _publishable(reader: Reader, check: Checagem) -> bool:
    """Only published checks approved by a second person reach the site (seed: two-step editing)."""
    if check.status != "publicada":
        return False
    if not check.revisor or check.revisor == check.autor:
        reader.avisos.append(
            f"{check.fonte.caminho}: checagem não publicada: precisa de aprovação de outra pessoa "
            "(revisor ausente ou igual ao autor)"
        )
        return False
    return True


def _files(root: Path, folder: str, suffix: str) -> list[str]:
    """Files of one content folder as paths relative to `root`, sorted by name."""
    try:
        names = sorted(os.listdir(root / folder))  # noqa: PTH208 - names, not Path objects, for speed
    except FileNotFoundError:
        return []
    return [f"{folder}/{name}" for name in names if name.endswith(suffix)]


def collect(root: Path, config: SiteConfig, cache: BuildState) -> SiteContext:
    """Read every content file under `root`; raise BuildError listing all problems found."""
    reader = Reader(root, config, cache)
    secoes: dict[str, Pagina] = {}
    for name in SECTIONS:
        path = f"content/secoes/{name}.md"
        if not (root / path).exists():
            reader.erros.append(f"content/secoes/{name}.md: arquivo obrigatório ausente")
            continue
        page = _pagina(reader, path, "secoes")
        if page is not None:
            secoes[name] = page
    metodologia = [
        page
        for path in _files(root, "content/metodologia", ".md")
        if (page := _pagina(reader, path, "metodologia")) is not None
    ]
    metodologia.sort(key=lambda p: (p.ordem, p.slug))
    candidatos = {
        c.id: c
        for path in _files(root, "content/candidatos", ".toml")
        if (c := _candidato(reader, path)) is not None
    }
    checagens = [
        check
        for path in _files(root, "content/checagens", ".md")
        if (check := _checagem(reader, path, candidatos)) is not None
    ]
    if reader.erros:
        raise BuildError("conteúdo inválido:\n" + "\n".join(f"  - {e}" for e in reader.erros))
    projecoes = projecao.collect(reader)
    debate_pages = debates.collect(reader)
    if reader.erros:
        raise BuildError("dados inválidos:\n" + "\n".join(f"  - {e}" for e in reader.erros))
    publicadas = [c for c in checagens if _publishable(reader, c)]
    publicadas.sort(key=lambda c: (c.publicado_em, c.slug), reverse=True)
    return SiteContext(
        config=config,
        secoes=secoes,
        metodologia=metodologia,
        candidatos=candidatos,
        checagens=publicadas,
        projecoes=projecoes,
        debates=debate_pages,
        fontes=reader.fontes,
        avisos=reader.avisos,
    )


def fingerprint(*parts: str) -> str:
    """Checksum of a list of strings: the identity of an artifact's inputs."""
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()
