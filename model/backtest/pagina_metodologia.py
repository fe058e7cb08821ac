"""The parts of content/metodologia/projecao.md that quote the calibration, generated from its file.

Four parts are generated: the strata table of "### Passo 1" (every race with a shipped baseline in
`model/baselines/`, plus the DF by zone), "## Faixa de erro" (band table with the expected error the
race page shows, how it was measured, the figures the regional backtest measured, how often the drift
check dropped the correction, which error figures each race type shows, what the seed's earlier
version reported and was not reproduced here), the "Fontes" items on the baselines (each file with
the source it records; the DF has none) and "## Como auditar" (version, calibration id and SHA-256).
Everything comes from the calibration file (`model/calibracao.json`: its tables and its
`backtest.resumo`, written by `eleicoes backtest-regional`), the same run's report docs/BACKTEST.md
(captures per replay group), `model/bands.py` and the baselines, so a new calibration changes the
text; tests/test_metodologia_calibracao.py and tests/test_metodologia_figuras.py fail until the page
is regenerated (`eleicoes backtest-regional --instalar` does it, or `regenerar`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from model import VERSION
from model.bands import FAIXA_MEDIDA, FONTES_ERRO, error_source, expected_error
from model.baselines import BASELINES_DIR, Baseline, load_baselines
from model.calibration import CALIBRATION_PATH, Calibration, Row, parse_calibration
from model.criteria import GOVERNOR_RULES
from model.tse_files import BRASILIA

PAGINA = Path(__file__).resolve().parents[2] / "content" / "metodologia" / "projecao.md"
# The backtest report the calibration was fitted with (same run): the captures each replay group
# scored, which the calibration file does not carry (the drift check's share of captures).
RELATORIO = Path(__file__).resolve().parents[2] / "docs" / "BACKTEST.md"
INICIO_FAIXA, FIM_FAIXA = "## Faixa de erro\n", "## Rótulo de confiança\n"
INICIO_AUDITORIA = "## Como auditar\n"
INICIO_ESTRATOS = "A disputa é separada em partes, que chamamos de estratos.\n\n"
FIM_ESTRATOS = "\n### Passo 2"
# The model cannot import the builder's state names (site_builder/projecao_dados.py UF_NOMES):
# standard library and model/ only, for auditors. The page's wording of each state, with its article.
UF_NOMES = {
    "ac": "do Acre", "al": "de Alagoas", "am": "do Amazonas", "ap": "do Amapá", "ba": "da Bahia",
    "ce": "do Ceará", "es": "do Espírito Santo", "go": "de Goiás", "ma": "do Maranhão",
    "mg": "de Minas Gerais", "ms": "de Mato Grosso do Sul", "mt": "de Mato Grosso", "pa": "do Pará",
    "pb": "da Paraíba", "pe": "de Pernambuco", "pi": "do Piauí", "pr": "do Paraná",
    "rj": "do Rio de Janeiro", "rn": "do Rio Grande do Norte", "ro": "de Rondônia", "rr": "de Roraima",
    "rs": "do Rio Grande do Sul", "sc": "de Santa Catarina", "se": "de Sergipe", "sp": "de São Paulo",
    "to": "do Tocantins",
}  # fmt: skip
# The DF runs by electoral zone and ships no baseline file (its parts come from the TSE's zone file).
ZONAS_DF = 19
ATUALIZADO_EM = re.compile(r"^atualizado_em = .*$", re.MULTILINE)  # a front-matter line
# The seed's (earlier version's) reference calibration, quoted on the page as not reproduced here.
SHA_REFERENCIA_ANTERIOR = "09472377c7a0d3cc5abd2c6058f35b6a03ab45e2419c618007c4c446209b2593"
FAIXAS_PAGINA = ("10-20%", "20-30%", "30-50%", "50-70%", "70-90%", "90-98%", "acima de 98%")
GRUPOS = {
    "2022_2t x0.5": "2º turno de 2022, deriva × 0,5",
    "2022_2t x1": "2º turno de 2022, deriva ajustada à real (× 1)",
    "2022_2t x1.75": "2º turno de 2022, deriva × 1,75",
    "2022_1t": "1º turno de 2022",
    "2026_1t": "1º turno de 2026",
}


def _num(x: float, casas: int = 2) -> str:
    return f"{x:.{casas}f}".replace(".", ",")


def _int(n: int) -> str:
    """`26400` -> `26.400` (the builder's br_format is out of the model's reach)."""
    return f"{n:,d}".replace(",", ".")


# The builder's plural rules (site_builder/br_format.py) are out of the model's reach (standard library
# only, for auditors), so the page's two wordings are spelled here: singular below two.
def _pontos(x: float) -> str:
    return f"{_num(x)} {'ponto' if abs(x) < 2 else 'pontos'}"


def _noites(n: int) -> str:
    return f"{n} {'noite' if n == 1 else 'noites'}"


def _cell(row: Row, sinal: str = "±") -> str:
    if row is None:
        return "não publica"
    a, b = row
    if a == b:
        return f"{sinal}{_num(a)}"
    return f"de {sinal}{_num(a)} a {sinal}{_num(b)}"


def tabela_estratos(bases: dict[str, Baseline]) -> list[str]:
    """The strata table of "### Passo 1": the president, every governor race with a shipped
    baseline (alphabetical by state name, as the page lists them) and the DF by zone."""
    out = ["| Disputa | Como é dividida | Número de partes |", "|---|---|---|"]
    for b in bases.values():
        if b.cargo == "presidente":
            out.append(
                "| Presidente | as 27 unidades da federação (26 estados e o Distrito Federal) e mais o "
                f"exterior, com um arquivo do TSE para cada parte | {len(b.partes)} |"
            )
    governo = [b for b in bases.values() if b.cargo == "governador" and b.nivel == "municipio"]
    for b in sorted(governo, key=lambda b: UF_NOMES[b.uf].split(" ", 1)[1]):
        out.append(f"| Governador {UF_NOMES[b.uf]} | municípios do estado | {len(b.partes)} |")
    out.append(
        f"| Governador do Distrito Federal | zonas eleitorais, já que o DF não tem municípios | {ZONAS_DF} |"
    )
    return out


def _linear(row: tuple[float, float], t: float) -> float:
    return row[0] + (row[1] - row[0]) * t


def cell_erro_esperado(cal: Calibration, i: int) -> str:
    """Row `i` of the president's "erro médio esperado" column: `expected_error` (model/bands.py,
    what `saida.json` and the race page show) at the row's ends. That is the larger of two straight
    lines, so where they cross inside the row the page names the crossing too (the value between
    two named points is read linearly)."""
    e, f = cal.erro_medio_presidente[i], cal.faixas["presidente"][i]
    if e is None or f is None:
        return "não publica"
    lo, hi = cal.limites_pct[i], cal.limites_pct[i + 1]
    inicio = expected_error(cal, "presidente", lo)
    fim = max(e[1], f[1] / 2.0)  # the value at the row's upper end (the next row starts anew)
    d0, d1 = e[0] - f[0] / 2.0, e[1] - f[1] / 2.0
    if round(inicio, 2) == round(fim, 2) and not d0 * d1 < 0:
        return _num(inicio)
    texto = f"de {_num(inicio)} a {_num(fim)}"
    if d0 * d1 < 0:  # the mean error and half the band cross inside the row
        t = d0 / (d0 - d1)
        texto += f", passando por {_num(_linear(e, t))} em {_num(lo + t * (hi - lo), 1)}%"
    return texto


def tabela(cal: Calibration) -> list[str]:
    """The band table (columns checked against the file by tests/test_metodologia_calibracao.py)."""
    out = [
        "| Eleitorado apurado | Presidente (com correção da deriva): faixa | Presidente: erro médio esperado "
        "| Governador (municípios) | DF (zonas) | Governador sem dados municipais (modo degradado) |",
        "|---|---|---|---|---|---|",
    ]
    for i, nome in enumerate(FAIXAS_PAGINA):
        cols = [
            _cell(cal.faixas["presidente"][i]),
            cell_erro_esperado(cal, i),
            _cell(cal.faixas["governador_municipio"][i]),
            _cell(cal.faixas["governador_zona"][i]),
            _cell(cal.faixas["governador_degradado"][i]),
        ]
        out.append(f"| {nome} | " + " | ".join(cols) + " |")
    return out


def _grupos(resumo: dict[str, Any]) -> list[str]:
    out = [
        "| Reprodução | Noites | Pior cobertura da faixa (faixas de 5 pontos, a partir de 10%) | Noites com "
        "tendência errada | Mediana do % apurado em que a tendência certa se firmou |",
        "|---|---|---|---|---|",
    ]
    for g, nome in GRUPOS.items():
        r = resumo["com_verificacao"].get(g)
        if r is None:
            continue
        med = r["mediana_apurado_tendencia_pct"]
        out.append(
            f"| {nome} | {r['noites']} | {_num(r['cobertura_minima_pct'], 1)}% | "
            f"{r['noites_tendencia_errada']} | " + ("nunca" if med is None else f"{_num(med, 1)}%") + " |"
        )
    return out


def _lado(erro: float) -> str:
    return f"{_pontos(abs(erro))} {'abaixo' if erro < 0 else 'acima'}"


def _deriva(cal: Calibration, pontos: Sequence[float]) -> str:
    vals = [cal.deriva_pp[cal.deriva_grade.index(x)] for x in pontos]
    return "; ".join(f"{int(x)}%: {_num(v)}" for x, v in zip(pontos, vals, strict=True))


def capturas_por_grupo(relatorio: str) -> dict[str, int]:
    """The captures each replay group scored ("captures from 10 %"), from the first results table of
    the regional block of docs/BACKTEST.md (the report of the run that fitted the calibration)."""
    try:
        bloco = relatorio.split("### Results under the chosen calibration", 1)[1]
    except IndexError:
        raise ValueError("docs/BACKTEST.md não traz a tabela de resultados do backtest regional") from None
    out: dict[str, int] = {}
    for line in bloco.splitlines()[1:]:
        if out and not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) > 2 and cells[2].isdigit():
            out[cells[0]] = int(cells[2])
    return out


def parcela_sem_correcao(resumo: dict[str, Any], capturas: dict[str, int], grupo: str) -> float:
    """% of the group's captures (from 10 % counted) the live drift check published without the
    correction, in the backtest run of the calibration."""
    fora = int(resumo["com_verificacao"][grupo]["capturas_sem_correcao_pela_verificacao"])
    return 100.0 * fora / capturas[grupo]


def _verificacao_medida(resumo: dict[str, Any], capturas: dict[str, int]) -> str:
    def um(grupo: str) -> str:
        n = resumo["com_verificacao"][grupo]["capturas_sem_correcao_pela_verificacao"]
        parcela = _num(parcela_sem_correcao(resumo, capturas, grupo), 1)
        return f"{parcela}% ({_int(n)} de {_int(capturas[grupo])})"

    return (
        "Nas reproduções, com a verificação ligada, ela tirou a correção em "
        f"{um('2022_2t x1')} das leituras a partir de 10% apurado com a deriva ajustada à real (× 1), "
        f"em {um('2022_2t x0.5')} com a deriva × 0,5 e em {um('2022_2t x1.75')} com a deriva × 1,75. "
        "Ou seja, ela não dispara só diante de derivas diferentes das testadas: a razão oscila muito de "
        "uma noite para outra e, depois que sai da faixa uma vez, a correção fica desligada até o fim da "
        "noite, então a verificação também a desliga em noites cuja deriva é a mesma dos testes. Nessas "
        "leituras vale a faixa sem correção, e a cobertura da tabela acima já foi medida com a "
        "verificação ligada."
    )


# The page's name of each band column (model/bands.py FONTES_ERRO), in the seed's order.
NOMES_TABELA = {
    "presidente": "Presidente, com a correção da deriva",
    "presidente_sem_correcao": "Presidente, sem a correção (modo `presidente_sem_correcao`)",
    "governador_municipio": "Governador, por município",
    "governador_zona": "Governador do DF, por zona",
    "governador_degradado": "Governador sem dados municipais (modo degradado)",
}
TEXTO_FONTE = {
    ("faixa", "backtest"): "medida nas reproduções deste projeto",
    ("faixa", "metodo_original"): "faixa do método original, não medida aqui",
    (
        "faixa",
        "emprestada_da_conta_por_uf",
    ): "a da conta por estado, medida para aquela conta e não para esta",
    ("projecao", "testes"): "o maior entre o erro médio medido nos testes e metade da faixa",
    ("projecao", "metade_da_faixa"): "metade da faixa",
    (
        "parcial",
        "parcial_nacional_presidente",
    ): "erro médio da parcial nacional do presidente, medido nos testes",
}


def tabela_fontes_erro() -> list[str]:
    """Which error figures each race type's page shows, and where each comes from (FONTES_ERRO)."""
    out = [
        "| Disputa | Faixa de erro | Erro médio esperado | Erro médio da parcial bruta |",
        "|---|---|---|---|",
    ]
    for tabela, f in FONTES_ERRO.items():
        projecao = TEXTO_FONTE[("projecao", f.projecao)]
        if f.faixa != FAIXA_MEDIDA:
            projecao += " (não é um erro medido; a página não o apresenta como resultado de testes)"
        parcial = TEXTO_FONTE[("parcial", f.parcial)] if f.parcial else "não mostrado: não foi medido"
        if tabela == "governador_degradado":
            projecao = "não mostrado: neste modo a projeção é a própria parcial"
        out.append(f"| {NOMES_TABELA[tabela]} | {TEXTO_FONTE[('faixa', f.faixa)]} | {projecao} | {parcial} |")
        if tabela == "presidente":  # the municipal count borrows this table (model/bands.py error_source)
            m = error_source(tabela, "presidente_municipio")
            out.append(
                "| Presidente por município (se a coleta municipal for ligada) | "
                f"{TEXTO_FONTE[('faixa', m.faixa)]} | "
                f"{TEXTO_FONTE[('projecao', m.projecao)]}, também da conta por estado | "
                f"{TEXTO_FONTE[('parcial', m.parcial)] if m.parcial else 'não mostrado'} |"
            )
    return out


def secao_faixa(cal: Calibration, obj: dict[str, Any], capturas: dict[str, int] | None = None) -> str:
    """The "## Faixa de erro" section; `capturas` (default: read from docs/BACKTEST.md) are the
    captures each replay group scored."""
    bt = obj.get("backtest") or {}
    resumo = bt.get("resumo")
    if resumo is None:
        raise ValueError(
            "a calibração não traz o resumo do backtest regional (rode eleicoes backtest-regional)"
        )
    regra = cal.verificacao_deriva
    if regra is None:
        raise ValueError("a calibração não traz a verificação da deriva")
    if capturas is None:
        capturas = capturas_por_grupo(RELATORIO.read_text(encoding="utf-8"))
    pr = resumo["parcial_nacional_real"]
    vc = resumo["validacao_cruzada"]
    vc_min = min(v["cobertura_minima_pct"] for v in vc.values())
    vc_err = sum(v["noites_tendencia_errada"] for v in vc.values())
    metas = resumo["metas_atingidas_validacao_cruzada"]
    sem = cal.faixas["presidente_sem_correcao"]
    lines = [
        "## Faixa de erro",
        "",
        f"A calibração em vigor (`{cal.id}`) é **provisória**. Ela foi medida por este projeto reproduzindo "
        "apurações com a **ordem real de chegada por região** e o **detalhe dentro de cada "
        "região simulado**:",
        "",
        "- **O que é real:** o avanço de cada região (Norte, Nordeste, Centro-Oeste, Sudeste, "
        "Sul e exterior) e "
        "o percentual de Lula em cada região, minuto a minuto, no 2º turno de 2022, no 1º turno de 2022 e no "
        "1º turno de 2026, montados a partir do horário em que cada boletim de urna chegou ao TSE. Em cada "
        "reprodução, as seções de uma região chegam exatamente quando as seções reais daquela "
        "região chegaram.",
        "- **O que é simulado:** quais municípios de cada região chegam antes (e, com isso, o avanço de cada "
        "UF e a ordem dentro dela). A simulação foi ajustada para reproduzir a deriva real de cada região "
        "(capital e interior, municípios grandes e pequenos); o restante é sorteado, uma noite por semente.",
        "- **Votos:** o 2º turno de 2022 por município (real); o 1º turno de 2022 por município é uma "
        "estimativa; a reprodução do 1º turno de 2026 conta esses mesmos votos do 1º turno de 2022 na ordem "
        "regional de 2026 (não há aqui resultados de 2026 por município).",
        "",
        "Detalhes e todos os números em `docs/BACKTEST.md`. O tamanho da faixa depende da parcela do "
        "eleitorado já totalizada e do tipo de disputa. Os valores abaixo são a meia-largura da faixa, em "
        "pontos percentuais, para o percentual de cada candidato. Na coluna do presidente, a faixa já "
        "considera a correção da deriva; a coluna ao lado traz o erro médio esperado (o maior entre o "
        "erro médio medido nos testes e metade da faixa), o mesmo número que a página da disputa mostra "
        "com esse tanto de apuração. As colunas de governador são a faixa do método original, não "
        "medida aqui.",
        "",
        *tabela(cal),
        "",
        "### Como a faixa do presidente é definida",
        "",
        "A curva de correção é o erro médio (sem correção) da projeção por UF nas noites do 2º turno de 2022 "
        f"com a deriva real, em pontos para Lula: {_deriva(cal, (10.0, 20.0, 30.0, 50.0, 70.0, 90.0))}. Como "
        "não se sabe quanto a deriva de 2026 vai diferir da de 2022, a faixa foi medida também com a deriva "
        "dentro das regiões reduzida à metade (× 0,5) e ampliada em 75% (× 1,75), na linha do que a versão "
        "anterior desta metodologia dizia tolerar (entre 25% e 175% da deriva de 2022). Em cada ponto de "
        "apuração, a faixa é o maior, entre essas três escalas, do valor que cobriu "
        f"{_num(100 * bt['quantil_faixa'], 0)}% "
        "dos instantes depois da correção.",
        "",
        "Resultado, com a verificação da deriva ligada (abaixo), a partir de 10% apurado:",
        "",
        *_grupos(resumo),
        "",
        "Validada de forma cruzada (ajustada nas sementes pares e medida nas ímpares, e vice-versa), a pior "
        f"cobertura foi de {_num(vc_min, 1)}% e houve {_noites(vc_err)} com tendência errada. "
        + (
            "As duas metas (cobertura de pelo menos 85% em cada faixa de 5 pontos e nenhuma "
            "tendência errada) "
            "foram atingidas."
            if metas
            else "**Nenhuma calibração atingiu as duas metas ao mesmo tempo** (cobertura de pelo menos "
            "85% em "
            "cada faixa de 5 pontos e nenhuma tendência errada); ficou a que nunca apontou o vencedor errado."
        ),
        "",
        "Na parcial nacional real do 2º turno de 2022, medida aqui a partir das curvas regionais, Lula "
        f"aparecia {_lado(pr['2022_2t']['20'])} do resultado final com 20% das seções totalizadas e "
        f"{_lado(pr['2022_2t']['50'])} com 50%; no 1º turno de 2026, {_lado(pr['2026_1t']['20'])} e "
        f"{_lado(pr['2026_1t']['50'])}.",
        "",
        "### Verificação da deriva durante a noite",
        "",
        "Conforme as UFs chegam a 100%, o modelo compara a deriva que elas de fato tiveram (a projeção de "
        "cada UF em cada leitura anterior menos o resultado final dela) com o que a curva previa naquele "
        "ponto da apuração da própria UF. Se a razão entre o observado e o previsto sair da faixa tolerada "
        f"(de {_num(regra.razao_min)} a {_num(regra.razao_max)}), depois que as UFs já totalizadas somarem "
        f"pelo menos {_num(regra.peso_minimo_pct, 0)}% dos votos válidos, a projeção passa para o modo "
        "`presidente_sem_correcao` até o fim da noite: sem a correção e com a faixa sem correção "
        f"(de ±{_num(sem[0][0]) if sem[0] else '–'} com 10-20% apurado). Isso fica registrado no campo "
        "`verificacao_deriva` do JSON e é avisado na página da disputa.",
        "",
        _verificacao_medida(resumo, capturas),
        "",
        "### Erro médio esperado",
        "",
        "O erro médio esperado (campo `erro_medio_esperado.projecao`) corresponde ao valor "
        "**mais alto** entre "
        "dois: o erro médio visto nos testes e a metade da faixa. Na página do presidente ele aparece como "
        '"errou em média, nos testes, ±X ponto"; nas de governador não há erro medido nos testes, e a '
        "página diz que a faixa é a do método original, não medida aqui. Junto dele, a página do "
        "presidente mostra o erro médio da parcial bruta no mesmo trecho da "
        f"apuração (campo `erro_medio_esperado.parcial`): "
        f"{_pontos(cal.erro_parcial_pp[cal.erro_parcial_grade.index(10.0)])} "
        "com 10% apurado, pela calibração em vigor. Esse erro foi medido na parcial nacional do "
        "presidente, e por isso as páginas de governador não o mostram.",
        "",
        "### Que números de erro cada página mostra",
        "",
        "Cada página de disputa mostra só os números de erro que foram medidos para aquele tipo de "
        "disputa, com a origem de cada um (campo `erro_medio_esperado.fonte` do JSON):",
        "",
        *tabela_fontes_erro(),
        "",
        "### Governador: faixas herdadas, não medidas aqui",
        "",
        "As faixas de governador (por município, por zona no DF e no modo degradado) foram mantidas como "
        "estavam na versão anterior desta metodologia; este projeto ainda não as mediu. Aquela versão dizia "
        "que a faixa do governador era o valor que cobriu 90% dos instantes em 38 disputas estaduais de 2022 "
        "(12 disputas reais de 2º turno para governador e 26 simulações da disputa presidencial recortada "
        "por estado) e que, nas 6 disputas de governador do 1º turno de 2026, a cobertura foi de 81% (AM) a "
        "100%, sem chamada errada.",
        "",
        "### O que a versão anterior desta metodologia relatava (não reproduzido aqui)",
        "",
        "A versão anterior relatava números que este projeto não reproduziu com os dados de que dispõe: que "
        "aplicar ao 1º turno de 2026 a curva do 1º turno de 2022 baixou o erro médio de 1,3 para 0,2 ponto "
        "na faixa de 20% a 60% apurado; que, no par 1º turno de 2022 e 1º turno de 2026, a deriva de 2026 "
        "ficou entre 80% e 104% da de 2022; que a faixa dimensionada só com 2022 cobriu 69% do teste de "
        "2026; que a faixa era o maior entre o pior erro depois da correção mais o viés entre eleições "
        "e 75% do próprio "
        "tamanho da correção (regra que aquela versão atribuía a uma revisão estatística independente, "
        "cujo texto não foi publicado nem está neste repositório); que sem a correção a faixa seria de "
        "±2,3 pontos com 10-20% e de "
        "±1,4 ponto com 50-60%; e que a parcial bruta errava em média 4,4 pontos com 10-20% apurado.",
        "",
        "### Limites da calibração",
        "",
        "A ordem dentro das regiões é simulada, e só há três noites reais de ordem regional, "
        "nenhuma delas um "
        "2º turno de 2026. Nada garante a mesma cobertura em 25/10: a faixa do presidente só enfrenta seu "
        "primeiro teste real nessa noite. Até a apuração terminar, a calibração não é mexida: "
        "fica congelada.",
        "",
        '### O que chamamos de "os testes"',
        "",
        '"Os testes" são essas reproduções dos dois turnos de 2022 e do 1º turno de 2026, com a ordem real '
        'de chegada de cada região e o detalhe dentro da região simulado. Quando o site diz que "a projeção '
        'errou em média ±X ponto nos testes", está falando do erro medido nessas reproduções, e não de um '
        "erro já visto na apuração em curso.",
        "",
    ]
    return "\n".join(lines) + "\n"


def secao_auditoria(cal: Calibration, sha: str) -> str:
    """The "## Como auditar" section (to the end of the page)."""
    return "\n".join(
        [
            "## Como auditar",
            "",
            "Todo snapshot que publicamos armazena três coisas:",
            "",
            "- o JSON bruto recebido do TSE;",
            "- a versão do modelo usada (campos `modelo.versao` e `modelo.calibracao`);",
            "- a saída completa do cálculo (`forecast`, `criterios`, `estratos` e `verificacao_deriva`).",
            "",
            "Para conferir, rode o modelo sobre a pasta do snapshot: `eleicoes projetar PASTA` ou, só com o "
            "Python instalado e sem nenhuma biblioteca extra, `python -m model.cli projetar "
            "PASTA`. Os números "
            "têm de sair idênticos, byte a byte. A verificação da deriva lê a saída da leitura anterior "
            "(`saida.json` da pasta anterior), então as leituras de uma noite se conferem em ordem.",
            "",
            "| Item | Valor |",
            "|---|---|",
            f"| Versão atual do modelo | {VERSION} |",
            f"| Calibração em vigor | `{cal.id}` |",
            "| Arquivo de calibração | `model/calibracao.json` |",
            f"| SHA-256 do arquivo de calibração | `{sha}` |",
            "",
            "A calibração em vigor é **provisória** (ordem regional real, detalhe dentro das "
            "regiões simulado; "
            "faixas de governador herdadas). Ela fica congelada durante toda a apuração de 25/10/2026. Se o "
            "arquivo de calibração for alterado durante a apuração, o hash muda, e essa mudança fica visível "
            "para qualquer um.",
            "",
            "A calibração de referência da versão anterior desta metodologia, `bt2022h26-v31-2026-10-24` "
            f"(SHA-256 `{SHA_REFERENCIA_ANTERIOR}`), foi ajustada com horários de chegada seção a seção "
            "de que este projeto não dispõe; ela não foi reproduzida aqui.",
            "",
        ]
    )


def pagina(
    texto: str, raw: bytes, bases: dict[str, Baseline] | None = None, relatorio: str | None = None
) -> str:
    """`texto` (the page) with its generated parts rebuilt from the calibration bytes `raw`, the
    shipped baselines (`bases`, default: `model/baselines/`) and the backtest report (`relatorio`,
    default: docs/BACKTEST.md)."""
    bases = load_baselines(BASELINES_DIR) if bases is None else bases
    texto = com_bases(com_estratos(texto, bases), bases)
    cal = parse_calibration(raw)
    obj = json.loads(raw)
    sha = hashlib.sha256(raw).hexdigest()
    capturas = capturas_por_grupo(RELATORIO.read_text(encoding="utf-8") if relatorio is None else relatorio)
    head, rest = texto.split(INICIO_FAIXA, 1)
    _, tail = rest.split(FIM_FAIXA, 1)
    middle, _ = tail.split(INICIO_AUDITORIA, 1)
    return head + secao_faixa(cal, obj, capturas) + FIM_FAIXA + middle + secao_auditoria(cal, sha)


INICIO_BASES, FIM_BASES = "- **Base do 1º turno de 2026**", "- **Calibração:**"
# A baseline built from a third party's normalized files, not from TSE bytes (its `fonte` says so).
DERIVADA = "derivado de terceiros"


def itens_bases(bases: dict[str, Baseline]) -> list[str]:
    """The "Fontes" items on the 1st-round baselines: each shipped file with the source it records
    (`fonte`), and the DF by zone, which has none."""
    sem_base = next(r for r in GOVERNOR_RULES if r.id == "eleitorado_sem_base")
    out = [
        f"{INICIO_BASES} (a fatia de cada finalista em cada parte no 1º turno, eleições 6257 e 6259, "
        "pré-processada na pasta `model/baselines/`; cada arquivo registra a sua origem no campo `fonte`):"
    ]
    for b in sorted(bases.values(), key=lambda b: (b.cargo != "presidente", b.uf)):
        nome = (
            "Presidente, por UF" if b.cargo == "presidente" else f"Governador {UF_NOMES[b.uf]}, por município"
        )
        tipo = (
            "resultado por município **derivado por terceiros** (não são arquivos do TSE)"
            if DERIVADA in b.fonte
            else "arquivos finais do TSE"
        )
        # The page writes file-name placeholders as {uf} (no angle brackets in method pages).
        fonte = re.sub(r"<(\w+)>", r"{\1}", b.fonte)
        out.append(f"  - {nome}: {tipo}; `model/baselines/{b.chave}.json`, fonte `{fonte}`.")
    out.append(
        "  - Governador do Distrito Federal, por zona: **não há base do 1º turno por zona** (os dados "
        "públicos a que este projeto teve acesso trazem o DF como um único município). Uma zona ainda sem "
        "voto totalizado é projetada com a divisão do DF inteiro já apurado (a taxa agregada, sem base), "
        "e a projeção do DF só é publicada quando o eleitorado projetado assim é de no máximo "
        f"{_num(sem_base.limite, 0)}% (critério da base do 1º turno, em “Critérios para publicar a "
        "projeção”)."
    )
    return out


def com_bases(texto: str, bases: dict[str, Baseline]) -> str:
    """`texto` (the page) with the "Fontes" items on the baselines rebuilt from `bases`."""
    head, rest = texto.split(INICIO_BASES, 1)
    _, tail = rest.split(FIM_BASES, 1)
    return head + "\n".join(itens_bases(bases)) + "\n" + FIM_BASES + tail


def com_estratos(texto: str, bases: dict[str, Baseline]) -> str:
    """`texto` (the page) with the strata table of "### Passo 1" rebuilt from `bases`."""
    head, rest = texto.split(INICIO_ESTRATOS, 1)
    _, tail = rest.split(FIM_ESTRATOS, 1)
    return head + INICIO_ESTRATOS + "\n".join(tabela_estratos(bases)) + "\n" + FIM_ESTRATOS + tail


def com_data(texto: str, dia: dt.date) -> str:
    """`texto` (the page) with `dia` as the date of its last change (`atualizado_em`, front matter)."""
    return ATUALIZADO_EM.sub(f"atualizado_em = {dia.isoformat()}", texto, count=1)


def regenerar(path: Path = PAGINA, calibracao: Path = CALIBRATION_PATH, hoje: dt.date | None = None) -> bool:
    """Rewrite the page from the calibration file, dated `hoje` (default: today in Brasília); True
    when its text changed (an unchanged text keeps its date)."""
    old = path.read_text(encoding="utf-8")
    new = pagina(old, calibracao.read_bytes())
    if new != old:
        dia = hoje or dt.datetime.now(BRASILIA).date()
        path.write_text(com_data(new, dia), encoding="utf-8")
    return new != old
