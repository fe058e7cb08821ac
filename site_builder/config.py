"""Typed site configuration (`content/site.toml`), validated into errors and warnings."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from site_builder.ao_vivo import INTERVALO_S
from site_builder.conteudo.frontmatter import FUSO_REDACAO, ler_toml, normalizar_linhas
from site_builder.errors import ConfigError, ContentError

CONFIG_FILE = Path("content") / "site.toml"


@dataclass(frozen=True)
class SiteConfig:
    """What the templates need to know about the site itself."""

    titulo: str
    descricao: str
    url_base: str  # absolute, no trailing slash; used only where absolute URLs are required
    organizacao: str
    email_redacao: str
    fuso_horario: str = FUSO_REDACAO
    email_checagens: str = ""  # the fact-check desk's address for contestations (default: email_redacao)
    repositorio: str = ""  # the public code repository (what `git clone` takes), for the audit commands
    intervalo_ao_vivo_s: int = INTERVALO_S  # how often an open race page asks for new data

    def absolute(self, path: str) -> str:
        """Absolute URL of a root-relative path."""
        return self.url_base + path


@dataclass(frozen=True)
class _Field:
    name: str
    required: bool = True


_FIELDS = (
    _Field("titulo"),
    _Field("descricao"),
    _Field("url_base"),
    _Field("organizacao"),
    _Field("email_redacao"),
    _Field("fuso_horario", required=False),
    _Field("email_checagens", required=False),
    _Field("repositorio", required=False),
)
# Whole seconds an open live page waits between two requests for new data.
_INTERVALO = ("intervalo_ao_vivo_s", 1, 300)


def validate_config(raw: dict[str, Any]) -> tuple[SiteConfig | None, list[str], list[str]]:
    """Check a parsed configuration; return (config or None, errors, warnings)."""
    errors: list[str] = []
    warnings: list[str] = []
    known = {f.name for f in _FIELDS} | {_INTERVALO[0]}
    for key in sorted(set(raw) - known):
        warnings.append(f"site.toml: chave desconhecida '{key}' (ignorada)")
    values: dict[str, str] = {}
    for field in _FIELDS:
        value = raw.get(field.name)
        if value is None:
            if field.required:
                errors.append(f"site.toml: falta a chave obrigatória '{field.name}'")
            continue
        if not isinstance(value, str) or not value.strip():
            errors.append(f"site.toml: '{field.name}' deve ser um texto não vazio")
            continue
        values[field.name] = value.strip()
    url = values.get("url_base", "")
    if url:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            errors.append("site.toml: 'url_base' deve ser um endereço http(s) absoluto, sem ? nem #")
        values["url_base"] = url.rstrip("/")
    nome, minimo, maximo = _INTERVALO
    intervalo = raw.get(nome, INTERVALO_S)
    if isinstance(intervalo, bool) or not isinstance(intervalo, int) or not minimo <= intervalo <= maximo:
        errors.append(f"site.toml: '{nome}' deve ser um número inteiro de segundos, de {minimo} a {maximo}")
    if errors:
        return None, errors, warnings
    return SiteConfig(**values, intervalo_ao_vivo_s=intervalo), errors, warnings


def load_config(root: Path) -> tuple[SiteConfig, list[str]]:
    """Read and validate `content/site.toml`; return (config, warnings) or raise ConfigError."""
    path = root / CONFIG_FILE
    try:
        raw = ler_toml(normalizar_linhas(path.read_text(encoding="utf-8")), str(CONFIG_FILE))
    except FileNotFoundError as exc:
        raise ConfigError(f"configuração não encontrada: {path}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: TOML inválido: {exc}") from exc
    except ContentError as exc:  # nested too deep, too large: named with its line
        raise ConfigError(str(exc)) from exc
    config, errors, warnings = validate_config(raw)
    if config is None:
        raise ConfigError("; ".join(errors))
    return config, warnings
