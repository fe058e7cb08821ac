"""eleicoes.toml: the repository's sections load, and their comments document every key and default."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from jobs.configuracao import ConfigSectionError
from jobs.publish.config import PublishConfig, load_publish_config
from scheduler import SchedulerConfig, load_scheduler_config

REPO = Path(__file__).resolve().parents[2]


def _documented(section: str) -> dict[str, Any]:
    """The `# key = value` lines under `[section]`, parsed as TOML."""
    text = (REPO / "eleicoes.toml").read_text(encoding="utf-8")
    body = text.split(f"[{section}]\n", 1)[1].split("\n[", 1)[0]
    lines = [m.group(1) for m in re.finditer(r"^# (\w+ = .*?)(?:[ \t]+#.*)?$", body, re.MULTILINE)]
    return tomllib.loads("\n".join(lines))


@pytest.mark.parametrize(("section", "cls"), [("publicar", PublishConfig), ("agendador", SchedulerConfig)])
def test_every_key_is_documented_with_its_default(section: str, cls: type[Any]) -> None:
    documented = _documented(section)
    defaults = cls()
    assert set(documented) == {f.name for f in dataclasses.fields(cls)}
    for key, value in documented.items():
        default = getattr(defaults, key)
        expected = list(default) if isinstance(default, tuple) else default
        assert (str(expected) if isinstance(default, Path) else expected) == value, key


def test_the_repository_configuration_loads() -> None:
    publish = load_publish_config(REPO)
    assert publish.destino in ("pasta", "s3")
    assert publish.pasta.is_absolute()
    assert load_scheduler_config(REPO).saude.is_absolute()


@pytest.mark.parametrize(
    ("escrito", "lido"), [("site", "site/"), ("site/", "site/"), ("a/b", "a/b/"), ("", "")]
)
def test_prefix_without_its_slash_is_a_folder(escrito: str, lido: str) -> None:
    """Issue 22, item 8: `prefixo = "site"` published `site404.html`; it is the folder `site/`."""
    assert PublishConfig(prefixo=escrito).prefixo == lido


@pytest.mark.parametrize("prefixo", ["a//b/", "./site/", "site/../x/"])
def test_prefix_must_be_a_plain_folder_path(prefixo: str) -> None:
    with pytest.raises(ConfigSectionError, match="'prefixo' deve ser um caminho de pastas"):
        PublishConfig(prefixo=prefixo)
