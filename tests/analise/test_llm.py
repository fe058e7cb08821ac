"""The OpenAI-compatible client against a real loopback Chat Completions server."""

from __future__ import annotations

from typing import Any

import pytest

from jobs.analise.config import ConfigAnalise, carregar_config_analise, config_analise
from jobs.analise.llm import ErroAnalise, pedir_json
from jobs.configuracao import ConfigSectionError
from tests.support.chat_server import ChatServer, corpo_invalido, erro, lento, malformado, ok


def _config(servidor: ChatServer, **extra: Any) -> ConfigAnalise:
    valores: dict[str, Any] = {
        "backend": "openai",
        "base_url": servidor.url,
        "modelo": "modelo-teste",
        "chave_env": "",
        "tempo_limite_s": 2.0,
        "tentativas": 3,
        "espera_s": 0.0,
    }
    valores.update(extra)
    return ConfigAnalise(**valores)


def _soma(dados: Any) -> int:
    if not isinstance(dados, dict) or not isinstance(dados.get("soma"), int):
        raise ValueError("esperava {'soma': inteiro}")
    return int(dados["soma"])


def test_answer_is_parsed_and_request_uses_the_wire_format(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHAVE_TESTE", "segredo-123")
    with ChatServer([ok({"soma": 4})]) as servidor:
        resultado = pedir_json(_config(servidor, chave_env="CHAVE_TESTE"), "sistema", "2+2?", _soma)
    assert resultado == 4
    pedido = servidor.pedidos[0]
    assert pedido["model"] == "modelo-teste"
    assert pedido["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in pedido["messages"]] == ["system", "user"]
    assert pedido["messages"][1]["content"] == "2+2?"
    assert servidor.cabecalhos[0]["authorization"] == "Bearer segredo-123"


def test_500_then_ok_is_retried() -> None:
    with ChatServer([erro(500), erro(503), ok({"soma": 7})]) as servidor:
        assert pedir_json(_config(servidor), "s", "u", _soma) == 7
    assert len(servidor.pedidos) == 3


def test_malformed_json_then_ok_is_retried() -> None:
    with ChatServer([malformado(), ok('```json\n{"soma": 1}\n```')]) as servidor:
        assert pedir_json(_config(servidor), "s", "u", _soma) == 1


def test_wrong_shape_counts_as_a_failed_try() -> None:
    with ChatServer([ok({"total": 3}), ok({"soma": "três"}), ok({"soma": 3})]) as servidor:
        assert pedir_json(_config(servidor), "s", "u", _soma) == 3
    assert len(servidor.pedidos) == 3


def test_always_malformed_raises_portuguese_error() -> None:
    respostas = [malformado(), corpo_invalido(), malformado()]
    with ChatServer(respostas) as servidor, pytest.raises(ErroAnalise) as exc:
        pedir_json(_config(servidor), "s", "u", _soma)
    assert "3 tentativa(s)" in str(exc.value)
    assert "JSON" in str(exc.value)


def test_slow_server_times_out_then_retry_succeeds() -> None:
    # The slow answer is held until the server stops: 2 can only come from the retry.
    with ChatServer([lento({"soma": 9}, atraso_s=600), ok({"soma": 2})]) as servidor:
        assert pedir_json(_config(servidor, tempo_limite_s=1.0), "s", "u", _soma) == 2
    assert len(servidor.pedidos) == 2


def test_slow_server_every_time_gives_timeout_error() -> None:
    respostas = [lento({"soma": 9}, atraso_s=600) for _ in range(2)]  # held until the server stops
    with ChatServer(respostas) as servidor, pytest.raises(ErroAnalise, match=r"não respondeu em 0\.2 s"):
        pedir_json(_config(servidor, tempo_limite_s=0.2, tentativas=2), "s", "u", _soma)


def test_client_error_is_not_retried() -> None:
    with ChatServer([erro(401), ok({"soma": 1})]) as servidor, pytest.raises(ErroAnalise, match="HTTP 401"):
        pedir_json(_config(servidor), "s", "u", _soma)
    assert len(servidor.pedidos) == 1


def test_missing_key_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CHAVE_AUSENTE", raising=False)
    with ChatServer([ok({"soma": 1})]) as servidor, pytest.raises(ErroAnalise, match="CHAVE_AUSENTE"):
        pedir_json(_config(servidor, chave_env="CHAVE_AUSENTE"), "s", "u", _soma)
    assert servidor.pedidos == []


def test_config_defaults_and_validation(tmp_path: Any) -> None:
    assert carregar_config_analise(tmp_path / "nao-existe.toml") == ConfigAnalise()
    arquivo = tmp_path / "eleicoes.toml"
    arquivo.write_text('[analise]\nbackend = "openai"\ntentativas = 5\n', encoding="utf-8")
    config = carregar_config_analise(arquivo)
    assert (config.backend, config.tentativas) == ("openai", 5)
    for raw, trecho in (
        ({"backend": "gpt"}, "backend"),
        ({"tentativas": 0}, "tentativas"),
        ({"tentativas": 1.5}, "inteiro"),
        ({"tempo_limite_s": "30"}, "tempo_limite_s"),
        ({"base_url": "ftp://x"}, "base_url"),
        ({"chave": "x"}, "desconhecida"),
    ):
        with pytest.raises(ConfigSectionError, match=trecho):
            config_analise(raw)


def test_project_config_file_is_valid() -> None:
    from pathlib import Path

    carregar_config_analise(Path(__file__).resolve().parents[2] / "eleicoes.toml")
