"""`[tse]`: defaults, validation in Portuguese, the pinned calibration, the TSE rate ceiling."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobs.tse.config import (
    DEFAULT_RACES,
    PINNED_CALIBRATION,
    ConfigTse,
    Corrida,
    TseConfigError,
    carregar_config_tse,
    config_tse,
)
from model.calibration import load_calibration
from tests.tse.conftest import REPO


def test_empty_section_gives_the_2026_runoff() -> None:
    cfg = config_tse({})
    assert cfg == ConfigTse()
    assert cfg.url_base == "https://resultados.tse.jus.br" and cfg.requisicoes_por_segundo == 20
    assert [c.rotulo for c in cfg.corridas] == [
        "presidente 6258",
        *(f"governador-{uf} 6260" for uf in ("ac", "am", "es", "rj", "rn", "to")),
        "governador-df 6260",
    ]
    assert cfg.corridas[-1].nivel == "zona" and "Mozilla/5.0" in cfg.user_agent


def test_repository_config_matches_the_defaults_and_the_calibration() -> None:
    cfg = carregar_config_tse(REPO / "eleicoes.toml")
    assert cfg.com(raiz=Path()) == ConfigTse()
    assert cfg.corridas == DEFAULT_RACES
    current = load_calibration().sha256
    assert cfg.calibracao_sha256 == current == PINNED_CALIBRATION, (
        "model/calibracao.json mudou: se é deliberado, atualize calibracao_sha256 em eleicoes.toml "
        "e PINNED_CALIBRATION em jobs/tse/config.py"
    )


def test_races_from_toml(tmp_path: Path) -> None:
    toml = tmp_path / "e.toml"
    toml.write_text(
        '[tse]\npasta_dados = "saida"\n[[tse.corridas]]\ncargo = "presidente"\neleicao = 6257\n'
        '[[tse.corridas]]\ncargo = "governador"\neleicao = "6260"\nufs = ["AC", "rj"]\n',
        encoding="utf-8",
    )
    cfg = carregar_config_tse(toml)
    assert cfg.corridas == (
        Corrida("presidente", "6257", "br", "uf"),
        Corrida("governador", "6260", "ac", "municipio"),
        Corrida("governador", "6260", "rj", "municipio"),
    )
    assert cfg.dados == tmp_path / "saida" and cfg.repositorio == tmp_path / "data"


@pytest.mark.parametrize(
    ("raw", "mensagem"),
    [
        ({"velocidade": 1}, "chave desconhecida 'velocidade'"),
        ({"url_base": "ftp://x"}, "deve começar com http"),
        ({"requisicoes_por_segundo": 95}, "bloqueia o IP"),
        ({"requisicoes_por_segundo": 0}, "deve ser entre"),
        ({"tentativas": 1.5}, "número inteiro"),
        ({"jws": "talvez"}, "não existe"),
        ({"git": "sim"}, "true ou false"),
        ({"calibracao_sha256": "abc"}, "64 dígitos"),
        ({"corridas": []}, "lista não vazia"),
        ({"corridas": [{"cargo": "prefeito", "eleicao": "1"}]}, "cargo deve ser"),
        ({"corridas": [{"cargo": "governador", "eleicao": "6260"}]}, "precisa de uf"),
        ({"corridas": [{"cargo": "governador", "eleicao": "6260", "uf": "xx"}]}, "UF desconhecida"),
        ({"corridas": [{"cargo": "presidente", "eleicao": "x"}]}, "código do TSE"),
        ({"corridas": [{"cargo": "presidente", "eleicao": "6258", "nivel": "zona"}]}, "por zona"),
        ({"corridas": [{"cargo": "presidente", "eleicao": "6258"}] * 2}, "duas vezes"),
    ],
)
def test_bad_values_are_clear_errors(raw: dict[str, object], mensagem: str) -> None:
    with pytest.raises(TseConfigError, match=mensagem):
        config_tse(raw)


def test_high_rates_are_allowed_only_off_the_tse() -> None:
    cfg = config_tse({"url_base": "http://127.0.0.1:9", "requisicoes_por_segundo": 500, "rajada": 500})
    assert cfg.requisicoes_por_segundo == 500


def test_bad_toml_is_a_clear_error(tmp_path: Path) -> None:
    toml = tmp_path / "e.toml"
    toml.write_text("[tse\n", encoding="utf-8")
    with pytest.raises(TseConfigError, match="TOML inválido"):
        carregar_config_tse(toml)


@pytest.mark.parametrize(
    ("chave", "valor"),
    [
        ("url_base", "http://usuario@127.0.0.1:8000"),
        ("url_base", "http://127.0.0.1:8000/a/../b"),
        ("url_base", "http://127.0.0.1:8000/?x=1"),
        ("url_base", "http://127.0.0.1:porta"),
        ("ambiente", "../../esc"),
        ("ambiente", "oficial@outro"),
        ("ciclo", "ele2026/../x"),
    ],
)
def test_url_parts_of_the_config_are_plain(chave: str, valor: str) -> None:
    """Issue 22 items 2-3: every URL is built from validated parts."""
    with pytest.raises(TseConfigError, match=chave):
        config_tse({chave: valor})


@pytest.mark.parametrize("eleicao", ["²", "6258/../..", "1" * 5000, "٣"])
def test_election_code_is_ascii_digits(eleicao: str) -> None:
    """`str.isdigit` is true for "²": `int()` then raised a ValueError that escaped."""
    with pytest.raises(TseConfigError, match="eleicao"):
        config_tse({"corridas": [{"cargo": "presidente", "eleicao": eleicao}]})
