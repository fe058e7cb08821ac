"""Reading `eleicoes.toml`: one section per job, each job validates its own into a dataclass."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from site_builder.conteudo.frontmatter import aninhamento_excessivo

CONFIG_FILE = Path("eleicoes.toml")


class ConfigSectionError(ValueError):
    """A section of the configuration file is unreadable or invalid (message in Portuguese)."""


def ler_secao(
    nome: str, caminho: Path = CONFIG_FILE, erro: type[ValueError] = ConfigSectionError
) -> dict[str, Any]:
    """The raw table `[nome]` of a TOML file; {} when the file or the section is absent.

    A broken file or a section that is not a table raises `erro` (the caller's own error type).
    """
    if not caminho.exists():
        return {}
    try:
        dados = tomllib.loads(caminho.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise erro(f"{caminho}: TOML inválido: {exc}") from exc
    except RecursionError as exc:  # tomllib recurses once per level of nested lists and tables
        raise erro(f"{caminho}: TOML inválido: {aninhamento_excessivo()}") from exc
    secao = dados.get(nome, {})
    if not isinstance(secao, dict):
        raise erro(f"{caminho}: [{nome}] deve ser uma tabela")
    return secao
