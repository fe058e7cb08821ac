"""Character n-gram TF-IDF with cosine similarity (pure Python + numpy; no scikit-learn).

Char n-grams inside word boundaries (like scikit-learn's `char_wb`) on lower-case, accent-free
text are robust to inflection, typos and the spelling drift of social-media posts, which is
what matching a repeated claim against published checks needs.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from jobs.analise.temas import normalizar

_NAO_ALFANUMERICO = re.compile(r"[^\w]+")


def ngramas(texto: str, minimo: int = 3, maximo: int = 5) -> Counter[str]:
    """Counts of the char n-grams (sizes minimo..maximo) of each word padded with spaces."""
    limpo = _NAO_ALFANUMERICO.sub(" ", normalizar(texto)).replace("_", " ")
    contagem: Counter[str] = Counter()
    for palavra in limpo.split():
        p = f" {palavra} "
        if len(p) < minimo:
            contagem[p] += 1  # a one-letter word ("e", "o") is its own gram
            continue
        for n in range(minimo, min(maximo, len(p)) + 1):
            for i in range(len(p) - n + 1):
                contagem[p[i : i + n]] += 1
    return contagem


@dataclass(frozen=True)
class _Postagem:
    documentos: npt.NDArray[np.int64]
    pesos: npt.NDArray[np.float64]


class IndiceTfidf:
    """An inverted index of TF-IDF vectors (sublinear tf, smoothed idf, L2-normalised)."""

    def __init__(self, textos: Sequence[str], minimo: int = 3, maximo: int = 5) -> None:
        self.minimo, self.maximo = minimo, maximo
        self.total = len(textos)
        contagens = [ngramas(t, minimo, maximo) for t in textos]
        df: Counter[str] = Counter()
        for c in contagens:
            df.update(c.keys())
        self.idf = {g: math.log((1 + self.total) / (1 + n)) + 1.0 for g, n in df.items()}
        listas: dict[str, tuple[list[int], list[float]]] = {}
        for doc, c in enumerate(contagens):
            vetor = self._vetor(c)
            for g, peso in vetor.items():
                docs, pesos = listas.setdefault(g, ([], []))
                docs.append(doc)
                pesos.append(peso)
        self._postagens = {
            g: _Postagem(np.array(docs, dtype=np.int64), np.array(pesos, dtype=np.float64))
            for g, (docs, pesos) in listas.items()
        }

    def _vetor(self, contagem: Counter[str]) -> dict[str, float]:
        bruto = {g: (1.0 + math.log(n)) * self.idf[g] for g, n in contagem.items() if g in self.idf}
        norma = math.sqrt(sum(v * v for v in bruto.values()))
        return {g: v / norma for g, v in bruto.items()} if norma > 0 else {}

    def similaridades(self, texto: str) -> npt.NDArray[np.float64]:
        """Cosine similarity of `texto` with every indexed document (0..1), in index order."""
        notas = np.zeros(self.total, dtype=np.float64)
        for g, peso in self._vetor(ngramas(texto, self.minimo, self.maximo)).items():
            postagem = self._postagens[g]
            notas[postagem.documentos] += peso * postagem.pesos
        return np.clip(notas, 0.0, 1.0)
