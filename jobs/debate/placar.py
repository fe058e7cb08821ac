"""Stage 7: the debate scoreboard (`placar.json`), with the pinned formulas of the method.

Every weight, threshold and constant of the scoreboard lives here, once. The functions are pure:
an `EntradaPlacar` (the AVALIACOES input) goes in, a JSON-ready dict comes out.

Method v2 (current): turns, six metrics. Method v1 (until the Band debate of 18 Oct 2026): each
utterance is a unit, five metrics, unreviewed verdicts; the same per-metric formulas apply, with
the v1 base weights and without proposals.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

METODO_V1 = "v1"
METODO_V2 = "v2"
# Seed, "Histórico do método": v2 is used from the Band debate of 18 Oct 2026 on; debates before it
# show both readings.
DATA_METODO_V2 = dt.date(2026, 10, 18)

VERACIDADE = "veracidade"
RESPOSTAS = "respostas_diretas"
SUBSTANCIA = "substancia"
PROPOSTAS = "propostas"
CLAREZA = "clareza"
RESPEITO = "respeito"

# Base weights per method, in the order the page shows them.
PESOS_BASE: dict[str, dict[str, float]] = {
    METODO_V2: {VERACIDADE: 35, RESPOSTAS: 30, SUBSTANCIA: 10, PROPOSTAS: 10, CLAREZA: 10, RESPEITO: 5},
    METODO_V1: {VERACIDADE: 40, RESPOSTAS: 25, SUBSTANCIA: 20, CLAREZA: 10, RESPEITO: 5},
}
NOMES_METRICAS = {
    VERACIDADE: "Veracidade",
    RESPOSTAS: "Respostas diretas",
    SUBSTANCIA: "Substância",
    PROPOSTAS: "Propostas",
    CLAREZA: "Clareza",
    RESPEITO: "Respeito",
}

PESO_TURNO_MIN_S = 5.0
PESO_TURNO_MAX_S = 180.0
FICTICIO_S = 20.0  # fictitious seconds added to every per-turn metric
FICTICIO_NOTA = 50.0
FICTICIO_NOTA_RESPEITO = 100.0

VALOR_VEREDITO = {"verdadeiro": 1.0, "impreciso": 0.75, "enganoso": 0.0, "falso": 0.0}
CONTAGEM_VEREDITO = {"verdadeiro": 1.0, "impreciso": 1.0, "enganoso": 1.5, "falso": 2.0}
PESO_CONFIANCA = {"alta": 1.0, "baixa": 0.5}
REPETICAO_CONTA = frozenset({"falso", "enganoso"})  # repeating a lie counts again; a truth does not
VEREDITOS_VALIDOS = (*VALOR_VEREDITO, "sem_dados")
VERACIDADE_FICTICIAS = 3.0
VERACIDADE_FICTICIA_VALOR = 0.5
VERACIDADE_SEM_CHECAGENS = 50.0

PONTOS_ITEM_PROPOSTA = 25.0
PROPOSTAS_FICTICIAS = 2.0
PROPOSTA_FICTICIA_NOTA = 50.0

LIDER_MIN_TURNOS = 3
EMPATE_MIN_PONTOS = 3.0
EMPATE_FATOR = 10.0  # tie threshold 10 / sqrt(n) when it exceeds the minimum

CASAS = 2  # decimals in the output


class ErroPlacar(ValueError):  # noqa: N818 - Portuguese name, like ErroAnalise
    """Invalid scoreboard input; the message (in Portuguese) names the field."""


@dataclass(frozen=True)
class PropostaPlacar:
    """One proposal of a turn: which of the four items it states."""

    o_que: bool
    quanto: bool
    como: bool
    prazo: bool
    ataque_disfarcado: bool = False

    @property
    def itens(self) -> int:
        """How many of the four items (what, how much, how, deadline) the proposal states."""
        return sum((self.o_que, self.quanto, self.como, self.prazo))


@dataclass(frozen=True)
class TurnoPlacar:
    """One evaluated turn (v2) or utterance (v1)."""

    id: str
    candidato: str
    duracao_s: float
    pergunta: bool
    partes_pergunta: int
    partes_respondidas: int
    evasao: float
    substancia: float
    clareza: float
    ataque_pessoal: bool
    propostas: tuple[PropostaPlacar, ...] = ()


@dataclass(frozen=True)
class ChecagemPlacar:
    """One reviewed check as the scoreboard counts it."""

    id: str
    candidato: str
    veredito: str
    confianca: str
    repeticao_de: str | None = None
    oculta: bool = False


@dataclass(frozen=True)
class FalaPlacar:
    """One utterance of a candidate, for speaking time only."""

    candidato: str
    duracao_s: float


@dataclass(frozen=True)
class CandidatoPlacar:
    """A candidate of the debate."""

    id: str
    nome: str


@dataclass(frozen=True)
class EntradaPlacar:
    """The AVALIACOES input of `eleicoes debate placar`."""

    metodo: str
    candidatos: tuple[CandidatoPlacar, ...]
    turnos: tuple[TurnoPlacar, ...]
    checagens: tuple[ChecagemPlacar, ...]
    falas: tuple[FalaPlacar, ...]
    em_revisao: tuple[str, ...] = ()  # candidate of each turn held for its transcript (not scored)
    # candidate of each item (proposal, claim, attack, question) held for its words' confidence
    itens_em_revisao: tuple[str, ...] = ()


# ---------------------------------------------------------------- formulas


def peso_turno(duracao_s: float) -> float:
    """Turn weight w = min(max(duration, 5), 180) seconds."""
    return min(max(duracao_s, PESO_TURNO_MIN_S), PESO_TURNO_MAX_S)


def media_ponderada(pares: Iterable[tuple[float, float]], nota_ficticia: float) -> float:
    """(Σ w·s + 20·fictitious) / (Σ w + 20) over (duration, score) pairs."""
    soma_ws = FICTICIO_S * nota_ficticia
    soma_w = FICTICIO_S
    for duracao, nota in pares:
        w = peso_turno(duracao)
        soma_ws += w * nota
        soma_w += w
    return soma_ws / soma_w


def nota_resposta(turno: TurnoPlacar) -> float:
    """Direct-answer score of a turn with a question: 100 × answered/parts × (1 − evasion/10)."""
    return 100.0 * (turno.partes_respondidas / turno.partes_pergunta) * (1.0 - turno.evasao / 10.0)


def conta_em_respostas(turno: TurnoPlacar) -> bool:
    """Only turns that answer a question enter direct answers."""
    return turno.pergunta and turno.partes_pergunta > 0


def nota_proposta(proposta: PropostaPlacar) -> float:
    """25 points per item stated (what, how much or goal, how or funding, deadline)."""
    return PONTOS_ITEM_PROPOSTA * proposta.itens


def checagens_contadas(checagens: Iterable[ChecagemPlacar]) -> list[ChecagemPlacar]:
    """Checks entering veracity: not hidden, not `sem_dados`, repeats of true/imprecise dropped."""
    contadas = []
    for c in checagens:
        if c.oculta or c.veredito not in VALOR_VEREDITO:
            continue
        if c.repeticao_de and c.veredito not in REPETICAO_CONTA:
            continue
        contadas.append(c)
    return contadas


@dataclass(frozen=True)
class Metrica:
    """One metric of one candidate before renormalisation."""

    nota: float | None
    peso: float  # base weight already scaled (veracity, proposals); 0 when it has no data
    sem_dados: bool


def veracidade(checagens: Sequence[ChecagemPlacar], peso_base: float) -> Metrica:
    """100 × (Σ c·k·v + 3·0.5) / (Σ c·k + 3), weight base × n/(n + 3); n = 0 shows 50, weighs 0."""
    contadas = checagens_contadas(checagens)
    n = len(contadas)
    if n == 0:
        return Metrica(VERACIDADE_SEM_CHECAGENS, 0.0, True)
    soma_ckv = VERACIDADE_FICTICIAS * VERACIDADE_FICTICIA_VALOR
    soma_ck = VERACIDADE_FICTICIAS
    for c in contadas:
        ck = PESO_CONFIANCA[c.confianca] * CONTAGEM_VEREDITO[c.veredito]
        soma_ckv += ck * VALOR_VEREDITO[c.veredito]
        soma_ck += ck
    return Metrica(100.0 * soma_ckv / soma_ck, peso_base * n / (n + VERACIDADE_FICTICIAS), False)


def propostas(turnos: Sequence[TurnoPlacar], peso_base: float) -> Metrica:
    """(Σ score + 2·50) / (m + 2), weight base × m/(m + 2); m = 0 has no data and no penalty."""
    notas = [nota_proposta(p) for t in turnos for p in t.propostas if not p.ataque_disfarcado]
    m = len(notas)
    if m == 0:
        return Metrica(None, 0.0, True)
    nota = (sum(notas) + PROPOSTAS_FICTICIAS * PROPOSTA_FICTICIA_NOTA) / (m + PROPOSTAS_FICTICIAS)
    return Metrica(nota, peso_base * m / (m + PROPOSTAS_FICTICIAS), False)


def _por_turno(
    turnos: Sequence[TurnoPlacar],
    peso_base: float,
    nota: Callable[[TurnoPlacar], float],
    ficticia: float,
) -> Metrica:
    if not turnos:
        return Metrica(None, 0.0, True)
    return Metrica(media_ponderada(((t.duracao_s, nota(t)) for t in turnos), ficticia), peso_base, False)


def metricas_candidato(
    metodo: str, turnos: Sequence[TurnoPlacar], checagens: Sequence[ChecagemPlacar]
) -> dict[str, Metrica]:
    """Every metric of one candidate under `metodo`, before renormalisation."""
    pesos = PESOS_BASE[metodo]
    com_pergunta = [t for t in turnos if conta_em_respostas(t)]
    todas = {
        VERACIDADE: veracidade(checagens, pesos[VERACIDADE]),
        RESPOSTAS: _por_turno(com_pergunta, pesos[RESPOSTAS], nota_resposta, FICTICIO_NOTA),
        SUBSTANCIA: _por_turno(turnos, pesos[SUBSTANCIA], lambda t: 10.0 * t.substancia, FICTICIO_NOTA),
        PROPOSTAS: propostas(turnos, pesos.get(PROPOSTAS, 0.0)),
        CLAREZA: _por_turno(turnos, pesos[CLAREZA], lambda t: 10.0 * t.clareza, FICTICIO_NOTA),
        RESPEITO: _por_turno(
            turnos, pesos[RESPEITO], lambda t: 0.0 if t.ataque_pessoal else 100.0, FICTICIO_NOTA_RESPEITO
        ),
    }
    return {nome: todas[nome] for nome in pesos}


def nota_total(metricas: Mapping[str, Metrica]) -> float | None:
    """Σ weight·metric / Σ weight over the metrics with data (weights renormalised)."""
    com_dados = [m for m in metricas.values() if not m.sem_dados and m.nota is not None and m.peso > 0]
    soma_pesos = sum(m.peso for m in com_dados)
    if soma_pesos <= 0:
        return None
    return sum(m.peso * (m.nota or 0.0) for m in com_dados) / soma_pesos


def limiar_empate(turnos_minimo: int) -> float:
    """Technical tie threshold: max(3, 10/√n), n = evaluated turns of whichever of the two has fewer."""
    return max(EMPATE_MIN_PONTOS, EMPATE_FATOR / math.sqrt(turnos_minimo))


@dataclass(frozen=True)
class Classificado:
    """A candidate's total and evaluated turns, for the headline."""

    id: str
    nota: float | None
    turnos: int


def manchete(classificados: Sequence[Classificado]) -> dict[str, Any]:
    """Leader only if the top two each have ≥ 3 evaluated turns and the gap is not a technical tie."""
    ranking = sorted((c for c in classificados if c.nota is not None), key=lambda c: (-(c.nota or 0), c.id))
    if len(ranking) < 2:
        return {"lider": None, "empate_tecnico": False, "diferenca": None, "limiar": None, "casas": None}
    primeiro, segundo = ranking[0], ranking[1]
    diferenca = (primeiro.nota or 0.0) - (segundo.nota or 0.0)
    n = min(primeiro.turnos, segundo.turnos)
    limiar = limiar_empate(n)
    suficiente = n >= LIDER_MIN_TURNOS
    empate = suficiente and diferenca < limiar  # unrounded values: rounding never decides a tie
    casas = casas_consistentes(diferenca, limiar)
    return {
        "lider": primeiro.id if suficiente and not empate else None,
        "empate_tecnico": empate,
        "diferenca": round(diferenca, max(casas, CASAS)),
        "limiar": round(limiar, max(casas, CASAS)),
        "casas": casas,
    }


def casas_consistentes(diferenca: float, limiar: float, minimo: int = 1, maximo: int = 6) -> int:
    """Fewest decimals (from `minimo`) at which the rounded gap and threshold compare as the exact
    ones do: a tie (gap < threshold) never reads "3,0 menor que 3,0", a lead never "2,9 ≥ 3,0"."""
    empate = diferenca < limiar
    for casas in range(minimo, maximo + 1):
        if (round(diferenca, casas) < round(limiar, casas)) == empate:
            return casas
    return maximo


def calcular(entrada: EntradaPlacar) -> dict[str, Any]:
    """The scoreboard of one debate: per candidate total, metrics, turns, speaking time; headline."""
    resultado: list[dict[str, Any]] = []
    classificados = []
    for cand in entrada.candidatos:
        turnos = [t for t in entrada.turnos if t.candidato == cand.id]
        checagens = [c for c in entrada.checagens if c.candidato == cand.id]
        metricas = metricas_candidato(entrada.metodo, turnos, checagens)
        total = nota_total(metricas) if turnos else None
        soma_pesos = sum(m.peso for m in metricas.values() if not m.sem_dados)
        resultado.append(
            {
                "id": cand.id,
                "nome": cand.nome,
                "nota": None if total is None else round(total, CASAS),
                "metricas": {
                    nome: {
                        "nota": None if m.nota is None else round(m.nota, CASAS),
                        "peso_efetivo": (
                            round(100.0 * m.peso / soma_pesos, CASAS)
                            if total is not None and not m.sem_dados and soma_pesos > 0
                            else 0.0
                        ),
                        "sem_dados": m.sem_dados,
                    }
                    for nome, m in metricas.items()
                },
                "turnos_avaliados": len(turnos),
                "turnos_em_revisao": entrada.em_revisao.count(cand.id),
                "itens_em_revisao": entrada.itens_em_revisao.count(cand.id),
                "tempo_fala_s": round(sum(f.duracao_s for f in entrada.falas if f.candidato == cand.id), 1),
            }
        )
        classificados.append(Classificado(cand.id, total, len(turnos)))
    ordem = {c.id: i for i, c in enumerate(entrada.candidatos)}
    resultado.sort(key=lambda c: (c["nota"] is None, -(c["nota"] or 0.0), ordem[c["id"]]))
    return {
        "metodo": entrada.metodo,
        "candidatos": resultado,
        "manchete": manchete(classificados),
        "turnos_em_revisao": len(entrada.em_revisao),
        "itens_em_revisao": len(entrada.itens_em_revisao),
    }


def metodos_do_debate(data: dt.date) -> tuple[str, ...]:
    """Readings a debate shows: v1 and v2 before the Band debate of 18 Oct 2026, else v2 only."""
    return (METODO_V2, METODO_V1) if data < DATA_METODO_V2 else (METODO_V2,)


# ---------------------------------------------------------------- input parsing


def _campo(obj: Mapping[str, Any], chave: str, onde: str) -> Any:
    if chave not in obj:
        raise ErroPlacar(f"{onde}.{chave}: campo obrigatório ausente")
    return obj[chave]


def _numero(obj: Mapping[str, Any], chave: str, onde: str, minimo: float, maximo: float | None) -> float:
    valor = _campo(obj, chave, onde)
    if isinstance(valor, bool) or not isinstance(valor, int | float) or not math.isfinite(valor):
        raise ErroPlacar(f"{onde}.{chave}: deve ser um número")
    if valor < minimo or (maximo is not None and valor > maximo):
        faixa = f"entre {minimo:g} e {maximo:g}" if maximo is not None else f"maior ou igual a {minimo:g}"
        raise ErroPlacar(f"{onde}.{chave}: deve ser {faixa} (veio {valor})")
    return float(valor)


def _inteiro(obj: Mapping[str, Any], chave: str, onde: str) -> int:
    valor = _campo(obj, chave, onde)
    if isinstance(valor, bool) or not isinstance(valor, int) or valor < 0:
        raise ErroPlacar(f"{onde}.{chave}: deve ser um número inteiro não negativo")
    return valor


def _booleano(obj: Mapping[str, Any], chave: str, onde: str, padrao: bool | None = None) -> bool:
    if chave not in obj and padrao is not None:
        return padrao
    valor = _campo(obj, chave, onde)
    if not isinstance(valor, bool):
        raise ErroPlacar(f"{onde}.{chave}: deve ser true ou false")
    return valor


def _texto(obj: Mapping[str, Any], chave: str, onde: str) -> str:
    valor = _campo(obj, chave, onde)
    if not isinstance(valor, str) or not valor:
        raise ErroPlacar(f"{onde}.{chave}: deve ser um texto não vazio")
    return valor


def _lista(obj: Mapping[str, Any], chave: str, onde: str) -> list[Any]:
    valor = obj.get(chave, [])
    if not isinstance(valor, list):
        raise ErroPlacar(f"{onde}.{chave}: deve ser uma lista")
    return valor


def _objeto(valor: Any, onde: str) -> Mapping[str, Any]:
    if not isinstance(valor, dict):
        raise ErroPlacar(f"{onde}: deve ser um objeto JSON")
    return valor


def _turno(dados: Any, onde: str, candidatos: set[str]) -> TurnoPlacar:
    obj = _objeto(dados, onde)
    candidato = _texto(obj, "candidato", onde)
    if candidato not in candidatos:
        raise ErroPlacar(f"{onde}.candidato: '{candidato}' não está na lista de candidatos")
    pergunta = _booleano(obj, "pergunta", onde)
    partes = _inteiro(obj, "partes_pergunta", onde) if pergunta else int(obj.get("partes_pergunta") or 0)
    respondidas = _inteiro(obj, "partes_respondidas", onde) if pergunta else 0
    if pergunta and partes == 0:
        raise ErroPlacar(f"{onde}.partes_pergunta: um turno com pergunta tem ao menos uma parte")
    if respondidas > partes:
        raise ErroPlacar(f"{onde}.partes_respondidas: maior que partes_pergunta ({respondidas} > {partes})")
    props = []
    for j, p in enumerate(_lista(obj, "propostas", onde)):
        po = _objeto(p, f"{onde}.propostas[{j}]")
        w = f"{onde}.propostas[{j}]"
        props.append(
            PropostaPlacar(
                o_que=_booleano(po, "o_que", w),
                quanto=_booleano(po, "quanto", w),
                como=_booleano(po, "como", w),
                prazo=_booleano(po, "prazo", w),
                ataque_disfarcado=_booleano(po, "ataque_disfarcado", w, padrao=False),
            )
        )
    return TurnoPlacar(
        id=str(obj.get("id", onde)),
        candidato=candidato,
        duracao_s=_numero(obj, "duracao_s", onde, 0, None),
        pergunta=pergunta,
        partes_pergunta=partes,
        partes_respondidas=respondidas,
        evasao=_numero(obj, "evasao", onde, 0, 10) if pergunta else float(obj.get("evasao") or 0),
        substancia=_numero(obj, "substancia", onde, 0, 10),
        clareza=_numero(obj, "clareza", onde, 0, 10),
        ataque_pessoal=_booleano(obj, "ataque_pessoal", onde),
        propostas=tuple(props),
    )


def _checagem(dados: Any, onde: str, candidatos: set[str]) -> ChecagemPlacar:
    obj = _objeto(dados, onde)
    candidato = _texto(obj, "candidato", onde)
    if candidato not in candidatos:
        raise ErroPlacar(f"{onde}.candidato: '{candidato}' não está na lista de candidatos")
    veredito = _texto(obj, "veredito", onde)
    if veredito not in VEREDITOS_VALIDOS:
        raise ErroPlacar(f"{onde}.veredito: '{veredito}' não existe (use {', '.join(VEREDITOS_VALIDOS)})")
    confianca = _texto(obj, "confianca", onde)
    if confianca not in PESO_CONFIANCA:
        raise ErroPlacar(f"{onde}.confianca: use 'alta' ou 'baixa' (veio '{confianca}')")
    repeticao = obj.get("repeticao_de")
    if repeticao is not None and not isinstance(repeticao, str):
        raise ErroPlacar(f"{onde}.repeticao_de: deve ser o id de uma checagem ou null")
    return ChecagemPlacar(
        id=_texto(obj, "id", onde),
        candidato=candidato,
        veredito=veredito,
        confianca=confianca,
        repeticao_de=repeticao or None,
        oculta=_booleano(obj, "oculta", onde, padrao=False),
    )


def ler_entrada(dados: Any) -> EntradaPlacar:
    """Validate the AVALIACOES JSON; raises ErroPlacar naming the first bad field."""
    obj = _objeto(dados, "entrada")
    metodo = obj.get("metodo", METODO_V2)
    if metodo not in PESOS_BASE:
        raise ErroPlacar(f"metodo: use 'v1' ou 'v2' (veio '{metodo}')")
    candidatos = []
    for i, c in enumerate(_lista(obj, "candidatos", "entrada")):
        co = _objeto(c, f"candidatos[{i}]")
        candidatos.append(
            CandidatoPlacar(_texto(co, "id", f"candidatos[{i}]"), _texto(co, "nome", f"candidatos[{i}]"))
        )
    ids = {c.id for c in candidatos}
    if len(ids) != len(candidatos):
        raise ErroPlacar("candidatos: há ids repetidos")
    turnos = tuple(_turno(t, f"turnos[{i}]", ids) for i, t in enumerate(_lista(obj, "turnos", "entrada")))
    checagens = tuple(
        _checagem(c, f"checagens[{i}]", ids) for i, c in enumerate(_lista(obj, "checagens", "entrada"))
    )
    falas = []
    for i, f in enumerate(_lista(obj, "falas", "entrada")):
        fo = _objeto(f, f"falas[{i}]")
        candidato = _texto(fo, "candidato", f"falas[{i}]")
        if candidato not in ids:
            raise ErroPlacar(f"falas[{i}].candidato: '{candidato}' não está na lista de candidatos")
        falas.append(FalaPlacar(candidato, _numero(fo, "duracao_s", f"falas[{i}]", 0, None)))
    em_revisao = _candidatos_retidos(obj, "turnos_em_revisao", ids)
    itens = _candidatos_retidos(obj, "itens_em_revisao", ids)
    return EntradaPlacar(metodo, tuple(candidatos), turnos, checagens, tuple(falas), em_revisao, itens)


def _candidatos_retidos(obj: Mapping[str, Any], chave: str, ids: set[str]) -> tuple[str, ...]:
    """The candidate of each held turn or item listed under `chave` (counted, never scored)."""
    saida = []
    for i, t in enumerate(_lista(obj, chave, "entrada")):
        onde = f"{chave}[{i}]"
        candidato = _texto(_objeto(t, onde), "candidato", onde)
        if candidato not in ids:
            raise ErroPlacar(f"{onde}.candidato: '{candidato}' não está na lista de candidatos")
        saida.append(candidato)
    return tuple(saida)
