"""The `[publicar]` section of eleicoes.toml, read into a typed, validated dataclass.

Every key has an embedded default, so an empty section publishes to a local folder with no keys and
no internet. Relative paths are resolved against the project folder (the one holding eleicoes.toml).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from jobs.configuracao import CONFIG_FILE, ConfigSectionError, ler_secao

DESTINOS = ("pasta", "s3")
ENDERECAMENTOS = ("auto", "path", "virtual")

T = TypeVar("T")


@dataclass(frozen=True)
class PublishConfig:
    """Where and how `eleicoes publicar` sends the built site."""

    destino: str = "pasta"  # "pasta": a local folder as the bucket; "s3": any S3-compatible store
    pasta: Path = Path(".cache/publicado")  # the folder target
    endpoint: str = ""  # S3 endpoint URL; "" = AWS itself
    regiao: str = "us-east-1"
    bucket: str = ""
    prefixo: str = ""  # key prefix inside the bucket, e.g. "site/" ("site" is read as "site/")
    perfil: str = ""  # AWS profile name; "" = boto3's default credential chain
    enderecamento: str = "auto"  # S3 addressing style: auto | path | virtual
    paralelo: int = 8  # uploads in flight at once
    tempo_limite_s: float = 30.0  # connect/read timeout of one S3 request
    max_remocoes: int = 500  # deletions per run; the rest wait for the next run
    verificar_bucket_s: float = 300.0  # full bucket listing at most this often; 0 = every run
    graca_assets_h: float = 48.0  # a stale hashed asset stays this long (old cached pages use it)
    cache_assets_s: int = 31_536_000  # hashed assets: a year, immutable
    cache_html_s: int = 60
    cache_dados_s: int = 10  # live JSON (projection, scoreboard)
    cache_outros_s: int = 300  # sitemap, feed, robots.txt, unhashed files
    estado: Path = Path(".cache/eleicoes-publicacao")  # publish manifests (outside public/)
    cdn_distribuicao: str = ""  # CloudFront distribution id; "" = no invalidation
    cdn_endpoint: str = ""  # CloudFront endpoint URL (tests); "" = AWS
    cdn_max_caminhos: int = 10  # invalidation paths are collapsed to at most this many

    def __post_init__(self) -> None:
        # A prefix names a folder of the bucket: without its slash, `404.html` would go to `site404.html`.
        if self.prefixo and not self.prefixo.endswith("/"):
            object.__setattr__(self, "prefixo", self.prefixo + "/")
        problems = validate_publish_config(self)
        if problems:
            raise ConfigSectionError("[publicar]: " + "; ".join(problems))

    def resolved(self, raiz: Path) -> PublishConfig:
        """The same configuration with relative folders made absolute against `raiz`."""
        return dataclasses.replace(self, pasta=raiz / self.pasta, estado=raiz / self.estado)


def validate_publish_config(cfg: PublishConfig) -> list[str]:
    """Problems of a publishing configuration, in Portuguese (empty when it is usable)."""
    problems: list[str] = []
    if cfg.destino not in DESTINOS:
        problems.append(f"'destino' deve ser um de {', '.join(DESTINOS)} (veio '{cfg.destino}')")
    if cfg.destino == "s3" and not cfg.bucket:
        problems.append("'bucket' é obrigatório quando destino = \"s3\"")
    if cfg.enderecamento not in ENDERECAMENTOS:
        problems.append(f"'enderecamento' deve ser um de {', '.join(ENDERECAMENTOS)}")
    if cfg.prefixo.startswith("/"):
        problems.append("'prefixo' não pode começar com '/'")
    elif cfg.prefixo and any(part in ("", ".", "..") for part in cfg.prefixo[:-1].split("/")):
        problems.append("'prefixo' deve ser um caminho de pastas, como \"site/\" (sem '//', '.' ou '..')")
    for name in ("paralelo", "cdn_max_caminhos"):
        if getattr(cfg, name) < 1:
            problems.append(f"'{name}' deve ser pelo menos 1")
    names = ("max_remocoes", "verificar_bucket_s", "graca_assets_h", "cache_assets_s", "cache_html_s")
    for name in (*names, "cache_dados_s"):
        if getattr(cfg, name) < 0:
            problems.append(f"'{name}' não pode ser negativo")
    if cfg.cache_outros_s < 0 or cfg.tempo_limite_s <= 0:
        problems.append("'cache_outros_s' não pode ser negativo e 'tempo_limite_s' deve ser positivo")
    return problems


def _type_name(kind: Any) -> str:
    return {str: "texto", int: "número inteiro", float: "número", bool: "true/false", Path: "caminho"}.get(
        kind, str(kind)
    )


def _convert(section: str, key: str, value: Any, kind: Any) -> Any:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        kinds = [k for k in typing.get_args(kind) if k is not type(None)]
        kind = kinds[0]
    if origin is tuple:  # tuple[str, ...]: a TOML list of strings
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigSectionError(f"[{section}] '{key}' deve ser uma lista de textos (veio {value!r})")
        return tuple(value)
    ok = (
        (kind is bool and isinstance(value, bool))
        or (kind is int and isinstance(value, int) and not isinstance(value, bool))
        or (kind is float and isinstance(value, int | float) and not isinstance(value, bool))
        or (kind in (str, Path) and isinstance(value, str))
    )
    if not ok:
        raise ConfigSectionError(f"[{section}] '{key}' deve ser {_type_name(kind)} (veio {value!r})")
    if kind is Path:
        return Path(value)
    if kind is float:
        return float(value)
    return value


def read_section(arquivo: Path, secao: str, cls: type[T]) -> T:
    """Read `[secao]` of the TOML file `arquivo` into the dataclass `cls` (missing file: defaults).

    Unknown keys and values of the wrong type are errors, so a typo never silently falls back
    to a default.
    """
    raw = ler_secao(secao, arquivo)
    assert dataclasses.is_dataclass(cls)
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ConfigSectionError(f"[{secao}] chave(s) desconhecida(s): {', '.join(unknown)}")
    values = {key: _convert(secao, key, value, hints[key]) for key, value in raw.items()}
    return cls(**values)


def load_publish_config(raiz: Path, arquivo: Path | None = None) -> PublishConfig:
    """`[publicar]` of `raiz/eleicoes.toml` (or `arquivo`), with folders resolved against `raiz`."""
    cfg = read_section(arquivo or raiz / CONFIG_FILE, "publicar", PublishConfig)
    return cfg.resolved(raiz)
