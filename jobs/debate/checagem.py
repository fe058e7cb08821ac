"""Stage 5: claims and checks. Checkable claims (numbers, dates, comparisons, facts) are separated
from opinion and promise (`jobs.analise.afirmacoes`, shared with the desk), split into facts, and
each fact is checked against public sources (`jobs.fontes`): a verdict, a confidence, an
explanation and the sources.

This is the machine's first reading. Stage 6 (`revisao.py`) reviews it with deterministic rules.
A claim the desk already published is met by the published verdict ("memória de checagens": the
desk's claim memory over the checks the build publishes, `jobs/debate/reuso.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from jobs.analise.afirmacoes import Afirmacao, Analisador, extrair_afirmacoes
from jobs.analise.config import BACKEND_REGRAS
from jobs.debate.reuso import MemoriaDebate
from jobs.debate.texto import Numero, alinhado, diferenca_relativa, numeros
from jobs.fontes.busca import (
    TIPO_ESTATISTICA,
    TIPO_WEB,
    BuscaFontes,
    Dado,
    Documento,
    ErroBusca,
    Resultado,
    termos,
)

# Tolerances of the numeric comparison (one place): a count within 3 % is right, within 30 % it has
# a basis but is wrong (impreciso), beyond that it contradicts the source (falso). Percentages are
# compared in percentage points.
TOLERANCIA_VERDADEIRO = 0.03
TOLERANCIA_IMPRECISO = 0.30
TOLERANCIA_PP_VERDADEIRO = 1.0
TOLERANCIA_PP_IMPRECISO = 3.0
MIN_TERMOS_EM_COMUM = 1
RELEVANCIA_FORTE = 2.0  # BM25 score above which the source is clearly about the fact
RESULTADOS_POR_FATO = 5
# In a live debate only claims with a clear checkable signal are checked (the desk's queue starts at
# 0.35): "o candidato não respondeu" or "foi um fracasso" are judgements, not facts to look up.
LIMIAR_CHECABILIDADE_DEBATE = 0.45

_DIVISAO_FATOS = re.compile(r"\s*(?:,\s*e|;|,\s*mas|\s+mas|\s+enquanto|,\s*sendo que|\s+e)\s+")
_VERBO_FATO = re.compile(
    r"\b(foi|e|era|sao|eram|caiu|cairam|subiu|subiram|cresceu|cresceram|aumentou|aumentaram|diminuiu|tem|"
    r"teve|tinha|abriu|abrimos|fechou|atende|atendia|passou|chegou|chegaram|registrou|somou|soma|ficou)\b"
)


@dataclass(frozen=True)
class FonteChecagem:
    """A public source shown on a check card."""

    titulo: str
    url: str
    orgao: str
    trecho: str = ""


@dataclass(frozen=True)
class Fato:
    """One fact of a (possibly compound) claim, checked on its own."""

    texto: str
    central: bool
    veredito: str
    fontes: tuple[FonteChecagem, ...] = ()
    afirmado: float | None = None
    referencia: float | None = None
    unidade: str = ""
    descricao_referencia: str = ""


@dataclass(frozen=True)
class Checagem:
    """The machine's first check of one claim."""

    id: str
    turno: str
    candidato: str
    afirmacao: str
    inicio: int  # offsets in the turn text
    fim: int
    checabilidade: float
    dano: float
    temas: tuple[str, ...]
    fatos: tuple[Fato, ...]
    veredito: str
    confianca: str  # alta | baixa
    explicacao: str
    fontes: tuple[FonteChecagem, ...]
    metodo: str  # fontes | memoria | sem_fonte | busca_indisponivel
    checagem_publicada: str | None = None  # URL of the desk check it repeats
    # Which backend separated the claim ("regras" or "openai:<model>"); the verdict itself is always
    # the rule-based comparison with the sources (or the desk's published verdict).
    extraida_por: str = BACKEND_REGRAS


def _fmt(valor: float, unidade: str) -> str:
    if unidade == "%":
        return f"{valor:.2f}".replace(".", ",").removesuffix(",00") + "%"
    if valor >= 1e6:
        texto = f"{valor / 1e6:.1f}".replace(".", ",").removesuffix(",0") + " milhões"
    else:
        texto = f"{valor:,.0f}".replace(",", ".")
    return ("R$ " + texto) if unidade == "R$" else texto


def dividir_fatos(texto: str) -> list[str]:
    """Split a compound claim into facts: only where both sides state something on their own."""
    base = alinhado(texto)
    pedacos, inicio = [], 0
    for m in _DIVISAO_FATOS.finditer(base):
        esquerda, direita = base[inicio : m.start()], base[m.end() :]
        if len(direita.split()) < 3:
            continue
        afirma_esq = bool(numeros(texto[inicio : m.start()])) or bool(_VERBO_FATO.search(esquerda))
        afirma_dir = bool(numeros(texto[m.end() :])) or bool(_VERBO_FATO.search(direita))
        if afirma_esq and afirma_dir:
            pedacos.append(texto[inicio : m.start()].strip(" ,;."))
            inicio = m.end()
    pedacos.append(texto[inicio:].strip(" ,;."))
    return [p for p in pedacos if p]


def _quantidades(texto: str) -> list[Numero]:
    return [n for n in numeros(texto) if n.unidade != "ano"]


def _anos(texto: str) -> set[int]:
    return {int(n.valor) for n in numeros(texto) if n.unidade == "ano"}


def veredito_por_numeros(afirmado: float, referencia: float, unidade: str) -> str:
    """Verdict of a stated number against the source's (tolerances above)."""
    if unidade == "%":
        diferenca = abs(afirmado - referencia)
        if diferenca <= TOLERANCIA_PP_VERDADEIRO:
            return "verdadeiro"
        return "impreciso" if diferenca <= TOLERANCIA_PP_IMPRECISO else "falso"
    relativa = diferenca_relativa(afirmado, referencia)
    if relativa <= TOLERANCIA_VERDADEIRO:
        return "verdadeiro"
    return "impreciso" if relativa <= TOLERANCIA_IMPRECISO else "falso"


@dataclass(frozen=True)
class _Comparacao:
    numero: Numero
    dado: Dado
    documento: Documento
    pontos: tuple[int, bool, int, float]
    comuns: int
    relevancia: float


def _melhor_comparacao(fato: str, resultados: Sequence[Resultado]) -> _Comparacao | None:
    """The source number that best matches a number of the fact (same unit, shared words, same year)."""
    quantidades = _quantidades(fato)
    if not quantidades:
        return None
    anos = _anos(fato)
    termos_fato = set(termos(fato))
    melhor: _Comparacao | None = None
    for r in resultados:
        for dado in dados_de(r.documento):
            if anos and dado.ano is not None and dado.ano not in anos:
                continue
            comuns = len(termos_fato & set(termos(dado.descricao)))
            if comuns < MIN_TERMOS_EM_COMUM:
                continue
            for n in quantidades:
                if n.unidade != dado.unidade:
                    continue
                # More shared words first, then the year the claim names, then newer data (claims
                # speak of the present), then the document's relevance.
                pontos = (comuns, bool(anos) and dado.ano in anos, dado.ano or 0, r.pontuacao)
                if melhor is None or pontos > melhor.pontos:
                    melhor = _Comparacao(n, dado, r.documento, pontos, comuns, r.pontuacao)
    return melhor


def dados_de(doc: Documento) -> tuple[Dado, ...]:
    """A source's numbers: the index's structured data, or the numbers of a web snippet's sentences."""
    if doc.dados or doc.tipo != TIPO_WEB:
        return doc.dados
    saida = []
    for frase in re.split(r"(?<=[.;!?])\s+", doc.texto):
        anos = [int(n.valor) for n in numeros(frase) if n.unidade == "ano"]
        for n in numeros(frase):
            if n.unidade != "ano":
                saida.append(Dado(frase, n.valor, n.unidade, anos[0] if len(anos) == 1 else None))
    return tuple(saida)


def _fonte(doc: Documento, trecho: str = "") -> FonteChecagem:
    return FonteChecagem(doc.titulo, doc.url, doc.orgao, trecho)


def checar_fato(texto: str, central: bool, busca: BuscaFontes) -> tuple[Fato, str, bool]:
    """One fact against the sources: (fact, explanation, strong match)."""
    resultados = busca.buscar(texto, RESULTADOS_POR_FATO, TIPO_ESTATISTICA) + busca.buscar(
        texto, RESULTADOS_POR_FATO, TIPO_WEB
    )
    comparacao = _melhor_comparacao(texto, resultados)
    if comparacao is None:
        return (
            Fato(texto, central, "sem_dados"),
            f"Não encontramos fonte pública com o dado de “{texto}”.",
            False,
        )
    n, dado, doc = comparacao.numero, comparacao.dado, comparacao.documento
    veredito = veredito_por_numeros(n.valor, dado.valor, dado.unidade)
    ano = f" em {dado.ano}" if dado.ano else ""
    conclusao = {
        "verdadeiro": "O número confere.",
        "impreciso": "O número tem base, mas não é o da fonte.",
        "falso": "O número não confere com a fonte.",
    }[veredito]
    explicacao = (
        f"Segundo {doc.orgao}, o dado ({dado.descricao}){ano} é {_fmt(dado.valor, dado.unidade)}; "
        f"a afirmação fala em {n.trecho}. {conclusao}"
    )
    # Strong: official data that shares two words with the fact or is clearly about it (BM25);
    # a web snippet never is.
    forte = doc.tipo == TIPO_ESTATISTICA and (
        comparacao.comuns >= 2 or comparacao.relevancia >= RELEVANCIA_FORTE
    )
    fato = Fato(
        texto,
        central,
        veredito,
        (_fonte(doc, doc.texto),),
        n.valor,
        dado.valor,
        dado.unidade,
        f"{dado.descricao}{ano}",
    )
    return fato, explicacao, forte


def checar(
    afirmacao: Afirmacao,
    id_checagem: str,
    turno: str,
    candidato: str,
    busca: BuscaFontes,
    memoria: MemoriaDebate,
    extraida_por: str = BACKEND_REGRAS,
) -> Checagem:
    """First check of one claim: the desk's published verdict when the claim repeats a published
    check (`memoria`), else the sources (never raises for a search failure: it says so, as
    `sem_dados`)."""
    comum: dict[str, Any] = {
        "id": id_checagem,
        "turno": turno,
        "candidato": candidato,
        "afirmacao": afirmacao.texto,
        "inicio": afirmacao.inicio,
        "fim": afirmacao.fim,
        "checabilidade": afirmacao.checabilidade,
        "dano": afirmacao.dano,
        "temas": afirmacao.temas,
        "extraida_por": extraida_por,
    }
    publicada = memoria.reuso(afirmacao.texto)
    if publicada is not None:
        fonte = _fonte(publicada, publicada.afirmacao)
        fato = Fato(afirmacao.texto, True, publicada.veredito or "sem_dados", (fonte,))
        explicacao = (
            f"A redação já checou esta afirmação (“{publicada.afirmacao}”) e publicou o veredito; "
            "ele vale para esta repetição."
        )
        return Checagem(
            **comum,
            fatos=(fato,),
            veredito=fato.veredito,
            confianca="alta",
            explicacao=explicacao,
            fontes=(fonte,),
            metodo="memoria",
            checagem_publicada=publicada.url,
        )
    try:
        textos = dividir_fatos(afirmacao.texto)
        indice_central = next((i for i, t in enumerate(textos) if _quantidades(t)), 0)
        fatos, explicacoes, fortes = [], [], []
        for i, texto in enumerate(textos):
            fato, explicacao, forte = checar_fato(texto, i == indice_central, busca)
            fatos.append(fato)
            explicacoes.append(explicacao)
            fortes.append(forte)
    except ErroBusca as exc:
        fato = Fato(afirmacao.texto, True, "sem_dados")
        return Checagem(
            **comum,
            fatos=(fato,),
            veredito="sem_dados",
            confianca="baixa",
            explicacao=f"Não foi possível consultar as fontes: {exc}.",
            fontes=(),
            metodo="busca_indisponivel",
        )
    # The first reading takes the best-supported fact, central or not; the review corrects that.
    com_fonte = [i for i, f in enumerate(fatos) if f.fontes]
    decisivo = next((i for i in com_fonte if fatos[i].central), com_fonte[0] if com_fonte else indice_central)
    fontes = tuple(dict.fromkeys(f for fato in fatos for f in fato.fontes))
    return Checagem(
        **comum,
        fatos=tuple(fatos),
        veredito=fatos[decisivo].veredito,
        confianca="alta" if fortes[decisivo] else "baixa",
        # The central fact always explains itself; a detail only when a source speaks of it.
        explicacao=" ".join(
            dict.fromkeys(e for e, f in zip(explicacoes, fatos, strict=True) if f.central or f.fontes)
        ),
        fontes=fontes,
        metodo="fontes" if fontes else "sem_fonte",
    )


def checaveis(texto: str, analisador: Analisador | None) -> list[Afirmacao]:
    """The checkable claims of a turn (opinions, promises and predictions left out)."""
    return [
        a
        for a in extrair_afirmacoes(texto, analisador)
        if a.tipo == "checavel" and a.checabilidade >= LIMIAR_CHECABILIDADE_DEBATE
    ]


def para_json(c: Checagem) -> dict[str, Any]:
    """A check as stored."""
    return asdict(c)


def de_json(d: dict[str, Any]) -> Checagem:
    """A check read back from storage."""
    fatos = tuple(Fato(**{**f, "fontes": tuple(FonteChecagem(**x) for x in f["fontes"])}) for f in d["fatos"])
    return Checagem(
        **{
            **d,
            "temas": tuple(d["temas"]),
            "fatos": fatos,
            "fontes": tuple(FonteChecagem(**x) for x in d["fontes"]),
        }
    )
