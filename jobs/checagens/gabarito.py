"""The FACTCK.BR answer key: which checks state the same claim (one claim checked by several agencies).

FACTCK.BR has one row per check. When Lupa, Aos Fatos and Agência Pública check the same viral post,
the dataset has two or three rows with different wording, and a query matched to the other agency's
check is right, not a false reuse. The rule (reviewed by hand, see docs/QUALIDADE.md, section
"Checagens: gabarito do FACTCK.BR"):

- two checks are of the same claim when they come from different agencies, were published at most
  `JANELA_DIAS` apart, and the TF-IDF cosine (char 3-5-grams, `jobs.checagens.similaridade`) of
  their "claim + headline" texts is at least `LIMIAR_MESMA_AFIRMACAO`;
- the groups are the connected components of that relation (plus rows quoting the same claim word
  for word, as before).

Same-agency pairs are never joined: an agency that checks a claim twice wrote two checks on
purpose (a new version of a rumour, another photo).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from jobs.analise.temas import normalizar
from jobs.checagens.similaridade import IndiceTfidf

LIMIAR_MESMA_AFIRMACAO = 0.65
JANELA_DIAS = 180


@dataclass(frozen=True)
class LinhaFactck:
    """One FACTCK.BR check, as the answer key needs it."""

    afirmacao: str  # claimReviewed
    titulo: str
    agencia: str  # Author
    data: dt.date | None


def data_de(texto: str) -> dt.date | None:
    """The date of a `datePublished` value ("2019-07-22", "2018-11-21 18:20:42"); None if unreadable."""
    try:
        return dt.date.fromisoformat(texto.strip()[:10])
    except ValueError:
        return None


def _mesma_janela(a: LinhaFactck, b: LinhaFactck) -> bool:
    return a.data is not None and b.data is not None and abs((a.data - b.data).days) <= JANELA_DIAS


def pares_mesma_afirmacao(linhas: Sequence[LinhaFactck]) -> list[tuple[float, int, int]]:
    """(cosine, i, j) with i < j for every pair the rule joins, best first."""
    textos = [f"{x.afirmacao} {x.titulo}" for x in linhas]
    indice = IndiceTfidf(textos)
    pares = []
    for i, texto in enumerate(textos):
        notas = indice.similaridades(texto)
        for k in np.flatnonzero(notas >= LIMIAR_MESMA_AFIRMACAO):
            j = int(k)
            if j <= i or linhas[i].agencia == linhas[j].agencia or not _mesma_janela(linhas[i], linhas[j]):
                continue
            pares.append((round(float(notas[j]), 4), i, j))
    return sorted(pares, key=lambda p: (-p[0], p[1], p[2]))


def grupos(linhas: Sequence[LinhaFactck]) -> list[int]:
    """The group of each row (the smallest row index of its group): same claim word for word, or
    joined by `pares_mesma_afirmacao`, transitively."""
    pai = list(range(len(linhas)))

    def raiz(i: int) -> int:
        while pai[i] != i:
            pai[i] = pai[pai[i]]
            i = pai[i]
        return i

    def unir(i: int, j: int) -> None:
        a, b = raiz(i), raiz(j)
        if a != b:
            pai[max(a, b)] = min(a, b)

    primeira: dict[str, int] = {}
    for i, x in enumerate(linhas):
        unir(i, primeira.setdefault(normalizar(x.afirmacao), i))
    for _nota, i, j in pares_mesma_afirmacao(linhas):
        unir(i, j)
    return [raiz(i) for i in range(len(linhas))]
