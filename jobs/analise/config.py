"""The `[analise]` section of `eleicoes.toml`: which analysis backend runs and how it is reached.

An empty section works: the embedded rule-based backend needs no key and no network.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from jobs.configuracao import CONFIG_FILE, ConfigSectionError, ler_secao

# "classificador": the learned check-worthiness classifier (jobs/analise/classificador.py) for
# claims, over the local E5 embeddings (extra `embeddings`; without it the debate falls back to the
# rules with a warning); turns keep the rules (no evasion classifier beat the majority class,
# docs/QUALIDADE.md).
BACKENDS = ("regras", "openai", "classificador")
BACKEND_REGRAS = "regras"
BACKEND_CLASSIFICADOR = "classificador"
PREFIXO_LLM = "openai:"  # names of results produced by a language model: "openai:<model>"
PREFIXO_CLASSIFICADOR = "classificador:"  # "classificador:<model file id>"
ROTULO_REGRAS = "análise automática por regras"


def rotulo_backend(nome: str) -> str:
    """What readers are told produced an evaluation, check or draft: the rules, or the model by name.

    Only a language model's output is called AI ("gerado por IA"); rule-based output never is.
    """
    if nome.startswith(PREFIXO_LLM):
        return f"gerado por IA (modelo {nome.removeprefix(PREFIXO_LLM)})"
    if nome.startswith(PREFIXO_CLASSIFICADOR):
        return f"classificador treinado em dados públicos ({nome.removeprefix(PREFIXO_CLASSIFICADOR)})"
    return ROTULO_REGRAS


def gerado_por_ia(nome: str) -> bool:
    """Whether the backend named `nome` is a language model."""
    return nome.startswith(PREFIXO_LLM)


@dataclass(frozen=True)
class ConfigAnalise:
    """Typed `[analise]`: backend choice and the OpenAI-compatible endpoint settings."""

    backend: str = "regras"
    base_url: str = "https://api.openai.com/v1"
    modelo: str = "gpt-4o-mini"
    chave_env: str = "OPENAI_API_KEY"  # name of the env var holding the key; "" = endpoint needs none
    tempo_limite_s: float = 30.0
    tentativas: int = 3
    espera_s: float = 1.0  # first pause between tries; doubles at each new try


def _numero(secao: str, chave: str, valor: Any, minimo: float, inteiro: bool = False) -> float:
    numero = isinstance(valor, int | float) and not isinstance(valor, bool)
    if not numero or (inteiro and not isinstance(valor, int)):
        tipo = "um número inteiro" if inteiro else "um número"
        raise ConfigSectionError(f"[{secao}] {chave}: deve ser {tipo}, não {valor!r}")
    if valor < minimo:
        raise ConfigSectionError(f"[{secao}] {chave}: deve ser pelo menos {minimo}, não {valor!r}")
    return float(valor)


def config_analise(raw: Mapping[str, Any]) -> ConfigAnalise:
    """Validate a raw `[analise]` table into ConfigAnalise; ConfigSectionError (Portuguese) on any problem."""
    conhecidas = {f.name for f in fields(ConfigAnalise)}
    desconhecidas = sorted(set(raw) - conhecidas)
    if desconhecidas:
        aceitas = sorted(conhecidas)
        raise ConfigSectionError(f"[analise]: chave desconhecida {desconhecidas[0]!r}; aceitas: {aceitas}")
    base = ConfigAnalise()
    valores: dict[str, Any] = {}
    for chave in ("backend", "base_url", "modelo", "chave_env"):
        valor = raw.get(chave, getattr(base, chave))
        if not isinstance(valor, str):
            raise ConfigSectionError(f"[analise] {chave}: deve ser um texto, não {valor!r}")
        valores[chave] = valor.strip()
    if valores["backend"] not in BACKENDS:
        nome = valores["backend"]
        raise ConfigSectionError(f"[analise] backend: {nome!r} não existe; use um de {list(BACKENDS)}")
    if not valores["base_url"].startswith(("http://", "https://")):
        raise ConfigSectionError(
            f"[analise] base_url: deve começar com http:// ou https://, não {valores['base_url']!r}"
        )
    if not valores["modelo"]:
        raise ConfigSectionError("[analise] modelo: não pode ficar vazio")
    valores["tempo_limite_s"] = _numero("analise", "tempo_limite_s", raw.get("tempo_limite_s", 30.0), 0.01)
    valores["tentativas"] = int(_numero("analise", "tentativas", raw.get("tentativas", 3), 1, inteiro=True))
    valores["espera_s"] = _numero("analise", "espera_s", raw.get("espera_s", 1.0), 0.0)
    return ConfigAnalise(**valores)


def carregar_config_analise(caminho: Path = CONFIG_FILE) -> ConfigAnalise:
    """`[analise]` of the configuration file (defaults when absent); ConfigSectionError when invalid."""
    return config_analise(ler_secao("analise", caminho))
