"""Reading sources through the build cache (the collect phase's reader) and the checksum that
identifies an artifact's inputs. Shared by `collect` and the parts it calls (`debates`, `projecao`),
so none of them imports `collect`."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from site_builder.config import SiteConfig
from site_builder.conteudo.frontmatter import parse_front_matter
from site_builder.conteudo.registros import Fonte
from site_builder.errors import ContentError
from site_builder.state import BuildState

T = TypeVar("T")


@dataclass
class Reader:
    """Reads sources through the build cache and collects errors and warnings, in Portuguese."""

    root: Path
    config: SiteConfig
    cache: BuildState
    fontes: list[Fonte] = field(default_factory=list)
    erros: list[str] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
    # The errors of `erros` that refuse one check file only (the file is left out of the build).
    recusas: list[str] = field(default_factory=list)

    def parse(self, path: str, parser: Callable[[str, str], Any]) -> tuple[Any, Fonte] | None:
        """Read and parse one source (or take both from the cache); None after recording an error."""
        return self.parse_fonte(path, lambda text, fonte: parser(text, fonte.caminho))

    def parse_fonte(
        self, path: str, parser: Callable[[str, Fonte], Any], valid: Callable[[Any], bool] | None = None
    ) -> tuple[Any, Fonte] | None:
        """Like `parse`, for parsers that keep the source (path and checksum) in what they return.

        `valid(cached)` says whether a cached result still holds (it may depend on another file).
        """
        fonte, cached, data = self.consult(path, valid)
        if data is None:
            return cached, fonte
        parsed = parse_bytes(data, fonte, parser)
        if isinstance(parsed, Recusa):
            self.erros.append(parsed.mensagem)
            return None
        self.remember(fonte, parsed)
        return parsed, fonte

    def consult(
        self, path: str, valid: Callable[[Any], bool] | None = None
    ) -> tuple[Fonte, Any, bytes | None]:
        """(source, cached result, None) when the cache still holds for `path`, else (source, None,
        its bytes) for the caller to parse and `remember`. `valid` as in `parse_fonte`."""
        rel = path  # relative to the root, POSIX separators; strings, as pathlib is slow over 10,000 files
        full = f"{self.root}/{rel}"  # plain strings: pathlib costs add up over 10,000 files
        digest, data, cached = self.cache.read(full, rel)
        fonte = Fonte(rel, digest)
        self.fontes.append(fonte)
        if cached is not None and (valid is None or valid(cached.parsed)):
            return fonte, cached.parsed, None
        if data is None:
            with open(full, "rb") as handle:  # noqa: PTH123 - plain strings, as above
                data = handle.read()
        return fonte, None, data

    def remember(self, fonte: Fonte, parsed: Any) -> None:
        """Keep what parsing the source gave for the next build."""
        self.cache.store(f"{self.root}/{fonte.caminho}", fonte.caminho, fonte.sha256, parsed)

    def binary(self, path: str) -> Fonte | None:
        """Record a file copied as is (an archived copy) as a source; None if it does not exist."""
        full = f"{self.root}/{path}"
        try:
            digest, _data, cached = self.cache.read(full, path)
        except OSError:  # missing, a folder, unreadable: the link is left out
            return None
        if cached is None:
            self.cache.store(full, path, digest, None)
        fonte = Fonte(path, digest)
        self.fontes.append(fonte)
        return fonte

    def markdown(self, path: str) -> tuple[dict[str, Any], Fonte] | None:
        return self.parse(path, parse_front_matter)

    def text_field(self, meta: dict[str, Any], key: str, fonte: Fonte, default: str | None = None) -> str:
        value = meta.get(key, default)
        if not isinstance(value, str) or not value.strip():
            self.erros.append(f"{fonte.caminho}: {key}: campo obrigatório, deve ser um texto não vazio")
            return ""
        return value.strip()


@dataclass(frozen=True)
class Recusa:
    """Why a source could not be parsed: a Portuguese message that names the file."""

    mensagem: str


def parse_bytes(data: bytes, fonte: Fonte, parser: Callable[[str, Fonte], T]) -> T | Recusa:
    """What `parser` makes of a source's bytes, or why it cannot (not UTF-8, a content error)."""
    try:
        return parser(data.decode("utf-8"), fonte)
    except UnicodeDecodeError as exc:
        return Recusa(
            f"{fonte.caminho}: o arquivo não está em UTF-8 (byte inválido na posição {exc.start}); "
            "salve-o em UTF-8"
        )
    except ContentError as exc:
        return Recusa(str(exc))


def fingerprint(*parts: str) -> str:
    """Checksum of a list of strings: the identity of an artifact's inputs."""
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()
