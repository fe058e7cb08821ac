"""The verdict scale shared by debate checks and social-media checks (seed: "Os vereditos").

One place for the names, the labels readers see and the ClaimReview rating of each verdict.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Veredito:
    """One verdict of the scale."""

    codigo: str
    rotulo: str
    definicao: str
    nota_claimreview: int  # 1..5 in schema.org ClaimReview (seed: "Nota na marcação")


# Seed: "Os vereditos" — same scale for debates and social networks; ratings 5, 4, 2, 1 and 3.
VEREDITOS: dict[str, Veredito] = {
    v.codigo: v
    for v in (
        Veredito("verdadeiro", "Verdadeiro", "O dado confere com fontes confiáveis.", 5),
        Veredito(
            "impreciso",
            "Impreciso",
            "Há base, mas números, datas ou contexto estão errados ou incompletos.",
            4,
        ),
        Veredito(
            "enganoso",
            "Enganoso",
            "O dado existe, mas a forma como é apresentado induz a uma conclusão errada.",
            2,
        ),
        Veredito("falso", "Falso", "Contradiz o que mostram as fontes confiáveis.", 1),
        Veredito(
            "sem_dados",
            "Sem dados",
            "Não foi possível encontrar fonte confiável para confirmar ou negar.",
            3,
        ),
    )
}
