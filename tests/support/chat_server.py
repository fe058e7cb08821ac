"""A loopback HTTP server speaking the OpenAI wire format: `/v1/chat/completions`, `/v1/embeddings`.

It stands in for a paid LLM endpoint, the only thing the project fakes. Answers are scripted:
a queue of `Resposta` consumed one per request, then `padrao` (a function of the request body)
when the queue is empty. Every request body is kept in `pedidos` for assertions.

    with ChatServer([erro(500), ok({"a": 1})]) as servidor:
        config = ConfigAnalise(backend="openai", base_url=servidor.url, chave_env="", espera_s=0)
        ...
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any


@dataclass(frozen=True)
class Resposta:
    """One scripted answer.

    tipo: "ok" (conteudo is serialised as the message content; a str is sent as is),
    "corpo" (conteudo is the raw HTTP body, e.g. not JSON at all) or "erro" (HTTP `status`).
    atraso_s: wait before answering (to exercise client timeouts).
    """

    tipo: str = "ok"
    conteudo: Any = None
    status: int = 200
    atraso_s: float = 0.0


def ok(objeto: Any, atraso_s: float = 0.0) -> Resposta:
    """A well-formed completion whose message content is `objeto` as JSON (a str is sent verbatim)."""
    return Resposta("ok", objeto, 200, atraso_s)


def malformado(texto: str = '{"isto não": é JSON') -> Resposta:
    """A well-formed completion whose message content is not valid JSON."""
    return Resposta("ok", texto)


def corpo_invalido(corpo: str = "<html>erro do proxy</html>") -> Resposta:
    """An HTTP 200 whose body is not a chat completion at all."""
    return Resposta("corpo", corpo)


def lento(objeto: Any, atraso_s: float) -> Resposta:
    """A good answer that arrives only after `atraso_s` seconds."""
    return Resposta("ok", objeto, 200, atraso_s)


def erro(status: int = 500) -> Resposta:
    """An HTTP error status with an OpenAI-style error body."""
    return Resposta("erro", None, status)


def conteudo_do_pedido(pedido: dict[str, Any], papel: str = "user") -> str:
    """The text of the last message with role `papel` in a received request body."""
    for mensagem in reversed(pedido.get("messages", [])):
        if mensagem.get("role") == papel:
            return str(mensagem.get("content", ""))
    return ""


class ChatServer:
    """Threaded HTTP server on 127.0.0.1 (free port) answering Chat Completions requests."""

    def __init__(
        self,
        respostas: Iterable[Resposta] = (),
        padrao: Callable[[dict[str, Any]], Resposta] | None = None,
    ) -> None:
        self._fila: deque[Resposta] = deque(respostas)
        self._padrao = padrao
        self._trava = threading.Lock()
        self._parar = threading.Event()
        self.pedidos: list[dict[str, Any]] = []
        self.cabecalhos: list[dict[str, str]] = []
        self.pedidos_embeddings: list[dict[str, Any]] = []
        self.status_embeddings = 200  # set to e.g. 500 to make /v1/embeddings fail
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        """Base URL for an OpenAI client (`.../v1`)."""
        host, porta = self._http.server_address[:2]
        return f"http://{host!s}:{porta}/v1"

    def _proxima(self, pedido: dict[str, Any]) -> Resposta:
        with self._trava:
            self.pedidos.append(pedido)
            if self._fila:
                return self._fila.popleft()
        if self._padrao is not None:
            return self._padrao(pedido)
        return erro(500)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        servidor = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test output clean

            def _enviar(self, status: int, corpo: bytes, tipo: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", tipo)
                self.send_header("Content-Length", str(len(corpo)))
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(corpo)  # the client may have given up (timeout test)

            def _embeddings(self, bruto: bytes) -> None:
                with servidor._trava:
                    servidor.pedidos_embeddings.append(json.loads(bruto))
                    status = servidor.status_embeddings
                if status != 200:
                    self._enviar(status, json.dumps({"error": {"message": "erro simulado"}}).encode())
                    return
                entrada = json.loads(bruto)["input"]
                textos = [entrada] if isinstance(entrada, str) else list(entrada)
                corpo = {
                    "object": "list",
                    "model": "embeddings-teste",
                    "data": [
                        {"object": "embedding", "index": i, "embedding": vetor_teste(texto)}
                        for i, texto in enumerate(textos)
                    ],
                    "usage": {"prompt_tokens": 1, "total_tokens": 1},
                }
                self._enviar(200, json.dumps(corpo).encode())

            def do_POST(self) -> None:
                tamanho = int(self.headers.get("Content-Length", "0"))
                bruto = self.rfile.read(tamanho)
                if self.path.rstrip("/") == "/v1/embeddings":
                    self._embeddings(bruto)
                    return
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._enviar(404, b'{"error": {"message": "not found"}}')
                    return
                try:
                    pedido = json.loads(bruto)
                except json.JSONDecodeError:
                    self._enviar(400, b'{"error": {"message": "bad json"}}')
                    return
                with servidor._trava:
                    servidor.cabecalhos.append({k.lower(): v for k, v in self.headers.items()})
                resposta = servidor._proxima(pedido)
                if resposta.atraso_s > 0 and servidor._parar.wait(resposta.atraso_s):
                    return
                if resposta.tipo == "erro":
                    corpo = {"error": {"message": f"erro simulado {resposta.status}", "type": "server_error"}}
                    self._enviar(resposta.status, json.dumps(corpo).encode())
                elif resposta.tipo == "corpo":
                    self._enviar(200, str(resposta.conteudo).encode(), "text/html")
                else:
                    conteudo = (
                        resposta.conteudo
                        if isinstance(resposta.conteudo, str)
                        else json.dumps(resposta.conteudo, ensure_ascii=False)
                    )
                    self._enviar(200, json.dumps(_completion(pedido, conteudo)).encode())

        return Handler

    def iniciar(self) -> ChatServer:
        """Start serving in a background thread."""
        self._thread.start()
        return self

    def parar(self) -> None:
        """Stop serving (slow answers in flight are abandoned) and free the port."""
        self._parar.set()
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ChatServer:
        return self.iniciar()

    def __exit__(
        self, tipo: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.parar()


def vetor_teste(texto: str, dimensoes: int = 64) -> list[float]:
    """A deterministic stand-in embedding: hashed counts of the word set (same words, same vector)."""
    vetor = [0.0] * dimensoes
    for palavra in set(texto.lower().split()):
        digest = hashlib.sha256(palavra.strip(".,;:!?").encode("utf-8")).digest()
        vetor[digest[0] % dimensoes] += 1.0
    return vetor


def _completion(pedido: dict[str, Any], conteudo: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-teste",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": str(pedido.get("model", "teste")),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": conteudo},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
