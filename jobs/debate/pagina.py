"""Stage 8: what a debate page shows that the engine computes (`pagina.json`).

The site builder reads this file and only formats it: it imports no job, so every formula, band
and label of the method reaches the page through here. Pure: the stored stages (as JSON-ready
dicts) go in, a JSON-ready dict comes out.

- `leituras`: the readings the page shows (v2, plus v1 for debates before 18 Oct 2026), each with
  its headline and its scoreboard columns (metric names and base weights, in page order);
- `mudancas`: what changed between the two readings, in plain words (v1 debates only);
- `turnos`: per turn, its weight in seconds, its direct-answer score (None without a question)
  and the points of each proposal (the evasion band is stored with the evaluation);
  and which of its items wait for the editor because their words were heard with too little
  confidence (`propostas_em_revisao`, `ataque_em_revisao`, `pergunta_em_revisao`: the reasons);
- `checagens_em_revisao`: the same for checkable claims, by check id;
- `pontos_item_proposta`: the points each stated item of a proposal is worth;
- `vereditos`: the label readers see for each verdict code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jobs.analise.config import PREFIXO_CLASSIFICADOR, PREFIXO_LLM, gerado_por_ia, rotulo_backend
from jobs.debate import placar as formulas
from jobs.debate.revisao_transcricao import CONFIRMADA, CORRIGIDA, EM_REVISAO
from site_builder.br_format import decimal, plural, pontos_por_extenso
from site_builder.conteudo.vereditos import VEREDITOS


def _numero(valor: float) -> str:
    return decimal(valor, 1)


def manchete(placar: Mapping[str, Any], nomes: Mapping[str, str]) -> str:
    """The scoreboard headline: who leads, a technical tie, or why nobody leads yet. The gap and the
    threshold are written with the decimals that keep them comparing as the exact values do."""
    m = placar.get("manchete", {})
    candidatos = [c for c in placar.get("candidatos", []) if c.get("nota") is not None]
    casas = max(1, int(m.get("casas") or 1))
    if m.get("lider"):
        lider = next(c for c in candidatos if c["id"] == m["lider"])
        return (
            f"{nomes.get(lider['id'], lider['nome'])} lidera o placar com {_numero(lider['nota'])} pontos, "
            f"{pontos_por_extenso(m['diferenca'], casas)} à frente (empate técnico seria uma diferença "
            f"menor que {decimal(m['limiar'], casas)})."
        )
    if m.get("empate_tecnico"):
        a, b = candidatos[0], candidatos[1]
        return (
            f"Empate técnico entre {a['nome']} e {b['nome']}: "
            f"diferença de {pontos_por_extenso(m['diferenca'], casas)}, "
            f"menor que o limite de {decimal(m['limiar'], casas)}."
        )
    if candidatos:
        return (
            "Ainda não dá para apontar quem lidera: os dois primeiros colocados precisam de ao menos "
            f"{formulas.LIDER_MIN_TURNOS} turnos avaliados cada um."
        )
    return "O placar aparece quando houver turnos avaliados."


def colunas(metodo: str) -> list[dict[str, Any]]:
    """The scoreboard columns of a method: metric key, name and base weight, in page order."""
    return [
        {"metrica": nome, "nome": formulas.NOMES_METRICAS[nome], "peso_base": peso}
        for nome, peso in formulas.PESOS_BASE[metodo].items()
    ]


def mudancas(
    v2: Mapping[str, Any],
    v1: Mapping[str, Any],
    revisadas: Sequence[Mapping[str, Any]],
    nomes: Mapping[str, str],
) -> list[str]:
    """What changed between the two readings, in plain words."""
    saida = []
    antes = {c["id"]: c for c in v1.get("candidatos", [])}
    for c in v2.get("candidatos", []):
        a = antes.get(c["id"])
        if a is None:
            continue
        if c.get("nota") is None or a.get("nota") is None:
            continue
        delta = c["nota"] - a["nota"]
        sentido = "subiu" if delta > 0 else "caiu" if delta < 0 else "ficou igual"
        saida.append(
            f"{c['nome']}: {_numero(a['nota'])} na v1, {_numero(c['nota'])} no método atual "
            f"({sentido}{'' if delta == 0 else ' ' + pontos_por_extenso(abs(delta))}); "
            f"{plural(a.get('turnos_avaliados', 0), 'fala avaliada', 'falas avaliadas')} uma a uma na v1, "
            f"{plural(c.get('turnos_avaliados', 0), 'turno', 'turnos')} agora."
        )
    l1, l2 = v1.get("manchete", {}).get("lider"), v2.get("manchete", {}).get("lider")
    if l1 != l2:
        saida.append(
            f"Manchete: na v1 {'liderava ' + nomes.get(l1, l1) if l1 else 'ninguém liderava'}; "
            f"no método atual {'lidera ' + nomes.get(l2, l2) if l2 else 'ninguém lidera'}."
        )
    else:
        saida.append("A manchete é a mesma nas duas leituras.")
    mudadas = [r for r in revisadas if r.get("revisado")]
    saida.append(
        f"A revisão mudou {plural(len(mudadas), 'veredito', 'vereditos')}; na v1 valiam os vereditos sem "
        "revisão. "
        f"A v1 não tinha a métrica de propostas e pesava {_pesos_v1()}."
    )
    return saida


def _pesos_v1() -> str:
    """The v1 base weights in words, e.g. "veracidade 40, …, clareza 10 e respeito 5"."""
    itens = [
        f"{formulas.NOMES_METRICAS[m].lower()} {_inteiro_ou_decimal(p)}"
        for m, p in formulas.PESOS_BASE[formulas.METODO_V1].items()
    ]
    return ", ".join(itens[:-1]) + " e " + itens[-1]


def _inteiro_ou_decimal(valor: float) -> str:
    return str(int(valor)) if float(valor).is_integer() else _numero(valor)


def _transcricao(t: Mapping[str, Any]) -> str:
    """What the page says about the turn's transcript (empty when it was trusted as is)."""
    situacao = t.get("transcricao", "")
    if situacao == EM_REVISAO:
        return (
            "Transcrição em revisão: o reconhecimento de fala teve pouca certeza neste trecho, então a "
            "resposta não recebe nota nem checagem até o editor conferir o texto."
        )
    if situacao == CORRIGIDA:
        return "Transcrição corrigida pelo editor: a nota e as checagens usam o texto corrigido."
    if situacao == CONFIRMADA:
        return "Transcrição conferida pelo editor."
    return ""


ITEM_EM_REVISAO = (
    "Em revisão: o reconhecimento de fala teve pouca certeza nas palavras deste trecho ({motivos}); "
    "não conta na nota até o editor conferir a transcrição."
)


def item_em_revisao(motivos: Sequence[str]) -> str:
    """What the page says about a held item (empty when it counts)."""
    return ITEM_EM_REVISAO.format(motivos="; ".join(motivos)) if motivos else ""


def _retidos(itens: Mapping[str, Any]) -> dict[str, list[str]]:
    return {str(i["id"]): [str(m) for m in i.get("motivos", [])] for i in itens.get("itens", [])}


def _turnos(
    turnos: Mapping[str, Any],
    avaliacao: Mapping[str, Any],
    entrada: formulas.EntradaPlacar,
    retidos: Mapping[str, list[str]],
) -> dict[str, dict[str, Any]]:
    avaliacoes = {k: v["avaliacao"] for k, v in avaliacao.get("turnos", {}).items()}
    linhas = {t.id: t for t in entrada.turnos}
    saida = {}
    for t in turnos["turnos"]:
        linha = linhas.get(t["id"])
        a = avaliacoes.get(t["id"]) or {}
        tid = t["id"]
        saida[t["id"]] = {
            "peso_s": formulas.peso_turno(t["duracao_s"]),
            "nota_resposta": formulas.nota_resposta(linha) if linha is not None and linha.pergunta else None,
            "pontos_propostas": [
                formulas.PONTOS_ITEM_PROPOSTA * p.get("itens", 0) for p in a.get("propostas", [])
            ],
            "avaliado_por": rotulo_backend(str(a["avaliador"])) if a.get("avaliador") else "",
            "em_revisao": t.get("transcricao") == EM_REVISAO,
            "transcricao": _transcricao(t),
            "propostas_em_revisao": [
                item_em_revisao(retidos.get(f"{tid}-p{i}", []))
                for i in range(1, len(a.get("propostas", [])) + 1)
            ],
            "ataque_em_revisao": item_em_revisao(retidos.get(f"{tid}-ataque", [])),
            "pergunta_em_revisao": item_em_revisao(retidos.get(f"{tid}-pergunta", [])),
        }
    return saida


def _checagens(revisadas: Mapping[str, Any]) -> dict[str, str]:
    """Who produced each check, in the reader's words."""
    saida = {}
    for r in revisadas["checagens"]:
        if r.get("metodo") == "memoria":
            saida[r["id"]] = "Veredito publicado pela redação, reaproveitado"
        else:
            saida[r["id"]] = (
                f"Checagem automática: afirmação separada por {rotulo_backend(r.get('extraida_por', ''))}; "
                "veredito pela comparação com as fontes"
            )
    return saida


def _modelos(avaliacao: Mapping[str, Any], revisadas: Mapping[str, Any]) -> list[str]:
    """The language models (by name) that produced a score or a check of the debate; [] for rules only."""
    nomes = {str(v["avaliacao"].get("avaliador", "")) for v in avaliacao.get("turnos", {}).values()}
    nomes |= {str(r.get("extraida_por", "")) for r in revisadas["checagens"]}
    return sorted(n.removeprefix(PREFIXO_LLM) for n in nomes if gerado_por_ia(n))


def _com_classificador(revisadas: Mapping[str, Any]) -> bool:
    """Whether the learned check-worthiness classifier picked any of the debate's checked claims."""
    return any(
        str(r.get("extraida_por", "")).startswith(PREFIXO_CLASSIFICADOR) for r in revisadas["checagens"]
    )


def produzido_por(avaliacao: Mapping[str, Any], revisadas: Mapping[str, Any]) -> str:
    """Who produced the scores and checks, in a few words (the share card's footer, the listing)."""
    modelos = _modelos(avaliacao, revisadas)
    if modelos:
        return f"notas e checagens geradas por IA (modelo {', '.join(modelos)})"
    if _com_classificador(revisadas):
        return "notas por análise automática por regras; afirmações escolhidas por classificador treinado"
    return "notas e checagens por análise automática por regras"


def aviso(avaliacao: Mapping[str, Any], revisadas: Mapping[str, Any]) -> str:
    """The notice at the top of the page: AI is named only when a language model produced something."""
    modelos = _modelos(avaliacao, revisadas)
    if modelos:
        return (
            f"A transcrição é automática, e há notas e checagens deste debate geradas por IA (modelo "
            f"{', '.join(modelos)}): podem conter erros. Cada nota e cada checagem diz quem a produziu, e "
            "cada veredito mostra as fontes para você conferir."
        )
    return (
        "A transcrição é automática, e as notas e checagens deste debate vêm de análise automática por "
        "regras, que lê palavras e números, não o sentido: podem conter erros. Cada veredito mostra as "
        "fontes para você conferir."
    )


def em_revisao(placar: Mapping[str, Any]) -> str:
    """How many turns and items wait for the editor's reading of their transcript (empty when none)."""
    frases = []
    n = int(placar.get("turnos_em_revisao") or 0)
    if n:
        verbo = "aguarda" if n == 1 else "aguardam"
        frases.append(
            f"{plural(n, 'turno', 'turnos')} {verbo} a revisão da transcrição pelo editor e ainda não "
            f"{'conta' if n == 1 else 'contam'} na nota."
        )
    k = int(placar.get("itens_em_revisao") or 0)
    if k:
        frases.append(
            f"{plural(k, 'item avaliado', 'itens avaliados')} (propostas, afirmações, ataques ou perguntas) "
            f"{'saiu' if k == 1 else 'saíram'} de palavras ouvidas com pouca certeza e "
            f"{'fica' if k == 1 else 'ficam'} fora da nota até o editor conferir."
        )
    return " ".join(frases)


def calcular(
    placar: Mapping[str, Any],
    placar_v1: Mapping[str, Any] | None,
    entrada: formulas.EntradaPlacar,
    turnos: Mapping[str, Any],
    avaliacao: Mapping[str, Any],
    revisadas: Mapping[str, Any],
    itens: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The page data of one debate from its stages as stored: `placar.json`, `placar-v1.json` (None
    for debates from 18 Oct 2026 on), the parsed `placar-entrada.json`, `turnos.json`,
    `avaliacao.json`, `checagens-revisadas.json` and `itens-em-revisao.json`."""
    retidos = _retidos(itens or {})
    nomes = {c["id"]: c["nome"] for c in placar.get("candidatos", [])}
    leituras = [(formulas.METODO_V2, placar)]
    if placar_v1 is not None:
        leituras.append((formulas.METODO_V1, placar_v1))
    return {
        "leituras": [
            {"metodo": metodo, "manchete": manchete(dados, nomes), "colunas": colunas(metodo)}
            for metodo, dados in leituras
        ],
        "mudancas": mudancas(placar, placar_v1, revisadas["checagens"], nomes)
        if placar_v1 is not None
        else [],
        "turnos": _turnos(turnos, avaliacao, entrada, retidos),
        "pontos_item_proposta": formulas.PONTOS_ITEM_PROPOSTA,
        "checagens": _checagens(revisadas),
        "checagens_em_revisao": {
            r["id"]: item_em_revisao(retidos[r["id"]]) for r in revisadas["checagens"] if r["id"] in retidos
        },
        "vereditos": {v.codigo: v.rotulo for v in VEREDITOS.values()},
        "aviso": aviso(avaliacao, revisadas),
        "produzido_por": produzido_por(avaliacao, revisadas),
        "em_revisao": em_revisao(placar),
    }
