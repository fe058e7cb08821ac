"""OpenAI-compatible client for structured (JSON) answers, with timeouts, retries and validation.

The only paid dependency of the analysis: everything that calls it also works with the
rule-based backend. Tests talk to `tests/support/chat_server.py` on loopback.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar

import openai
from openai.types.chat import ChatCompletion

from jobs.analise.config import ConfigAnalise

T = TypeVar("T")
log = logging.getLogger("eleicoes.analise.llm")

# HTTP statuses worth another try: the server or a proxy may recover; anything else will not.
STATUS_TRANSITORIOS = frozenset({408, 409, 429, 500, 502, 503, 504})


class ErroAnalise(RuntimeError):  # noqa: N818 - name pinned in PINS.md
    """The analysis backend could not give a usable answer; the message is in Portuguese."""


class _InvalidAnswerError(Exception):
    """One try answered, but not with valid JSON of the expected shape (worth a retry)."""


def _chave(config: ConfigAnalise) -> str:
    if not config.chave_env:
        return "sem-chave"  # local servers (llama.cpp, vLLM) accept any key
    chave = os.environ.get(config.chave_env, "").strip()
    if not chave:
        raise ErroAnalise(
            f"a chave da API não foi encontrada: defina a variável de ambiente {config.chave_env} "
            'ou use backend = "regras" em [analise]'
        )
    return chave


def _sem_cercas(texto: str) -> str:
    """Drop a Markdown code fence some models wrap around JSON despite response_format."""
    texto = texto.strip()
    if texto.startswith("```"):
        texto = texto.split("\n", 1)[1] if "\n" in texto else ""
        texto = texto.removesuffix("```").strip()
    return texto


def _decodificar(conteudo: str | None, validar: Callable[[Any], T]) -> T:
    if conteudo is None or not conteudo.strip():
        raise _InvalidAnswerError("resposta vazia")
    try:
        dados = json.loads(_sem_cercas(conteudo))
    except json.JSONDecodeError as exc:
        raise _InvalidAnswerError(f"a resposta não é JSON válido ({exc.msg}, posição {exc.pos})") from exc
    try:
        return validar(dados)
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise _InvalidAnswerError(f"o JSON da resposta não tem o formato esperado: {exc}") from exc


def pedir_json(config: ConfigAnalise, sistema: str, usuario: str, validar: Callable[[Any], T]) -> T:
    """Ask the configured chat model for a JSON object and return `validar(objeto)`.

    `validar` raises ValueError/TypeError/KeyError/IndexError on a wrong shape. Timeouts, connection
    errors, transient HTTP statuses, malformed JSON and failed validation are retried up to
    `config.tentativas` times in all, with exponential pauses; then ErroAnalise says what went wrong.
    """
    cliente = openai.OpenAI(
        base_url=config.base_url,
        api_key=_chave(config),
        timeout=config.tempo_limite_s,
        max_retries=0,  # retries are ours, so they are counted and logged in one place
    )
    mensagens: list[Any] = [{"role": "system", "content": sistema}, {"role": "user", "content": usuario}]
    ultimo = ""
    for tentativa in range(1, config.tentativas + 1):
        if tentativa > 1 and config.espera_s > 0:
            time.sleep(config.espera_s * 2 ** (tentativa - 2))
        try:
            resposta = cliente.chat.completions.create(
                model=config.modelo,
                messages=mensagens,
                response_format={"type": "json_object"},
                temperature=0,
            )
            # a proxy's HTML page comes back as a plain str, not a ChatCompletion
            if not isinstance(resposta, ChatCompletion) or not resposta.choices:
                raise _InvalidAnswerError("a resposta não é uma chat completion")
            return _decodificar(resposta.choices[0].message.content, validar)
        except openai.APITimeoutError:
            ultimo = f"o servidor não respondeu em {config.tempo_limite_s:g} s"
        except openai.APIConnectionError as exc:
            ultimo = f"falha de conexão com {config.base_url}: {exc}"
        except openai.APIStatusError as exc:
            ultimo = f"o servidor respondeu HTTP {exc.status_code}"
            if exc.status_code not in STATUS_TRANSITORIOS:
                raise ErroAnalise(f"análise por IA falhou: {ultimo} (sem nova tentativa)") from exc
        except _InvalidAnswerError as exc:
            ultimo = str(exc)
        except openai.OpenAIError as exc:  # e.g. a body that is not a chat completion at all
            ultimo = f"resposta inesperada do servidor: {exc}"
        log.warning("análise por IA, tentativa %d de %d: %s", tentativa, config.tentativas, ultimo)
    raise ErroAnalise(f"análise por IA falhou depois de {config.tentativas} tentativa(s): {ultimo}")
