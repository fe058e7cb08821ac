"""A log file whose flush is interrupted by a signal, as CI saw it happen to the demo's log.

Python runs a signal handler in the main thread between two bytecodes, so a handler can start while
that thread is inside a logging handler's flush of a buffered file. `arquivo_interrompido(nome,
tratador)` attaches to logger `nome` a handler writing through a real `io.BufferedWriter` whose first
raw write calls `tratador()` (the signal handler) before it completes; what reached the file is in
the returned object's `texto()`.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class _ArquivoComSinal(io.RawIOBase):
    """Raw file: the first write runs the signal handler first, inside the buffered flush."""

    def __init__(self, tratador: Callable[[], None]) -> None:
        self._tratador: Callable[[], None] | None = tratador
        self.dados = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        tratador, self._tratador = self._tratador, None
        if tratador is not None:
            tratador()
        self.dados += bytes(b)
        return len(b)

    def texto(self) -> str:
        return self.dados.decode("utf-8")


@contextmanager
def arquivo_interrompido(nome: str, tratador: Callable[[], None]) -> Iterator[_ArquivoComSinal]:
    """Logger `nome` also writes to a file whose first write is interrupted by `tratador()`."""
    bruto = _ArquivoComSinal(tratador)
    fluxo = io.TextIOWrapper(io.BufferedWriter(bruto), encoding="utf-8")  # type: ignore[type-var]
    handler = logging.StreamHandler(fluxo)
    logger = logging.getLogger(nome)
    nivel = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield bruto
    finally:
        logger.removeHandler(handler)
        logger.setLevel(nivel)
