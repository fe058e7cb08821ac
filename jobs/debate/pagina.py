"""Stage 8: what a debate page shows that the engine computes (`pagina.json`).

The site builder reads this file and only formats it: it imports no job, so every formula, band
and label of the method reaches the page through here. Pure: the stored stages (as JSON-ready
dicts) go in, a JSON-ready dict comes out.

- `leituras`: the readings the page shows (v2, plus v1 for debates before 18 Oct 2026), each with
  its headline and its scoreboard columns (metric names and base weights, in page order);
- `mudancas`: what changed between the two readings, in plain words (v1 debates only);
- `turnos`: per turn, its weight in seconds, its direct-answer score (None without a question)
  and the points of each proposal (the evasion band is stored with the evaluation);
- `vereditos`: the label readers see for each verdict code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jobs.debate import placar as formulas
from site_builder.br_format import decimal
from site_builder.conteudo.vereditos import VEREDITOS


def _numero(valor: float) -> str:
    return decimal(valor, 1)


def manchete(placar: Mapping[str, Any], nomes: Mapping[str, str]) -> str:
    """The scoreboard headline: who leads, a technical tie, or why nobody leads yet."""
    m = placar.get("manchete", {})
    candidatos = [c for c in placar.get("candidatos", []) if c.get("nota") is not None]
    if m.get("lider"):
        lider = next(c for c in candidatos if c["id"] == m["lider"])
        return (
            f"{nomes.get(lider['id'], lider['nome'])} lidera o placar com {_numero(lider['nota'])} pontos, "
            f"{_numero(m['diferenca'])} à frente (o empate técnico vai até {_numero(m['limiar'])})."
        )
    if m.get("empate_tecnico"):
        a, b = candidatos[0], candidatos[1]
        return (
            f"Empate técnico entre {a['nome']} e {b['nome']}: "
            f"diferença de {_numero(m['diferenca'])} ponto(s), "
            f"menor que o limite de {_numero(m['limiar'])}."
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
            f"({sentido}{'' if delta == 0 else ' ' + _numero(abs(delta)) + ' ponto(s)'}); "
            f"{a.get('turnos_avaliados', 0)} falas avaliadas uma a uma na v1, "
            f"{c.get('turnos_avaliados', 0)} turnos agora."
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
        f"A revisão mudou {len(mudadas)} veredito(s); na v1 valiam os vereditos sem revisão. "
        "A v1 não tinha a métrica de propostas e pesava veracidade 40, respostas diretas 25, substância 20, "
        "clareza 10 e respeito 5."
    )
    return saida


def _turnos(
    turnos: Mapping[str, Any], avaliacao: Mapping[str, Any], entrada: formulas.EntradaPlacar
) -> dict[str, dict[str, Any]]:
    avaliacoes = {k: v["avaliacao"] for k, v in avaliacao.get("turnos", {}).items()}
    linhas = {t.id: t for t in entrada.turnos}
    saida = {}
    for t in turnos["turnos"]:
        linha = linhas.get(t["id"])
        saida[t["id"]] = {
            "peso_s": formulas.peso_turno(t["duracao_s"]),
            "nota_resposta": formulas.nota_resposta(linha) if linha is not None and linha.pergunta else None,
            "pontos_propostas": [
                formulas.PONTOS_ITEM_PROPOSTA * p.get("itens", 0)
                for p in (avaliacoes.get(t["id"]) or {}).get("propostas", [])
            ],
        }
    return saida


def calcular(
    placar: Mapping[str, Any],
    placar_v1: Mapping[str, Any] | None,
    entrada: formulas.EntradaPlacar,
    turnos: Mapping[str, Any],
    avaliacao: Mapping[str, Any],
    revisadas: Mapping[str, Any],
) -> dict[str, Any]:
    """The page data of one debate from its stages as stored: `placar.json`, `placar-v1.json` (None
    for debates from 18 Oct 2026 on), the parsed `placar-entrada.json`, `turnos.json`,
    `avaliacao.json` and `checagens-revisadas.json`."""
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
        "turnos": _turnos(turnos, avaliacao, entrada),
        "vereditos": {v.codigo: v.rotulo for v in VEREDITOS.values()},
    }
