"""Stage 6: the review pass. Deterministic code over the structured checks, not another prompt.

Rules (seed, "Checagens no debate"), applied in this order to each check:

1. A check corrected by an editor stays exactly as the editor left it (no rule touches it).
2. A repeated claim (same candidate, same numbers, close wording) points to the original check and
   takes its verdict.
3. Compound claims are split into facts: a false central fact makes the claim `falso` even if the
   context is true; a true central fact with a wrong detail makes it `impreciso`.
4. No source for the central fact: `sem_dados` (true context does not confirm the claim).
5. The explanation and the numbers must support the verdict.
6. Similar claims in the same turn cannot have contradicting verdicts.
7. `falso` or `enganoso` without a source that supports it becomes `sem_dados`.

A changed verdict carries the `revisado` badge and the reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from jobs.debate.checagem import Checagem, FonteChecagem, veredito_por_numeros
from jobs.debate.edicoes import Edicoes
from jobs.debate.texto import numeros, sem_acento, similaridade

SIMILARIDADE_REPETICAO = 0.6
SIMILARIDADE_PARECIDAS = 0.5
POSITIVOS = frozenset({"verdadeiro", "impreciso"})
NEGATIVOS = frozenset({"falso", "enganoso"})
_EXPLICA_CONFERE = re.compile(r"\b(confere|esta correto|esta certo|bate com|de acordo com a fonte)\b")
_EXPLICA_NAO_CONFERE = re.compile(
    r"\b(nao confere|incorret\w*|errad\w*|diverge|nao bate|exager\w*|inflad\w*|falso)\b"
)


@dataclass(frozen=True)
class ChecagemRevisada:
    """A check after the review (and the editor): what the page and the scoreboard use."""

    checagem: Checagem  # the machine's first reading, kept for the record
    veredito: str
    confianca: str
    explicacao: str
    fontes: tuple[FonteChecagem, ...]
    revisado: bool
    motivo: str | None
    repeticao_de: str | None = None
    oculta: bool = False
    editada: bool = False
    nota_editor: str = ""

    @property
    def id(self) -> str:
        """Id of the check."""
        return self.checagem.id


def _quantidades(texto: str) -> tuple[float, ...]:
    return tuple(sorted(round(n.valor, 6) for n in numeros(texto)))


def _repete(a: Checagem, b: Checagem) -> bool:
    # Said again in a later turn by the same candidate (within one turn, rule 6 keeps them coherent).
    return (
        a.candidato == b.candidato
        and a.turno != b.turno
        and _quantidades(a.afirmacao) == _quantidades(b.afirmacao)
        and similaridade(a.afirmacao, b.afirmacao) >= SIMILARIDADE_REPETICAO
    )


def regra_fatos(c: Checagem) -> tuple[str, str | None]:
    """Rules 3 and 4: central fact decides; a wrong detail makes it imprecise; no central source, no data."""
    central = next((f for f in c.fatos if f.central), c.fatos[0] if c.fatos else None)
    if central is None:
        return c.veredito, None
    detalhes = [f for f in c.fatos if f is not central]
    if not central.fontes:
        if c.veredito != "sem_dados":
            return (
                "sem_dados",
                "não há fonte para o fato central; contexto verdadeiro não confirma a afirmação",
            )
        return c.veredito, None
    if central.veredito == "falso" and c.veredito != "falso":
        return "falso", "o fato central é falso, ainda que o contexto seja verdadeiro"
    if central.veredito == "verdadeiro" and any(
        f.veredito in ("falso", "impreciso", "enganoso") for f in detalhes
    ):
        if c.veredito != "impreciso":
            return "impreciso", "o fato central é verdadeiro, mas um detalhe está errado"
        return c.veredito, None
    if detalhes and central.veredito != c.veredito and c.veredito != "enganoso":
        return central.veredito, "vale o veredito do fato central"
    return c.veredito, None


def regra_numeros(c: Checagem, veredito: str, explicacao: str) -> tuple[str, str | None]:
    """Rule 5: the explanation and the numbers must support the verdict."""
    central = next((f for f in c.fatos if f.central), None)
    if central is not None and central.afirmado is not None and central.referencia is not None:
        esperado = veredito_por_numeros(central.afirmado, central.referencia, central.unidade)
        # "enganoso" is about framing: right numbers may still mislead, so numbers do not overrule it.
        if veredito != esperado and veredito != "enganoso" and veredito != "sem_dados":
            return esperado, "os números da fonte não sustentam o veredito anterior"
        return veredito, None
    base = sem_acento(explicacao)
    diz_nao = bool(_EXPLICA_NAO_CONFERE.search(base))
    diz_sim = bool(_EXPLICA_CONFERE.search(_EXPLICA_NAO_CONFERE.sub(" ", base)))
    if veredito == "verdadeiro" and diz_nao and not diz_sim:
        return "sem_dados", "a explicação contradiz o veredito verdadeiro"
    if veredito in NEGATIVOS and diz_sim and not diz_nao:
        return "sem_dados", "a explicação diz que o dado confere, o que não sustenta o veredito"
    return veredito, None


def regra_sem_fonte(c: Checagem, veredito: str) -> tuple[str, str | None]:
    """Rule 7: false or misleading needs a source that supports it."""
    if veredito in NEGATIVOS and not any(f.fontes for f in c.fatos if f.central) and not c.checagem_publicada:
        return "sem_dados", f"veredito {veredito} sem fonte que o sustente"
    return veredito, None


def _editada(c: Checagem, edicoes: Edicoes) -> ChecagemRevisada | None:
    e = edicoes.checagens.get(c.id)
    if e is None or not e.corrige:
        return None
    fontes = (
        c.fontes if e.fontes is None else tuple(FonteChecagem(f.titulo, f.url, "editor") for f in e.fontes)
    )
    return ChecagemRevisada(
        checagem=c,
        veredito=e.veredito or c.veredito,
        confianca=e.confianca or c.confianca,
        explicacao=e.explicacao or c.explicacao,
        fontes=fontes,
        revisado=False,
        motivo=None,
        oculta=bool(e.oculta),
        editada=True,
        nota_editor=e.motivo or "corrigida pelo editor",
    )


def revisar(checagens: Sequence[Checagem], edicoes: Edicoes) -> list[ChecagemRevisada]:
    """Review every check of the debate, in order (the original of a repeat comes first)."""
    revisadas: list[ChecagemRevisada] = []
    for c in checagens:
        oculta = bool(edicoes.checagens.get(c.id) and edicoes.checagens[c.id].oculta)
        editada = _editada(c, edicoes)
        if editada is not None:
            revisadas.append(editada)
            continue
        original = next((r for r in revisadas if r.repeticao_de is None and _repete(r.checagem, c)), None)
        if original is not None:
            motivo = None
            if original.veredito != c.veredito:
                motivo = f"afirmação repetida: vale o veredito da checagem original ({original.id})"
            revisadas.append(
                ChecagemRevisada(
                    c,
                    original.veredito,
                    original.confianca,
                    original.explicacao,
                    original.fontes,
                    revisado=motivo is not None,
                    motivo=motivo,
                    repeticao_de=original.id,
                    oculta=oculta,
                )
            )
            continue
        motivos: list[str] = []
        veredito, motivo = regra_fatos(c)
        if motivo:
            motivos.append(motivo)
        veredito, motivo = regra_numeros(c, veredito, c.explicacao)
        if motivo:
            motivos.append(motivo)
        veredito, motivo = regra_sem_fonte(c, veredito)
        if motivo:
            motivos.append(motivo)
        revisadas.append(
            ChecagemRevisada(
                c,
                veredito,
                c.confianca,
                c.explicacao,
                c.fontes,
                revisado=veredito != c.veredito,
                motivo="; ".join(motivos) if veredito != c.veredito else None,
                oculta=oculta,
            )
        )
    return _sem_contradicao(revisadas)


def _sem_contradicao(revisadas: list[ChecagemRevisada]) -> list[ChecagemRevisada]:
    """Rule 6: similar claims in the same turn (same numbers, close wording) cannot contradict."""
    saida = list(revisadas)
    for i, a in enumerate(saida):
        for j in range(i + 1, len(saida)):
            b = saida[j]
            if a.checagem.turno != b.checagem.turno or a.editada or b.editada:
                continue
            if _quantidades(a.checagem.afirmacao) != _quantidades(b.checagem.afirmacao):
                continue
            if similaridade(a.checagem.afirmacao, b.checagem.afirmacao) < SIMILARIDADE_PARECIDAS:
                continue
            contradizem = (a.veredito in POSITIVOS and b.veredito in NEGATIVOS) or (
                a.veredito in NEGATIVOS and b.veredito in POSITIVOS
            )
            if not contradizem:
                continue
            # The better-supported reading wins; with none better, neither can be affirmed.
            forca_a = (a.confianca == "alta", bool(a.fontes))
            forca_b = (b.confianca == "alta", bool(b.fontes))
            vencedor = a.veredito if forca_a > forca_b else b.veredito if forca_b > forca_a else "sem_dados"
            motivo = "afirmações parecidas no mesmo turno não podem ter vereditos contraditórios"
            for k, r in ((i, a), (j, b)):
                if r.veredito != vencedor:
                    saida[k] = replace(
                        r,
                        veredito=vencedor,
                        revisado=vencedor != r.checagem.veredito,
                        motivo="; ".join(x for x in (r.motivo, motivo) if x),
                    )
            a = saida[i]
    return saida


def para_json(r: ChecagemRevisada) -> dict[str, Any]:
    """A reviewed check as stored in `checagens-revisadas.json` and read by the page."""
    dados = asdict(r)
    original = dados.pop("checagem")
    return {
        **{k: v for k, v in original.items() if k not in ("veredito", "confianca", "explicacao", "fontes")},
        "veredito_original": r.checagem.veredito,
        "confianca_original": r.checagem.confianca,
        **dados,
    }
