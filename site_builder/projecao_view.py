"""What the projection pages show, built from the records (pure: no file is read here).

Every number comes formatted the Brazilian way (`br_format`) next to its raw value from
`saida.json` (`*_valor`, emitted as `data-valor` so a test can compare the page with the file).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from site_builder import ao_vivo, br_format, cores, share_image, svg_chart
from site_builder.overtake import what_it_takes
from site_builder.projecao_dados import (
    SECTION_URL,
    CandidatoProjetado,
    CandidatoResumo,
    Captura,
    Corrida,
    Criterio,
    Estrato,
    Leitura,
    Resumo,
)

if TYPE_CHECKING:
    from site_builder.records import SiteContext

METHOD_URL = "/metodologia/projecao/"
HISTORY_ON_PAGE = 10
SHARE_LINES = 3  # candidates on the share image
COLOURS = ("#0b4f9c", "#a33b00")  # leading candidates without a candidate file (>= 4.5:1 on white)
AVISO = (
    "Esta projeção é independente, feita por este site só com os arquivos oficiais de apuração do TSE. "
    "Ela não é o resultado oficial: o resultado que vale é o divulgado pelo TSE."
)
CONFIANCA = {
    "baixa": ("baixa", "menos de 25% do eleitorado apurado"),
    "media": ("média", "entre 25% e 70% do eleitorado apurado"),
    "alta": ("alta", "mais de 70% do eleitorado apurado"),
}
BASES = {
    "parcial": "contado",
    "1turno_swing": "1º turno + swing",
    "taxa_agregada": "taxa agregada",
    "nenhuma": "sem estimativa (eleitorado desconhecido)",
}
# Plain Portuguese for each publication criterion (ids from model/criteria.py); `{valor}` and
# `{limite}` are filled with the measured value and the threshold, already formatted.
CRITERIOS = {
    "eleitorado_apurado": "Ainda há pouco eleitorado apurado: {valor}, e o mínimo para projetar é {limite}.",
    "partes_com_votos": "Poucas partes têm algum voto totalizado: {valor}, e o mínimo é {limite}.",
    "eleitorado_sem_arquivo_valido": (
        "Falta arquivo válido do TSE para parte do eleitorado: {valor}, e o máximo aceito é {limite}."
    ),
    "eleitorado_sem_base": (
        "Eleitorado demais seria projetado sem a base do 1º turno: {valor}, e o máximo é {limite}."
    ),
    "eleitorado_leitura_preservada": (
        "O TSE não respondeu para algumas partes e foi usada a leitura anterior: {valor} do eleitorado, "
        "e o máximo aceito é {limite}."
    ),
    "diferenca_horario": (
        "Os arquivos ainda em apuração têm horários muito distantes entre si: {valor}, e o máximo é {limite}."
    ),
    "idade_arquivo_referencia": (
        "O arquivo de referência do TSE está desatualizado: {valor}, e o máximo é {limite}."
    ),
}


@dataclass(frozen=True)
class Numero:
    """A number as shown (`texto`) and as stored in `saida.json` (`valor`)."""

    texto: str
    valor: str  # repr of the stored value, for data-valor


def _pct(value: float) -> Numero:
    return Numero(br_format.pct(value), repr(value))


def _int(value: int) -> Numero:
    return Numero(br_format.inteiro(value), repr(value))


def _compact(value: float) -> str:
    """`0` -> `0`, `10.0` -> `10`, `1.57` -> `1,57`: thresholds read better without trailing zeros."""
    return str(int(value)) if value == int(value) else br_format.decimal(value)


def _measure(value: float | None, unidade: str) -> str:
    if value is None:
        return "valor desconhecido"
    if unidade.startswith("%"):
        return f"{_compact(value)}%{unidade[1:]}"
    return f"{_compact(value)} {unidade}".strip()


def _invalid_files_text(c: Criterio) -> str:
    """Criterion 1 unmet: how many files were refused or inconsistent, each named with its reason
    (the model's note: `arquivo recusado: motivo`)."""
    n = int(c.valor) if c.valor is not None else None
    if n is None:
        text = (
            "Não foi possível conferir se os arquivos do TSE são válidos e consistentes "
            "(o limite é nenhum inválido)."
        )
    elif n == 1:
        text = "1 arquivo do TSE foi recusado ou está inconsistente, e o limite é nenhum."
    else:
        text = (
            f"{br_format.inteiro(n)} arquivos do TSE foram recusados ou estão inconsistentes, "
            "e o limite é nenhum."
        )
    return f"{text} Quais e por quê: {c.nota}." if c.nota else text


def criterion_text(c: Criterio) -> str:
    """One unmet criterion in plain Portuguese, with the measured value, the limit and the note."""
    if c.id == "arquivos_validos":
        return _invalid_files_text(c)
    template = CRITERIOS.get(c.id)
    valor, limite = _measure(c.valor, c.unidade), _measure(c.limite, c.unidade)
    text = template.format(valor=valor, limite=limite) if template else f"{c.descricao} (medido: {valor})."
    return f"{text} Detalhe: {c.nota}." if c.nota else text


def unmet(leitura: Leitura) -> list[str]:
    """The unmet criteria of a reading, in plain Portuguese, in the model's order."""
    by_id = {c.id: c for c in leitura.criterios}
    texts = []
    for cid in leitura.nao_atendidos:
        c = by_id.get(cid)
        texts.append(criterion_text(c) if c else f"Critério não atendido: {cid}.")
    return texts


def _candidate(c: CandidatoProjetado, colour: dict[str, str]) -> dict[str, Any]:
    return {
        "numero": c.numero,
        "nome": c.nome,
        "cor": colour.get(c.nome),  # only candidates with a candidate file have a colour
        "pct": _pct(c.pct),
        "faixa": Numero("±" + br_format.pontos(c.faixa), repr(c.faixa)),
        "minimo": _pct(c.intervalo[0]),
        "maximo": _pct(c.intervalo[1]),
        "sem_correcao": _pct(c.sem_correcao),
        "votos_projetados": _int(c.votos_projetados),
        "votos": _int(c.votos),
        "parcial_pct": _pct(c.parcial_pct),
    }


def _name(leitura: Leitura, numero: int | None) -> str:
    found = leitura.candidato(numero) if numero is not None else None
    return found.nome if found else f"candidato {numero}"


def _when(ctx: SiteContext, captura: Captura) -> dict[str, str]:
    fuso = ctx.config.fuso_horario
    return {
        "texto": br_format.data_hora(captura.hora, fuso),
        "hora": br_format.hora(captura.hora, fuso),
        "hora_minuto": br_format.hora(captura.hora, fuso)[:5],
        "iso": br_format.iso_utc(captura.hora),
        "captura": captura.nome,
    }


def correction_text(leitura: Leitura) -> str | None:
    """The drift correction line: its size, or that the live check dropped it (model's
    `verificacao_deriva`)."""
    correcao = None
    if leitura.correcao_pp and leitura.correcao_candidato is not None:
        alvo = leitura.candidato(leitura.correcao_candidato)
        if alvo is not None:
            correcao = (
                "Inclui a correção da deriva das urnas tardias: "
                f"{br_format.com_sinal(leitura.correcao_pp)} ponto para {alvo.nome}. "
                f"Sem a correção, {alvo.nome} teria {br_format.pct(alvo.sem_correcao)}."
            )
    if leitura.deriva_fora:  # the model's live drift check dropped the correction
        faixa = leitura.deriva_faixa
        tolerada = (
            f" (tolerada: de {br_format.decimal(faixa[0])} a {br_format.decimal(faixa[1])})" if faixa else ""
        )
        razao = (
            f", {br_format.decimal(leitura.deriva_razao)} vezes a prevista{tolerada}"
            if leitura.deriva_razao is not None
            else ""
        )
        correcao = (
            "Sem a correção da deriva: a deriva observada nas UFs já totalizadas saiu da faixa tolerada"
            f"{razao}; a projeção usa a faixa de erro sem correção."
        )
    return correcao


def error_block(leitura: Leitura) -> dict[str, Any]:
    """The error figures this race type was tested for, and only those (issue 23, item 4).

    `tipo` picks the wording: "testes" (president: band, mean error and the national partial's
    error measured in the replays), "metade_da_faixa_medida" (president without the correction:
    measured band, expected error = half of it), "metodo_original" (governors: the seed's band,
    never measured here, so no test figure at all), "emprestada" (president by municipality: the
    by-UF count's figures, measured for that count only), "desconhecida" (an output older than the
    model's `erro_medio_esperado.fonte`: no figure is claimed as tested).
    """
    projecao = Numero("±" + br_format.pontos(leitura.erro_projecao), repr(leitura.erro_projecao))
    parcial = Numero("±" + br_format.pontos(leitura.erro_parcial), repr(leitura.erro_parcial))
    if leitura.fonte_faixa == "backtest" and leitura.fonte_erro_projecao == "testes":
        tipo = "testes"
    elif leitura.fonte_faixa == "backtest" and leitura.fonte_erro_projecao == "metade_da_faixa":
        tipo = "metade_da_faixa_medida"
    elif leitura.fonte_faixa == "metodo_original":
        tipo = "metodo_original"
    elif leitura.fonte_faixa == "emprestada_da_conta_por_uf":
        tipo = "emprestada"
    else:
        tipo = "desconhecida"
    return {
        "tipo": tipo,
        "projecao": projecao,
        # The partial's curve was measured on the national president partial only.
        "parcial": parcial if leitura.fonte_erro_parcial is not None and tipo != "metodo_original" else None,
    }


def projection_block(ctx: SiteContext, leitura: Leitura, captura: Captura) -> dict[str, Any]:
    """The projection of one publishable reading as the page shows it."""
    ranked = sorted(leitura.candidatos, key=lambda c: (-c.pct, c.numero))
    shown = ranked if len(ranked) <= 4 else ranked[:4]
    margem = abs(leitura.margem) if leitura.margem is not None else 0.0
    rotulo, faixa_confianca = CONFIANCA.get(leitura.confianca, (leitura.confianca, ""))
    correcao = correction_text(leitura)
    outros = len(ranked) - len(shown)
    return {
        "quando": _when(ctx, captura),
        "apurado": _pct(leitura.apurado_pct),
        "candidatos": [_candidate(c, cores.colour_by_name(ctx.candidatos.values())) for c in shown],
        "outros": outros,
        "tendencia_nome": _name(leitura, leitura.tendencia) if leitura.tendencia is not None else None,
        "tendencia_numero": leitura.tendencia,
        "margem": Numero(br_format.pontos(margem), repr(margem)),
        "faixa_margem": Numero(br_format.decimal(leitura.faixa_margem), repr(leitura.faixa_margem)),
        "definido": leitura.definido_matematicamente,
        "definido_nome": _name(leitura, max(leitura.candidatos, key=lambda c: c.votos).numero)
        if leitura.candidatos
        else "",
        "confianca": rotulo,
        "confianca_faixa": faixa_confianca,
        "erro": error_block(leitura),
        "correcao": correcao,
        "degradado": leitura.degradado,
        # The municipal president mode borrows the UF mode's band: not calibrated on the same nights.
        "sem_calibracao_propria": leitura.modo.startswith("presidente_municipio"),
    }


def partial_block(leitura: Leitura, colour: dict[str, str]) -> dict[str, Any]:
    """The official partial (the TSE's own numbers) of one reading."""
    ranked = sorted(leitura.candidatos, key=lambda c: (-c.votos, c.numero))
    apurado = None
    if leitura.parcial_eleitorado and leitura.parcial_totalizado is not None:
        apurado = _pct(round(100.0 * leitura.parcial_totalizado / leitura.parcial_eleitorado, 4))
    fonte = leitura.parcial_fonte
    return {
        "candidatos": [_candidate(c, colour) for c in ranked],
        "validos": _int(leitura.parcial_validos),
        "apurado": apurado,
        "fonte": (f"arquivo {fonte} do TSE" if fonte.endswith(".json") else fonte or "arquivos do TSE"),
    }


def overtake_block(leitura: Leitura) -> dict[str, Any] | None:
    """'What it takes' for the reading's trailing candidate (see `overtake`)."""
    result = what_it_takes(leitura.votos_por_estrato())
    if result is None:
        return None
    lider, segundo = _name(leitura, result.lider), _name(leitura, result.segundo)
    block: dict[str, Any] = {
        "lider": lider,
        "segundo": segundo,
        "vantagem": _int(result.vantagem),
        "restantes": _int(result.restantes),
        "necessario": None,
        "esperado": None,
        "possivel": result.possivel,
        "outros": result.outros_pct > 0,
        "outros_pct": br_format.pct(result.outros_pct),
    }
    if result.necessario_pct is not None and result.esperado_pct is not None:
        block["necessario"] = Numero(br_format.pct(result.necessario_pct), repr(result.necessario_pct))
        block["esperado"] = Numero(br_format.pct(result.esperado_pct), repr(result.esperado_pct))
        block["alcanca"] = result.esperado_pct > result.necessario_pct
    return block


def _part_name(corrida: Corrida, estrato: Estrato) -> str:
    if corrida.cargo == "presidente":
        return "Exterior" if estrato.id == "zz" else estrato.id.upper()
    if "-z" in estrato.id and estrato.id[-4:].isdigit():
        return f"Zona {int(estrato.id[-4:])}"
    if estrato.id in corrida.municipios:
        return corrida.municipios[estrato.id]
    return (
        estrato.id.upper()
        if len(estrato.id) == 2
        else f"Município {estrato.id[2:]} ({estrato.id[:2].upper()})"
    )


def strata_rows(corrida: Corrida, leitura: Leitura, com_modelo: bool) -> list[dict[str, Any]]:
    """The table of parts. Without the model (not publishable) only counted shares are shown."""
    top = [c.numero for c in leitura.principais()]
    rows = []
    # Where the votes still to count are comes first (ties: by part id, the model's order).
    for e in sorted(leitura.estratos, key=lambda e: -e.restantes):
        projected = dict(e.projetados)
        total = sum(projected.values())
        counted = e.base == "parcial" and e.validos > 0
        shares = [
            _pct(round(100.0 * projected.get(n, 0) / total, 4)) if total and (counted or com_modelo) else None
            for n in top
        ]
        apurado = _pct(round(100.0 * e.eleitorado_totalizado / e.eleitorado, 4)) if e.eleitorado else None
        situacao = []
        if not e.valido:
            situacao.append(f"sem leitura válida: {e.motivo or 'motivo não informado'}")
        if e.preservado:
            situacao.append("o TSE não respondeu; usada a leitura anterior")
        if com_modelo or counted:
            situacao.append(BASES.get(e.base, e.base) if com_modelo else BASES["parcial"])
        rows.append(
            {
                "parte": _part_name(corrida, e),
                "arquivo": e.arquivo or "",
                "secoes": _pct(e.secoes_pct) if e.secoes_pct is not None else None,
                "apurado": apurado,
                "parcelas": shares,
                "restantes": _int(e.restantes) if com_modelo else None,
                "situacao": "; ".join(situacao),
            }
        )
    return rows


def _series(
    corrida: Corrida, top: list[int], com_projecao: bool, colour: dict[str, str]
) -> list[svg_chart.Serie]:
    series = []
    for numero, default in zip(top, COLOURS, strict=False):
        # the candidate file's colour, as on every other page; the chart's own for TSE-only names
        cor = colour.get(_name(corrida.atual, numero), default)
        pontos = []
        for captura in corrida.capturas:
            r = captura.resumo
            c = _summary_candidate(r, numero)
            if c is None:
                continue
            pub = r.publicavel and com_projecao
            pontos.append(
                svg_chart.Ponto(
                    r.apurado_pct,
                    c.parcial_pct,
                    c.pct if pub else None,
                    c.faixa_min if pub else None,
                    c.faixa_max if pub else None,
                )
            )
        if pontos:
            series.append(svg_chart.Serie(_name(corrida.atual, numero), cor, tuple(pontos)))
    return series


def _summary_candidate(r: Resumo, numero: int) -> CandidatoResumo | None:
    return next((c for c in r.candidatos if c.numero == numero), None)


def _chart_description(corrida: Corrida, series: list[svg_chart.Serie]) -> str:
    frases = []
    for s in series:
        text = f"{s.nome}: parcial {br_format.pct(s.pontos[-1].parcial)}"
        published = [p for p in s.pontos if p.projecao is not None]
        if published:
            p = published[-1]
            text += (
                f"; última projeção publicável {br_format.pct(p.projecao or 0.0)} (faixa de "
                f"{br_format.pct(p.faixa_min or 0.0)} a {br_format.pct(p.faixa_max or 0.0)}) com "
                f"{br_format.pct(p.apurado)} apurado"
            )
        frases.append(text)
    return (
        f"{len(corrida.capturas)} leituras. Eixo horizontal: porcentagem do eleitorado apurado; "
        "eixo vertical: porcentagem dos votos válidos. Linha contínua com faixa sombreada: projeção, "
        "só nas leituras publicáveis; linha tracejada: parcial oficial. " + ". ".join(frases) + "."
    )


def chart_block(ctx: SiteContext, corrida: Corrida, *, com_projecao: bool) -> dict[str, Any]:
    """The inline SVG chart, its text description and its data as a table.

    With `com_projecao` (some reading of the night was publishable) the projection and its band are
    drawn at every publishable reading, also when the latest one is not (issue 21: the chart keeps
    what readers knew); without it only the official partial is drawn.
    """
    top = [c.numero for c in corrida.atual.principais()]
    series = _series(corrida, top, com_projecao, cores.colour_by_name(ctx.candidatos.values()))
    descricao = _chart_description(corrida, series)
    svg = svg_chart.chart_svg(
        series,
        ident=f"grafico-{corrida.id}",
        titulo=(
            f"Projeção (leituras publicáveis) e parcial ao longo da apuração: {corrida.titulo}"
            if com_projecao
            else f"Parcial oficial ao longo da apuração: {corrida.titulo}"
        ),
        descricao=descricao,
    )
    fuso = ctx.config.fuso_horario
    linhas = []
    for captura in corrida.capturas:
        r = captura.resumo
        cells: list[tuple[str, str | None]] = []
        for numero in top[: len(series)]:
            c = _summary_candidate(r, numero)
            if c is None:
                cells.append(("—", "—"))
                continue
            proj = (
                f"{br_format.pct(c.pct)} ({br_format.pct(c.faixa_min)} a {br_format.pct(c.faixa_max)})"
                if r.publicavel
                else "não publicável"
            )
            cells.append((br_format.pct(c.parcial_pct), proj if com_projecao else None))
        linhas.append(
            {
                "hora": br_format.hora(captura.hora, fuso),
                "apurado": br_format.pct(r.apurado_pct),
                "celulas": cells,
            }
        )
    return {
        "svg": svg,
        "descricao": descricao,
        "nomes": [s.nome for s in series],
        "linhas": linhas,
        "com_projecao": com_projecao,
    }


def history_rows(ctx: SiteContext, corrida: Corrida, limit: int | None = None) -> list[dict[str, Any]]:
    """Stored readings, newest first."""
    capturas = list(reversed(corrida.capturas))
    if limit is not None:
        capturas = capturas[:limit]
    return [
        {
            "url": corrida.captura_url(c),
            "quando": _when(ctx, c),
            "apurado": br_format.pct(c.resumo.apurado_pct),
            "publicavel": c.resumo.publicavel,
            "projecao": _summary_projection(corrida, c.resumo) if c.resumo.publicavel else "",
            "faltou": list(c.resumo.faltou),
        }
        for c in capturas
    ]


def _summary_projection(corrida: Corrida, r: Resumo) -> str:
    """'Helena Prado 52,10% (50,20% a 54,00%) · Rui Amaral ...': one reading's projection in words."""
    ranked = sorted(r.candidatos, key=lambda c: (-c.pct, c.numero))[:2]
    return " · ".join(
        f"{_name(corrida.atual, c.numero)} {br_format.pct(c.pct)} "
        f"({br_format.pct(c.faixa_min)} a {br_format.pct(c.faixa_max)})"
        for c in ranked
    )


def last_publishable(ctx: SiteContext, corrida: Corrida) -> dict[str, Any] | None:
    """The last publishable projection when the latest reading is not publishable (issue 21, item 3).

    Seed: when a criterion fails, the current reading shows only the official partial and what
    failed. What readers last knew stays visible beside it, as a different, labelled thing: the
    last publishable reading's projection with its time ("última projeção publicável, 21:04").
    """
    captura, leitura = corrida.publicavel_captura, corrida.publicavel
    if corrida.atual.publicavel or captura is None or leitura is None:
        return None
    quando = _when(ctx, captura)
    return {
        "quando": quando,
        "rotulo": f"última projeção publicável, {quando['hora_minuto']}",
        "url": corrida.captura_url(captura),
        "projecao": projection_block(ctx, leitura, captura),
    }


def verdict(leitura: Leitura) -> dict[str, Any]:
    """The verdict line of a publishable projection: "Tendência: X", "Indefinido", and
    "Definido matematicamente" beside either (seed: two separate criteria)."""
    tendencia = _name(leitura, leitura.tendencia) if leitura.tendencia is not None else None
    definido = None
    if leitura.definido_matematicamente and leitura.candidatos:
        definido = _name(leitura, max(leitura.candidatos, key=lambda c: c.votos).numero)
    return {
        "tendencia": tendencia,
        "valor": str(leitura.tendencia) if leitura.tendencia is not None else "indefinido",
        "definido": definido,
    }


def summary_block(ctx: SiteContext, corrida: Corrida, ultima: dict[str, Any] | None) -> dict[str, Any]:
    """The race's first screen on a phone (issue 21, item 4): the two leading candidates' partial
    and projected shares (or the last publishable projection, labelled) and the verdict line.
    `ultima`: the race's `last_publishable` block, computed once by the page."""
    atual = corrida.atual
    projetada = atual if atual.publicavel else corrida.publicavel
    colour = cores.colour_by_name(ctx.candidatos.values())
    if projetada is not None:
        top = sorted(projetada.candidatos, key=lambda c: (-c.pct, c.numero))[:2]
    else:
        top = sorted(atual.candidatos, key=lambda c: (-c.votos, c.numero))[:2]
    linhas = []
    for c in top:
        agora = atual.candidato(c.numero)
        linhas.append(
            {
                "numero": c.numero,
                "nome": agora.nome if agora else c.nome,
                "cor": colour.get(agora.nome if agora else c.nome),
                "parcial": _pct(agora.parcial_pct) if agora else None,
                "pct": _pct(c.pct) if projetada is not None else None,
                "faixa": Numero("±" + br_format.pontos(c.faixa), repr(c.faixa))
                if projetada is not None
                else None,
            }
        )
    return {
        "apurado": _pct(atual.apurado_pct),
        "quando": _when(ctx, corrida.ultima),
        "publicavel": atual.publicavel,
        "candidatos": linhas,
        "veredito": verdict(projetada) if projetada is not None else None,
        "rotulo": ultima["rotulo"] if ultima else None,
        "rotulo_quando": ultima["quando"] if ultima else None,
        "projecao_apurado": _pct(projetada.apurado_pct) if projetada is not None else None,
        "faltam": len(atual.nao_atendidos),
    }


def warnings_block(corrida: Corrida) -> dict[str, Any]:
    """The page's notices, folded into one short line that opens them (issue 21, item 4)."""
    partes = []
    if corrida.demonstracao:
        partes.append("demonstração")
    if corrida.ultima.sem_assinatura:
        partes.append("sem assinatura conferida")
    partes.append("não é o resultado oficial")
    return {"resumo": " · ".join(partes)}


def race_page(ctx: SiteContext, corrida: Corrida) -> dict[str, Any]:
    """Context of a race's page."""
    atual = corrida.atual
    publicavel = atual.publicavel
    ultima_pub = last_publishable(ctx, corrida)
    # A finished count cannot have advanced behind the page: no "dados atrasados" warning for it
    # however old its files grow (after the night, or the demo's clock running past its end).
    idade = None
    if not atual.apuracao_concluida:
        idade = next((c for c in atual.criterios if c.id == ao_vivo.CRITERIO_IDADE), None)
    titulo = f"Projeção: {corrida.titulo}"
    return {
        "titulo": titulo,
        "descricao": (
            f"Projeção independente do resultado final ({corrida.titulo}) a partir da apuração oficial "
            "do TSE, com faixa de erro, parcial oficial e histórico auditável."
        ),
        "aviso": AVISO,
        "metodo_url": METHOD_URL,
        "corrida": corrida,
        "quando": _when(ctx, corrida.ultima),
        "apurado": _pct(atual.apurado_pct),
        "publicavel": publicavel,
        "projecao": projection_block(ctx, atual, corrida.ultima) if publicavel else None,
        "ultima_publicavel": ultima_pub,
        "nao_atendidos": unmet(atual),
        "degradado": atual.degradado,  # said in the "não publicada" block too (issue 23, item 1)
        "parcial": partial_block(atual, cores.colour_by_name(ctx.candidatos.values())),
        "virada": overtake_block(atual) if publicavel else None,
        "grafico": chart_block(ctx, corrida, com_projecao=corrida.publicavel_captura is not None),
        "resumo": summary_block(ctx, corrida, ultima_pub),
        "avisos": warnings_block(corrida),
        "estratos": strata_rows(corrida, atual, publicavel),
        "estratos_nomes": [c.nome for c in atual.principais()],
        "historico": history_rows(ctx, corrida, HISTORY_ON_PAGE),
        "total_capturas": len(corrida.capturas),
        "outras": [c for c in ctx.projecoes if c.id != corrida.id],
        "modelo": {
            "versao": atual.versao,
            "calibracao": atual.calibracao,
            "sha256": atual.calibracao_sha256,
        },
        "auditoria": audit_commands(ctx, corrida, corrida.ultima, corrida.anterior(corrida.ultima)),
        "imagem_compartilhar": share_url(corrida),
        "ao_vivo": ao_vivo.projection_hooks(
            ctx.config.intervalo_ao_vivo_s,
            corrida.ultima.nome,
            idade.valor if idade else None,
            idade.limite if idade else None,
        ),
    }


def history_page(ctx: SiteContext, corrida: Corrida) -> dict[str, Any]:
    """Context of a race's history (every stored reading)."""
    return {
        "titulo": f"Histórico da projeção: {corrida.titulo}",
        "descricao": (
            f"Cada leitura guardada da apuração ({corrida.titulo}): os arquivos brutos do TSE, "
            "captura.json e saida.json, com o comando que refaz a projeção."
        ),
        "aviso": AVISO,
        "metodo_url": METHOD_URL,
        "corrida": corrida,
        "historico": history_rows(ctx, corrida),
    }


def capture_label(ctx: SiteContext, captura: Captura) -> str:
    """'Leitura das 18:39:46' (Brasília time) for breadcrumbs and titles."""
    return f"Leitura das {br_format.hora(captura.hora, ctx.config.fuso_horario)}"


CODE_DIR = "eleicoes-codigo"  # where the audit commands put the model's code


def audit_commands(
    ctx: SiteContext, corrida: Corrida, captura: Captura, anterior: Captura | None, versao: str = ""
) -> dict[str, str]:
    """The commands that rerun the model on one stored reading, from a fresh machine with only
    this site and the public code repository (Python 3.11+, standard library only). `versao`: the
    model version the reading's `saida.json` records, named when no commit was recorded."""
    cargo = "--cargo presidente" if corrida.cargo == "presidente" else f"--cargo governador --uf {corrida.uf}"
    previous = f"--anterior {anterior.nome}" if anterior else "--anterior nenhum"
    # One line downloads this reading and the previous one (the model compares them), each
    # checked against its SHA256SUMS, from the site's configured address.
    baixar = " && ".join(_download(ctx, corrida, c) for c in (anterior, captura) if c is not None)
    repo = ctx.config.repositorio
    codigo = ""
    if repo:
        codigo = f"git clone -q {repo} {CODE_DIR}"
        if captura.commit:
            codigo += f" && git -C {CODE_DIR} checkout -q {captura.commit}"
    web = repo.removesuffix(".git") if repo.startswith(("https://", "http://")) else ""
    return {
        "repositorio": f"eleicoes auditar {corrida.dados}/{captura.nome}",
        "baixar": baixar,
        "codigo": codigo,
        "codigo_pasta": CODE_DIR,
        "codigo_url": (f"{web}/tree/{captura.commit}" if captura.commit else web) if web else "",
        "repositorio_url": web,
        "commit": captura.commit or "",
        "versao": versao,
        "refazer": (
            f"PYTHONPATH={CODE_DIR} python3 -m model.cli projetar {captura.nome} {cargo} {previous} "
            f"> refeita.json && cmp refeita.json {captura.nome}/saida.json && echo idênticos"
        ),
        "anterior": anterior.nome if anterior else "",
        "anterior_url": corrida.captura_url(anterior) if anterior else "",
    }


def _download(ctx: SiteContext, corrida: Corrida, captura: Captura) -> str:
    url = ctx.config.absolute(corrida.captura_url(captura))
    return (
        f"mkdir {captura.nome} && cd {captura.nome} && curl -sfO {url}SHA256SUMS && "
        f"cut -c67- SHA256SUMS | sed 's|^|{url}|' | xargs curl -sf --remote-name-all && "
        "sha256sum -c --quiet SHA256SUMS && cd .."
    )


def criteria_rows(leitura: Leitura) -> list[dict[str, Any]]:
    """Every publication criterion of a reading, met or not, with what was measured."""
    rows = []
    for c in leitura.criterios:
        medido = f"medido: {_measure(c.valor, c.unidade)}; limite: {_measure(c.limite, c.unidade)}"
        rows.append(
            {
                "id": c.id,
                "ok": c.ok,
                "texto": f"{c.descricao} ({medido})." if c.ok else criterion_text(c),
            }
        )
    return rows


def capture_page(
    ctx: SiteContext,
    corrida: Corrida,
    captura: Captura,
    anterior: Captura | None,
    leitura: Leitura | None = None,
) -> dict[str, Any]:
    """Context of one stored reading's page: its numbers (issue 21, item 5: % counted, projection,
    bands, verdict and every criterion, from its own `saida.json`), its files and how to rerun it.
    Without `leitura` (its output could not be read again) only the summary and the files are shown."""
    label = capture_label(ctx, captura)
    r = captura.resumo
    colour = cores.colour_by_name(ctx.candidatos.values())
    numeros = None
    if leitura is not None:
        numeros = {
            "apurado": _pct(leitura.apurado_pct),
            "projecao": projection_block(ctx, leitura, captura) if leitura.publicavel else None,
            "parcial": partial_block(leitura, colour),
            "criterios": criteria_rows(leitura),
            "nao_atendidos": unmet(leitura),
        }
    return {
        "numeros": numeros,
        "titulo": f"{label}: {corrida.titulo}",
        "descricao": (
            f"Arquivos brutos do TSE, captura.json e saida.json da leitura {captura.nome} "
            f"({corrida.titulo}), com o comando que refaz a projeção."
        ),
        "aviso": AVISO,
        "metodo_url": METHOD_URL,
        "corrida": corrida,
        "captura": captura,
        "quando": _when(ctx, captura),
        "apurado": br_format.pct(r.apurado_pct),
        "publicavel": r.publicavel,
        "nao_atendidos": list(r.faltou),
        "arquivos": [
            {
                "nome": a.nome,
                "url": corrida.captura_url(captura) + a.nome,
                "tamanho": br_format.inteiro(a.tamanho),
                "sha256": a.sha256,
            }
            for a in captura.arquivos
        ],
        "somas_url": corrida.captura_url(captura) + "SHA256SUMS",
        "auditoria": audit_commands(ctx, corrida, captura, anterior, leitura.versao if leitura else ""),
    }


def checksums(captura: Captura) -> bytes:
    """`SHA256SUMS` of a capture (the format `sha256sum -c` reads)."""
    return "".join(f"{a.sha256}  {a.nome}\n" for a in captura.arquivos).encode("utf-8")


def headline(ctx: SiteContext, corrida: Corrida) -> dict[str, Any]:
    """One race in the listings (home page, section page): its headline numbers.

    When the latest reading is not publishable, the trend and numbers of the last publishable
    projection stay, labelled with its time (issue 21), beside the current official partial.
    """
    atual = corrida.atual
    ultima = last_publishable(ctx, corrida)
    if atual.publicavel:
        top = atual.principais()
        texto = "Projeção: " + " · ".join(
            f"{c.nome} {br_format.pct(c.pct)} (±{br_format.pontos(c.faixa)})" for c in top
        )
    else:
        top = tuple(sorted(atual.candidatos, key=lambda c: (-c.votos, c.numero))[:2])
        texto = "Projeção não publicável agora. Parcial oficial: " + " · ".join(
            f"{c.nome} {br_format.pct(c.parcial_pct)}" for c in top
        )
        if ultima is not None and corrida.publicavel is not None:
            texto += f". {ultima['rotulo'].capitalize()}: " + " · ".join(
                f"{c.nome} {br_format.pct(c.pct)} (±{br_format.pontos(c.faixa)})"
                for c in corrida.publicavel.principais()
            )
    projetada = atual if atual.publicavel else corrida.publicavel
    return {
        "url": corrida.url,
        "titulo": corrida.titulo,
        "texto": texto,
        # the trend only from a publishable reading: this one, or the last one, labelled
        "tendencia": _name(projetada, projetada.tendencia)
        if projetada is not None and projetada.tendencia is not None
        else "indefinido",
        "tendencia_rotulo": f" ({ultima['rotulo']})" if ultima is not None else "",
        "definido": projetada is not None and projetada.definido_matematicamente,
        "publicavel": atual.publicavel,
        "demonstracao": corrida.demonstracao,
        "quando": _when(ctx, corrida.ultima),
        "apurado": br_format.pct(atual.apurado_pct),
        "api_url": corrida.api_url,
        "historico_url": corrida.historico_url,
    }


def share_url(corrida: Corrida) -> str:
    """The race's share image (Open Graph, Twitter card)."""
    return f"{corrida.url}{share_image.FILE_NAME}"


def share_card(ctx: SiteContext, corrida: Corrida) -> share_image.Cartao:
    """What the race's share image shows: the current projection, or the partial when none is published."""
    atual = corrida.atual
    cor = cores.colour_by_name(ctx.candidatos.values())
    quando = _when(ctx, corrida.ultima)
    apurado = br_format.pct(atual.apurado_pct)
    rodape = f"{apurado} apurado · {quando['texto']} (Brasília) · não é o resultado oficial"
    if atual.publicavel:
        top = sorted(atual.candidatos, key=lambda c: (-c.pct, c.numero))[:SHARE_LINES]
        destaque = (
            f"Tendência: {_name(atual, atual.tendencia)}"
            if atual.tendencia is not None
            else "Tendência: indefinido"
        )
        linhas = tuple(
            share_image.Linha(
                c.nome,
                br_format.pct(c.pct),
                f"projeção · faixa de erro ±{br_format.pontos(c.faixa)}",
                cor.get(c.nome, cores.SEM_ARQUIVO),
            )
            for c in top
        )
    else:
        top = sorted(atual.candidatos, key=lambda c: (-c.votos, c.numero))[:SHARE_LINES]
        destaque = "Projeção não publicada nesta leitura: a parcial oficial do TSE"
        anterior = corrida.publicavel
        ultima = last_publishable(ctx, corrida)
        if ultima is not None and anterior is not None:
            # what readers last knew stays on the card, labelled with its time (issue 21)
            tendencia = (
                _name(anterior, anterior.tendencia) if anterior.tendencia is not None else "indefinido"
            )
            destaque = f"Parcial oficial. {ultima['rotulo'].capitalize()}: tendência {tendencia}"

        def nota(c: CandidatoProjetado) -> str:
            antes = anterior.candidato(c.numero) if anterior is not None and ultima is not None else None
            if antes is None:
                return f"parcial oficial · {br_format.inteiro(c.votos)} votos"
            return (
                f"parcial oficial · projeção às {ultima['quando']['hora_minuto'] if ultima else ''}: "
                f"{br_format.pct(antes.pct)} ±{br_format.pontos(antes.faixa)}"
            )

        linhas = tuple(
            share_image.Linha(
                c.nome, br_format.pct(c.parcial_pct), nota(c), cor.get(c.nome, cores.SEM_ARQUIVO)
            )
            for c in top
        )
    return share_image.Cartao(
        ctx.config.titulo, f"Projeção: {corrida.titulo}", destaque, linhas, rodape, corrida.demonstracao
    )


def headlines(ctx: SiteContext) -> list[dict[str, Any]]:
    """Every race's headline, in the site's order."""
    return [headline(ctx, c) for c in ctx.projecoes]


def section_context(ctx: SiteContext) -> dict[str, Any]:
    """Extra context of the section page (`/projecao/`)."""
    return {
        "corridas": headlines(ctx),
        "demonstracao": any(c.demonstracao for c in ctx.projecoes),
        "aviso": AVISO,
        "metodo_url": METHOD_URL,
        "api_indice": "/api/projecao/index.json" if ctx.projecoes else "",
    }


def api_race(ctx: SiteContext, corrida: Corrida, atual: bytes, publicavel: bytes | None) -> bytes:
    """`/api/projecao/<id>.json`: the latest reading's `saida.json` (the model's keys, unchanged)
    plus `ultima_publicavel`: the newest publishable reading (the latest one itself when it is
    publishable; null before any) with its time, its forecast and where its stored bytes are, so a
    reuser keeps what readers last knew when the current reading is not publishable (issue 21)."""
    doc = json.loads(atual)
    captura = corrida.publicavel_captura
    ultima: dict[str, Any] | None = None
    if captura is not None and publicavel is not None:
        saida = json.loads(publicavel)
        ultima = {
            "captura": captura.nome,
            "agora": saida.get("agora"),
            "apurado_pct": saida.get("apurado_pct"),
            "forecast": saida.get("forecast"),
            "pagina": ctx.config.absolute(corrida.captura_url(captura)),
            "saida": ctx.config.absolute(corrida.captura_url(captura) + "saida.json"),
            "saida_sha256": captura.saida_sha256,
        }
    doc["ultima_publicavel"] = ultima
    return (json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode("utf-8")


def _headline_trend(corrida: Corrida) -> int | None:
    """The trend of the projection readers see: the latest publishable one (None = "indefinido")."""
    return corrida.publicavel.tendencia if corrida.publicavel is not None else None


def api_index(ctx: SiteContext) -> bytes:
    """`/api/projecao/index.json`: the races, their latest reading and where to get it."""
    doc = {
        "aviso": AVISO,
        "metodologia": ctx.config.absolute(METHOD_URL),
        "corridas": [
            {
                "id": c.id,
                "titulo": c.titulo,
                "eleicao": c.eleicao,
                "cargo": c.cargo,
                "uf": c.uf or "br",
                "turno": c.atual.turno,
                "captura": c.ultima.nome,
                "agora": c.atual.agora.isoformat() if c.atual.agora else None,
                "apurado_pct": c.atual.apurado_pct,
                "publicavel": c.atual.publicavel,
                "demonstracao": c.demonstracao,
                "saida_sha256": c.ultima.saida_sha256,
                "saida": ctx.config.absolute(c.api_url),
                "pagina": ctx.config.absolute(c.url),
                "historico": ctx.config.absolute(c.historico_url),
                "ultima_publicavel": c.publicavel_captura.nome if c.publicavel_captura else None,
                "tendencia": _headline_trend(c),
            }
            for c in ctx.projecoes
        ],
        "secao": ctx.config.absolute(SECTION_URL),
    }
    return (json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")
