"""The `[debate]` section of eleicoes.toml as a typed, validated dataclass.

An empty section works: rule-based evaluation, the embedded source index, no keys, no internet.
The OpenAI-compatible connection (base_url, model, key variable) comes from `[analise]`; the claim
memory that meets repeated claims with the desk's verdicts (backend, thresholds) from
`[checagens.memoria]`, the desk's own settings.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from jobs.analise.config import ConfigAnalise, config_analise
from jobs.checagens.configuracao import ConfigMemoria, config_memoria
from jobs.configuracao import ConfigSectionError, ler_secao

AVALIADORES = ("", "regras", "openai")
BUSCAS = ("local", "web")
CHAVES = (
    "aparte_max_s",
    "avaliador",
    "busca",
    "busca_url",
    "busca_tempo_limite_s",
    "indices_extras",
)


C = TypeVar("C")


class ErroConfig(ValueError):  # noqa: N818 - Portuguese name, like ErroAnalise
    """Invalid `[debate]` section (message in Portuguese)."""


@dataclass(frozen=True)
class DebateConfig:
    """Settings of the debate engine."""

    aparte_max_s: float = 10.0  # interjections shorter than this do not break a turn
    avaliador: str = ""  # turn evaluation: "" = as `[analise] backend`, or "regras" / "openai"
    busca: str = "local"  # source search: "local" (embedded index) or "web" (JSON search endpoint)
    busca_url: str = ""  # web search endpoint answering SearxNG-style JSON (`?q=...&format=json`)
    busca_tempo_limite_s: float = 10.0
    indices_extras: tuple[str, ...] = ()  # more local index files (JSON), relative to the project root
    analise: ConfigAnalise = field(default_factory=ConfigAnalise)  # `[analise]`: backend and endpoint
    memoria: ConfigMemoria = field(default_factory=ConfigMemoria)  # `[checagens.memoria]`, as the desk

    @property
    def backend(self) -> str:
        """The turn-evaluation backend in use: `avaliador`, or else `[analise] backend`."""
        return self.avaliador or self.analise.backend


def de_dict(
    secao: dict[str, Any], analise: dict[str, Any] | None = None, memoria: dict[str, Any] | None = None
) -> DebateConfig:
    """Validate a `[debate]` table (with `[analise]` and `[checagens.memoria]`); raises ErroConfig
    naming the key."""
    # Keys prefixed audio_/whisper_ belong to the audio job (jobs/debate/config_audio.py, issue 8).
    desconhecidas = sorted(k for k in set(secao) - set(CHAVES) if not k.startswith(("audio_", "whisper_")))
    if desconhecidas:
        raise ErroConfig(f"[debate]: chave desconhecida: {', '.join(desconhecidas)}")
    padrao = DebateConfig()
    aparte = secao.get("aparte_max_s", padrao.aparte_max_s)
    if isinstance(aparte, bool) or not isinstance(aparte, int | float) or not math.isfinite(aparte):
        raise ErroConfig("[debate] aparte_max_s: deve ser um número de segundos")
    if not 0 <= aparte <= 120:
        raise ErroConfig("[debate] aparte_max_s: use um valor entre 0 e 120 segundos")
    avaliador = secao.get("avaliador", padrao.avaliador)
    if avaliador not in AVALIADORES:
        raise ErroConfig(f"[debate] avaliador: use 'regras' ou 'openai' (veio {avaliador!r})")
    busca = secao.get("busca", padrao.busca)
    if busca not in BUSCAS:
        raise ErroConfig(f"[debate] busca: use {' ou '.join(BUSCAS)} (veio {busca!r})")
    url = secao.get("busca_url", "")
    if not isinstance(url, str):
        raise ErroConfig("[debate] busca_url: deve ser um texto")
    if busca == "web" and not url.startswith(("http://", "https://")):
        raise ErroConfig("[debate] busca_url: obrigatório com busca = 'web' (http:// ou https://)")
    tempo = secao.get("busca_tempo_limite_s", padrao.busca_tempo_limite_s)
    if isinstance(tempo, bool) or not isinstance(tempo, int | float) or not 0 < tempo <= 120:
        raise ErroConfig("[debate] busca_tempo_limite_s: use um número entre 0 e 120")
    extras = secao.get("indices_extras", [])
    if not isinstance(extras, list) or not all(isinstance(e, str) and e for e in extras):
        raise ErroConfig("[debate] indices_extras: deve ser uma lista de caminhos")
    return DebateConfig(
        aparte_max_s=float(aparte),
        avaliador=avaliador,
        busca=busca,
        busca_url=url,
        busca_tempo_limite_s=float(tempo),
        indices_extras=tuple(extras),
        analise=_secao(config_analise, analise or {}),
        memoria=_secao(config_memoria, memoria or {}),
    )


def _secao(validar: Callable[[dict[str, Any]], C], dados: dict[str, Any]) -> C:
    try:
        return validar(dados)
    except ConfigSectionError as exc:
        raise ErroConfig(str(exc)) from exc


def carregar(caminho: Path) -> DebateConfig:
    """Read `[debate]` (with `[analise]` and `[checagens.memoria]`) from eleicoes.toml; a missing file
    gives the defaults."""
    secao = ler_secao("debate", caminho, ErroConfig)
    analise = ler_secao("analise", caminho, ErroConfig)
    memoria = ler_secao("checagens", caminho, ErroConfig).get("memoria", {})
    if not isinstance(memoria, dict):
        raise ErroConfig("[checagens] memoria: deve ser uma tabela [checagens.memoria]")
    return de_dict(secao, analise, memoria)
