"""`[checagens]` configuration: defaults, the project file, validation messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jobs.analise.config import carregar_config_analise
from jobs.checagens.configuracao import ConfigChecagens, carregar_config_checagens, config_checagens
from jobs.configuracao import ConfigSectionError

REPO = Path(__file__).resolve().parents[2]


def test_empty_section_gives_defaults(tmp_path: Path) -> None:
    assert carregar_config_checagens(tmp_path / "ausente.toml") == ConfigChecagens()
    assert config_checagens({}) == ConfigChecagens()


def test_project_file_is_valid_and_matches_the_defaults() -> None:
    config = carregar_config_checagens(REPO / "eleicoes.toml")
    assert config.memoria == ConfigChecagens().memoria, "documented values are the defaults"
    carregar_config_analise(REPO / "eleicoes.toml")


def test_collectors_are_read() -> None:
    raw = {
        "coletores": [
            {"candidato": "helena-prado", "url": "https://feeds.example/x.xml", "plataforma": "youtube"}
        ]
    }
    [coletor] = config_checagens(raw).coletores
    assert (coletor.candidato, coletor.plataforma) == ("helena-prado", "youtube")


@pytest.mark.parametrize(
    ("raw", "trecho"),
    [
        ({"memoria": {"limiar_alto": 1.5}}, "limiar_alto"),
        ({"memoria": {"limiar_alto": 0.2, "limiar_baixo": 0.4}}, "limiar_baixo não pode ser maior"),
        ({"memoria": {"embeddings": "bert"}}, "embeddings"),
        ({"memoria": {"limiar_reuso": 0.4}}, "limiar_reuso não pode ser menor que limiar_alto"),
        ({"memoria": {"limiar_reuso_embeddings": 0.6}}, "limiar_reuso_embeddings não pode ser menor"),
        ({"memoria": "alto"}, r"\[checagens.memoria\]"),
        ({"busca": {"backend": "web"}}, "url"),
        ({"tamanho_maximo_mb": 0}, "tamanho_maximo_mb"),
        ({"transcrever_videos": "sim"}, "true ou false"),
        ({"coletores": {"candidato": "x"}}, "lista de tabelas"),
        ({"coletores": [{"candidato": "Helena Prado", "url": "https://x.example/f"}]}, "id inválido"),
        ({"coletores": [{"candidato": "helena-prado", "url": "ftp://x"}]}, "url"),
        (
            {
                "coletores": [
                    {"candidato": "helena-prado", "url": "https://x.example/f", "plataforma": "orkut"}
                ]
            },
            "orkut",
        ),
    ],
)
def test_invalid_values_have_portuguese_messages(raw: dict[str, Any], trecho: str) -> None:
    with pytest.raises(ConfigSectionError, match=trecho):
        config_checagens(raw)
