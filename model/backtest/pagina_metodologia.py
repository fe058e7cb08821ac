"""The parts of content/metodologia/projecao.md that quote the calibration, generated from its file.

Three parts are generated: the strata table of "### Passo 1" (every race with a shipped baseline in
`model/baselines/`, plus the DF by zone), "## Faixa de erro" (band table, how it was measured, the figures the
regional backtest measured, what the seed's earlier version reported and was not reproduced here)
and "## Como auditar" (version, calibration id and SHA-256). Everything comes from the calibration
file (`model/calibracao.json`: its tables and its `backtest.resumo`, written by
`eleicoes backtest-regional`), so a new calibration changes the text; the test
tests/test_metodologia_calibracao.py fails until the page is regenerated
(`eleicoes backtest-regional --instalar` does it, or `regenerar`).
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
from model.baselines import BASELINES_DIR, Baseline, load_baselines
from model.calibration import CALIBRATION_PATH, Calibration, Row, parse_calibration
from model.tse_files import BRASILIA

PAGINA = Path(__file__).resolve().parents[2] / "content" / "metodologia" / "projecao.md"
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
            _cell(cal.erro_medio_presidente[i], ""),
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


def secao_faixa(cal: Calibration, obj: dict[str, Any]) -> str:
    """The "## Faixa de erro" section."""
    bt = obj.get("backtest") or {}
    resumo = bt.get("resumo")
    if resumo is None:
        raise ValueError(
            "a calibração não traz o resumo do backtest regional (rode eleicoes backtest-regional)"
        )
    regra = cal.verificacao_deriva
    if regra is None:
        raise ValueError("a calibração não traz a verificação da deriva")
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
        "considera a correção da deriva; a coluna ao lado traz o erro médio esperado nos testes.",
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
        "`verificacao_deriva` do JSON e é avisado na página da disputa. A faixa tolerada é larga porque "
        "essa razão oscila muito de uma noite para outra: ela só dispara diante de uma deriva muito "
        "diferente das que a faixa cobriu nos testes.",
        "",
        "### Erro médio esperado",
        "",
        "O erro médio esperado (campo `erro_medio_esperado.projecao`) corresponde ao valor "
        "**mais alto** entre "
        'dois: o erro médio visto nos testes e a metade da faixa. Na tela ele aparece como "errou em média, '
        'nos testes, ±X ponto". Junto dele, mostramos o erro médio da parcial bruta no mesmo trecho da '
        f"apuração (campo `erro_medio_esperado.parcial`): "
        f"{_pontos(cal.erro_parcial_pp[cal.erro_parcial_grade.index(10.0)])} "
        "com 10% apurado, pela calibração em vigor.",
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


def pagina(texto: str, raw: bytes, bases: dict[str, Baseline] | None = None) -> str:
    """`texto` (the page) with its generated parts rebuilt from the calibration bytes `raw` and the
    shipped baselines (`bases`, default: `model/baselines/`)."""
    texto = com_estratos(texto, load_baselines(BASELINES_DIR) if bases is None else bases)
    cal = parse_calibration(raw)
    obj = json.loads(raw)
    sha = hashlib.sha256(raw).hexdigest()
    head, rest = texto.split(INICIO_FAIXA, 1)
    _, tail = rest.split(FIM_FAIXA, 1)
    middle, _ = tail.split(INICIO_AUDITORIA, 1)
    return head + secao_faixa(cal, obj) + FIM_FAIXA + middle + secao_auditoria(cal, sha)


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
