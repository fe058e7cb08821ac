"""The regional backtest (what `eleicoes backtest-regional` runs): replays in the real regional order,
choice and fit of the calibration, second pass with the live drift check, report block.

Pass 1 replays every night with the live drift check reading its ratio but never acting;
`calibrar_regional.escolher` picks the band quantile by 2-fold cross-fit; the calibration is fitted
on all nights; pass 2 replays the runoff nights again under it, the live check on (it does not apply
to a 1st round), and everything is scored from pass 2 plus the 1st-round lines of pass 1.
Same inputs and seeds give the same bytes (no clock is read).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model import VERSION
from model.backtest import calibrar_regional as cr
from model.backtest.chegada import PARAMETROS_PATH, ParametrosChegada, interpolar
from model.backtest.metricas import Ponto, faixa_de, quantil, tendencia
from model.backtest.regional import ConfigRegional, rodar, tarefas

__all__ = ["ConfigRegional", "bloco", "executar", "inserir_bloco"]
from model.backtest.pipeline import calibration_bytes
from model.backtest.regioes import (
    CSV_REGIOES,
    PARAMETROS_REGIONAIS_PATH,
    PONTOS_AJUSTE,
    REGIOES_DENTRO,
    CurvaRegiao,
    EfeitosRegiao,
    NoiteRegional,
    ler_noites,
)
from model.backtest.replay import Linha
from model.bands import half_width
from model.calibration import Calibration, parse_calibration

MARCA_INICIO = "<!-- BEGIN regional (eleicoes backtest-regional) -->"
MARCA_FIM = "<!-- END regional -->"
ANTERIOR = (
    "## Earlier backtest: national clock (superseded by the block above)\n\n"
    'Kept for comparison. Its statements about "the calibration in force" describe the time it ran; '
    "the calibration in force is the one named in the block above."
)

TEXTOS = {
    "nota": "Calibração PROVISÓRIA, ajustada pelo backtest regional (eleicoes backtest-regional; "
    "docs/BACKTEST.md): noites do 2º turno de 2022 na ordem REAL de chegada por região "
    "(timeseries/regioes), com a ordem dentro de cada região SIMULADA (ajustada à deriva real de "
    "cada região), deriva escalada de 0,5x a 1,75x, e os 1ºs turnos de 2022 e 2026 na sua ordem "
    "regional real. Faixas de governador mantidas da calibração anterior (transcritas da metodologia, "
    "não medidas aqui). Provisória até ser testada numa apuração real completa.",
    "deriva": "Média, sobre as noites do 2º turno de 2022 (ordem regional real, escala 1), do erro da "
    "projeção por UF sem correção (candidato 13), interpolada em cada ponto da grade; constante "
    "abaixo de 10%; 0 a 100%.",
    "erro_parcial": "Maior entre o erro absoluto médio da parcial nacional bruta nas mesmas noites e "
    "o da parcial nacional real do 2º turno de 2022 (timeseries/regioes).",
}


def serie_nacional(noite: NoiteRegional) -> list[tuple[float, float]]:
    """Real national partial's error of Lula's share (% sections, points) summed over the regions
    (runoff: share of the two; 1st round: share of valid votes)."""
    curvas = list(noite.curvas.values())
    total = sum(c.secoes_total for c in curvas)
    out: list[tuple[float, float]] = []
    final_c = [len(c.minuto) - 1 for c in curvas]

    def den(c: CurvaRegiao, i: int) -> int:
        return c.v13[i] + c.v22[i] if noite.turno == 2 else c.validos[i]

    a_f = sum(c.v13[i] for c, i in zip(curvas, final_c, strict=True))
    d_f = sum(den(c, i) for c, i in zip(curvas, final_c, strict=True))
    for m in noite.minutos():
        sec = a = d = 0
        for c in curvas:
            i = _ultimo(c.minuto, m)
            if i >= 0:
                sec, a, d = sec + c.secoes[i], a + c.v13[i], d + den(c, i)
        pct = 100.0 * sec / total
        if d and (not out or pct > out[-1][0]):
            out.append((pct, 100.0 * a / d - 100.0 * a_f / d_f))
    return out


def _ultimo(xs: Sequence[float], m: float) -> int:
    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] <= m:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


def digest(cfg: ConfigRegional, datasets: Path) -> str:
    """SHA-256 over the regional curves, the arrival parameters, the fitted effects, the settings and
    the model version (the calibration's id carries its first 8 digits)."""
    h = hashlib.sha256()
    for path in (datasets / CSV_REGIOES, PARAMETROS_PATH, PARAMETROS_REGIONAIS_PATH):
        h.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).hexdigest().encode())
    conf = dataclasses.asdict(cfg) | {"datasets": ""}
    h.update(json.dumps(conf, sort_keys=True, default=str).encode())
    h.update(VERSION.encode())
    return h.hexdigest()


@dataclass
class ResultadoRegional:
    """Everything the regional backtest produces."""

    config: ConfigRegional
    calibracao: dict[str, Any]
    calibracao_bytes: bytes
    nova: Calibration
    vigente: Calibration
    quantil: float
    avaliacoes: list[cr.Avaliacao]
    com_verificacao: dict[str, list[Ponto]]
    sem_verificacao: dict[str, list[Ponto]]
    vigente_pontos: dict[str, list[Ponto]]
    linhas: list[Linha]


def executar(
    cfg: ConfigRegional,
    params: ParametrosChegada,
    efeitos: dict[str, EfeitosRegiao],
    vigente: Calibration,
    *,
    processos: int = 1,
    progresso: Callable[[int], None] | None = None,
) -> ResultadoRegional:
    """Run the regional backtest (module docstring); nothing is written here."""
    sem_check = dataclasses.replace(vigente, verificacao_deriva=None)
    passo1 = rodar(cfg, params, efeitos, sem_check, processos, progresso)
    noites = ler_noites(cfg.datasets)
    serie = serie_nacional(noites["2022_2t"])
    ident = (
        f"bt2022reg-v{VERSION.replace('.', '')}-n{cfg.sementes}-{digest(cfg, cfg.datasets)[:8]}-provisoria"
    )
    prov = {
        "versao_modelo": VERSION,
        **TEXTOS,
        "backtest": {
            "comando": "eleicoes backtest-regional",
            "sementes": cfg.sementes,
            "semente_inicial": cfg.semente_inicial,
            "escalas_deriva": list(cfg.escalas),
            "sementes_1turno": min(cfg.sementes, cfg.sementes_1t),
            "chegada": params.to_json(),
            "efeitos_regionais": {k: v.to_json() for k, v in sorted(efeitos.items())},
        },
    }
    q, tried = cr.escolher(passo1, vigente, prov, serie)
    obj = cr.ajustar(passo1, vigente, ident, prov, q, serie)
    # Pass 2, runoff only (the check does not apply to a 1st round, whose pass-1 lines stand): the
    # check reads its ratio under the fitted curve without acting; its range is fitted from those
    # ratios and its decisions replayed (`aplicar_verificacao`, the model's own rule).
    lendo = parse_calibration(calibration_bytes(obj))
    passo2 = rodar(dataclasses.replace(cfg, sementes_1t=0), params, efeitos, lendo, processos, progresso)
    obj = cr.ajustar(passo1, vigente, ident, prov, q, serie, cr.faixa_razao(passo2))
    nova = parse_calibration(calibration_bytes(obj))
    passo2 = cr.aplicar_verificacao(passo2, nova)
    passo2 += [ln for ln in passo1 if not cr.grupo_de(ln).startswith("2022_2t")]
    com = cr.pontuar_grupos(passo2, nova, verificacao=True)
    chosen = next(a for a in tried if a.q == q)
    # The figures the method page quotes travel in the calibration file (the page is generated from it).
    obj["backtest"]["resumo"] = {
        "metas_atingidas_validacao_cruzada": chosen.passa(),
        "validacao_cruzada": {
            g: {"cobertura_minima_pct": round(c, 1), "noites_tendencia_errada": chosen.noites_erradas()[g]}
            for g, c in chosen.cobertura_minima().items()
        },
        "com_verificacao": {g: _resumo_json(ps) for g, ps in com.items()},
        "parcial_nacional_real": {
            nid: {str(x): round(_em(serie_nacional(n), x), 2) for x in (20, 50)} for nid, n in noites.items()
        },
    }
    raw = calibration_bytes(obj)
    nova = parse_calibration(raw)
    return ResultadoRegional(
        config=cfg,
        calibracao=obj,
        calibracao_bytes=raw,
        nova=nova,
        vigente=vigente,
        quantil=q,
        avaliacoes=tried,
        com_verificacao=com,
        sem_verificacao=cr.pontuar_grupos(passo2, nova, verificacao=False),
        vigente_pontos=cr.pontuar_grupos(passo1, vigente, verificacao=False),
        linhas=passo2,
    )


def _em(serie: Sequence[tuple[float, float]], x: float) -> float:
    return interpolar([p for p, _ in serie], [e for _, e in serie], x)


def _resumo_json(ps: Sequence[Ponto]) -> dict[str, Any]:
    r = resumo_grupo(ps)
    med = r["mediana_tendencia"]
    return {
        "noites": r["noites"],
        "cobertura_minima_pct": round(r["cobertura_minima"], 1),
        "noites_tendencia_errada": r["noites_erradas"],
        "mediana_apurado_tendencia_pct": None if med is None else round(med, 1),
        "capturas_sem_correcao_pela_verificacao": r["fora"],
    }


def total_noites(cfg: ConfigRegional) -> int:
    """Nights replayed in both passes."""
    return len(tarefas(cfg)) + len(tarefas(dataclasses.replace(cfg, sementes_1t=0)))


# --------------------------------------------------------------------------------------------------
# Report block.


def _f(x: float | None, d: int = 2) -> str:
    return "–" if x is None else f"{x:.{d}f}"


def _cobertura_por_faixa(ps: Sequence[Ponto]) -> dict[int, tuple[int, float, float]]:
    cells: dict[int, list[Ponto]] = {}
    for p in ps:
        cells.setdefault(faixa_de(p.linha.apurado), []).append(p)
    return {
        b * 5: (len(v), 100.0 * sum(p.coberto for p in v) / len(v), sum(p.faixa for p in v) / len(v))
        for b, v in sorted(cells.items())
    }


def _erro_medio(ps: Sequence[Ponto], campo: str, lo: float, hi: float) -> float | None:
    vals = [getattr(p, campo) for p in ps if lo <= p.linha.apurado < hi]
    return sum(vals) / len(vals) if vals else None


def resumo_grupo(ps: Sequence[Ponto]) -> dict[str, Any]:
    """Figures of one scoring group (also used by the method page test)."""
    t = tendencia(ps)
    cob = _cobertura_por_faixa(ps)
    return {
        "noites": t.replays,
        "capturas": len(ps),
        "cobertura_minima": min(c[1] for c in cob.values()),
        "noites_erradas": t.replays_com_erro,
        "mediana_tendencia": statistics.median(t.primeiro_certo) if t.primeiro_certo else None,
        "nunca_certo": t.nunca_certo,
        "fora": sum(p.linha.deriva_fora for p in ps),
        "cobertura": cob,
    }


def _tabela_grupos(pontos: dict[str, list[Ponto]], verificacao: bool = True) -> list[str]:
    head = (
        "| replays | nights | captures from 10 % | mean error partial / uncorrected / published, 10–30 % |"
        " worst 5-point-bin coverage % | nights with a wrong `tendencia` | median % counted when the "
        "trend is called for good | never called |"
    )
    sep = "|---|---:|---:|---:|---:|---:|---:|---:|"
    if verificacao:
        head += " captures the check published without correction |"
        sep += "---:|"
    out = [head, sep]
    campos = ("erro_parcial", "erro_sem_correcao", "erro_corrigido")
    for g, ps in pontos.items():
        r = resumo_grupo(ps)
        errs = " / ".join(_f(_erro_medio(ps, c, 10, 30)) for c in campos)
        line = (
            f"| {g} | {r['noites']} | {r['capturas']} | {errs} | {_f(r['cobertura_minima'], 1)} | "
            f"{r['noites_erradas']} | {_f(r['mediana_tendencia'], 1)} | {r['nunca_certo']} |"
        )
        out.append(line + (f" {r['fora']} |" if verificacao else ""))
    return out


def _tabela_cobertura(pontos: dict[str, list[Ponto]]) -> list[str]:
    grupos = list(pontos)
    out = ["| % counted | " + " | ".join(grupos) + " |", "|---|" + "---:|" * len(grupos)]
    cobs = {g: _cobertura_por_faixa(ps) for g, ps in pontos.items()}
    for b in range(10, 100, 5):
        cells = []
        for g in grupos:
            c = cobs[g].get(b)
            cells.append("–" if c is None else f"{c[1]:.1f} (±{c[2]:.2f})")
        out.append(f"| {b}–{b + 5} | " + " | ".join(cells) + " |")
    return out


def _linha_tabela(cal: Calibration, key: str) -> str:
    rows = cal.faixas[key]
    parts = []
    for i, r in enumerate(rows):
        lo, hi = int(cal.limites_pct[i]), int(cal.limites_pct[i + 1])
        parts.append(f"{lo}–{hi}%: " + ("not published" if r is None else f"±{r[0]:.2f} → ±{r[1]:.2f}"))
    return "; ".join(parts)


def _ajuste_md(ajuste: dict[str, Any]) -> list[str]:
    pts = list(PONTOS_AJUSTE)
    show = [10.0, 20.0, 30.0, 50.0, 70.0, 90.0]
    idx = [pts.index(x) for x in show]
    out = [
        "| night | region | size effect | capital effect | real drift at 10 / 20 / 30 / 50 / 70 / 90 % "
        "of the region's sections | model (expected) | RMS difference |",
        "|---|---|---:|---:|---|---|---:|",
    ]
    for nid, d in ajuste["noites"].items():
        for r in REGIOES_DENTRO:
            a = d["ajuste"][r]
            real = ", ".join(f"{a['deriva_real'][i]:+.2f}" for i in idx)
            mod = ", ".join(f"{a['deriva_modelo'][i]:+.2f}" for i in idx)
            efeitos = f"{d['tamanho'][r]:+.3f} | {d['capital'][r]:+.3f}"
            out.append(f"| {nid} | {r} | {efeitos} | {real} | {mod} | {a['rms']:.3f} |")
    return out


def bloco(res: ResultadoRegional, ajuste: dict[str, Any], sha: str, em_vigor: bool) -> str:
    """The regional block of docs/BACKTEST.md (between `MARCA_INICIO` and `MARCA_FIM`)."""
    cfg = res.config
    nova, vig = res.nova, res.vigente
    passa = next((a for a in res.avaliacoes if a.q == res.quantil), None)
    ok = passa is not None and passa.passa()
    um = resumo_grupo(res.com_verificacao.get("2022_2t x1", []))
    lines = [
        MARCA_INICIO,
        "## Regional backtest: real arrival order by region (issue 14)",
        "",
        "Generated by `eleicoes backtest-regional` (`model/backtest/regioes.py`, `regional.py`, "
        "`calibrar_regional.py`, `pipeline_regional.py`); do not edit by hand. Same inputs and seeds give "
        "the same bytes.",
        "",
        f"Calibration fitted here: `{nova.id}` (SHA-256 `{sha}`). "
        + (
            "**It is the calibration in force** (`model/calibracao.json`)."
            if em_vigor
            else f"It is **not** in force (in force: `{vig.id}`)."
        ),
        "It is **provisional**: the order between regions is real, the order inside each region is "
        "simulated (fitted to each region's real drift), and no complete real night has tested it.",
        "",
        "### What is real and what is simulated",
        "",
        "* **Real:** each region's progress (sections counted) and its Lula share at every minute of the "
        "2022 runoff, the 2022 1st round and the 2026 1st round (`timeseries/regioes/`, built from each "
        "ballot box's receipt time). In every replay each region's sections arrive exactly when that "
        "region's real sections did.",
        "* **Simulated:** which municipalities of a region arrive first (and so each UF's progress and "
        "within-UF order): `k * (size[r] * ln(electorate / 100k) + capital[r] * [capital]) + UF effect + "
        "municipality effect + batch noise`, with size and capital effects fitted per region and night "
        "to the region's real drift (table below) and the random effects as in the earlier backtest "
        f"(sigma_uf {res.calibracao['backtest']['chegada']['sigma_uf']}, sigma_unidade "
        f"{res.calibracao['backtest']['chegada']['sigma_unidade']}). `k` is the drift scale.",
        "* **Votes:** the 2022 runoff by municipality (real); the 2022 1st round by municipality is "
        "ESTIMATED (G1 shares x electors x national rates; no abroad file, so the missing-file criterion "
        "is ignored when scoring its trend); the 2026 1st-round replay counts those same 2022 1st-round "
        "votes in 2026's regional order (no 2026 municipal results here).",
        "",
        "### Fit of the within-region order to the real regional drift",
        "",
        "Drift = Lula's partial share in the region minus its final share (runoff: of the two; 1st "
        "round: of valid votes), points, by % of the region's sections. Regions whose real drift changes "
        "sign (rises then falls) cannot be matched by a monotone order model; their RMS shows it.",
        "",
        *_ajuste_md(ajuste),
        "",
        "### The nights",
        "",
        f"* 2022 runoff at drift scales {', '.join(f'x{k:g}' for k in cfg.escalas)}: {cfg.sementes} "
        "nights each (seeds "
        f"{cfg.semente_inicial}–{cfg.semente_inicial + cfg.sementes - 1}); the x1 nights are the real "
        "replays of the runoff;",
        f"* 2022 1st round and 2026 1st round: {min(cfg.sementes, cfg.sementes_1t)} nights each, scale 1;",
        "* captures at every real minute in which a ballot box arrived; scored from 10 % of the "
        "electorate counted (the model's `apurado_pct`) in 5-point bins; president by UF (28 parts).",
        "",
        "### Choice of the calibration",
        "",
        "The drift curve is the mean uncorrected error of the x1 runoff nights. The president band is, "
        "per 1-point bin, the largest over the drift scales of the q-quantile of the corrected error; "
        "the `presidente_sem_correcao` band the largest over the scales and both 1st rounds of the "
        "q-quantile of the uncorrected error. q is the smallest of "
        f"{', '.join(f'{x:g}' for x in cr.QUANTIS)} that meets, fitted on even seeds and scored on odd "
        "seeds and vice versa, coverage >= 85 % in every 5-point bin from 10 % and no wrong `tendencia` "
        "on every scale and real night; else the one with no wrong `tendencia` and the best worst bin.",
        "",
        "| q | worst-bin coverage % per group (cross-fit) | nights with a wrong `tendencia` | both targets |",
        "|---:|---|---|---|",
    ]
    for a in res.avaliacoes:
        cob = ", ".join(f"{g}: {v:.1f}" for g, v in a.cobertura_minima().items())
        err = ", ".join(f"{g}: {v}" for g, v in a.noites_erradas().items())
        lines.append(f"| {a.q:g} | {cob} | {err} | {'yes' if a.passa() else 'no'} |")
    lines += [
        "",
        f"Chosen: q = {res.quantil:g}. "
        + (
            "It meets both targets in cross-fit."
            if ok
            else "**No quantile met both targets**; this is the one that never named a wrong winner "
            "with the best worst bin."
        ),
        "",
        "### Results under the chosen calibration (in-sample, live drift check on)",
        "",
        *_tabela_grupos(res.com_verificacao),
        "",
        "Coverage % (mean band half-width) per 5-point bin, live drift check on:",
        "",
        *_tabela_cobertura(res.com_verificacao),
        "",
        "Same nights with the check off (the corrected band throughout on the runoff):",
        "",
        *_tabela_grupos(res.sem_verificacao, verificacao=False),
        "",
        f"Calibration in force before (`{vig.id}`) on the same nights (pass 1, check off):",
        "",
        *_tabela_grupos(res.vigente_pontos, verificacao=False),
        "",
        "### Width it costs",
        "",
        "| table | fitted | before |",
        "|---|---|---|",
        f"| presidente | {_linha_tabela(nova, 'presidente')} | {_linha_tabela(vig, 'presidente')} |",
        f"| presidente_sem_correcao | {_linha_tabela(nova, 'presidente_sem_correcao')} | "
        f"{_linha_tabela(vig, 'presidente_sem_correcao')} |",
        "| drift (10, 20, 30, 50, 70, 90 %) | "
        + ", ".join(f"{nova.deriva_pp[nova.deriva_grade.index(x)]:+.2f}" for x in (10, 20, 30, 50, 70, 90))
        + " | "
        + ", ".join(f"{vig.deriva_pp[vig.deriva_grade.index(x)]:+.2f}" for x in (10, 20, 30, 50, 70, 90))
        + " |",
        "",
        f"Band half-width at 20 / 50 % counted: ±{half_width(nova, 'presidente', 20):.2f} / "
        f"±{half_width(nova, 'presidente', 50):.2f} (before ±{half_width(vig, 'presidente', 20):.2f} / "
        f"±{half_width(vig, 'presidente', 50):.2f}). Median % counted at which the runoff trend is called "
        f"for good (x1, check on): {_f(um['mediana_tendencia'], 1)}.",
        "",
        "### Live drift check",
        "",
        "As UFs finish, `model/drift_check.py` compares their observed late-count drift (at each earlier "
        "reading, each finished UF's projection then minus its final share, weighted by valid votes) with "
        "the curve at that UF's own % of sections counted then (10–90 %); the weighted least-squares "
        f"ratio outside {_faixa(nova)} drops the correction for the rest of the night, once finished UFs "
        f"hold at least {cr.PESO_MINIMO_PCT:g} % of the valid votes (`verificacao_deriva` in `saida.json`; "
        "the race page says so). That range is the central 95 % of the ratios the check read at the "
        "smallest and largest drift scales under this curve (never acting): the ratio is noisy, "
        "because finished UFs carry their own random within-UF order. Once out it stays out for the "
        "rest of the night, so it also drops the correction on nights with the tested drift (last "
        "column of the results table above: captures the check published without correction). "
        "Ratios it read (captures from 10 % counted where it had enough data):",
        "",
        "| replays | captures with a ratio | 2.5 % quantile | median | 97.5 % quantile |",
        "|---|---:|---:|---:|---:|",
        *_razoes(res.com_verificacao),
        "",
        MARCA_FIM,
    ]
    return "\n".join(lines) + "\n"


def _faixa(cal: Calibration) -> str:
    r = cal.verificacao_deriva
    return "–" if r is None else f"{r.razao_min:.2f}–{r.razao_max:.2f}"


def _razoes(pontos: dict[str, list[Ponto]]) -> list[str]:
    out = []
    for g, ps in pontos.items():
        rs = [
            p.linha.deriva_razao for p in ps if p.linha.deriva_suficiente and p.linha.deriva_razao is not None
        ]
        if not rs:
            out.append(f"| {g} | 0 | – | – | – |")
            continue
        qs = (quantil(rs, 0.025), statistics.median(rs), quantil(rs, 0.975))
        out.append(f"| {g} | {len(rs)} | " + " | ".join(f"{x:.2f}" for x in qs) + " |")
    return out


def inserir_bloco(texto: str, bloco_md: str) -> str:
    """docs/BACKTEST.md with the regional block replaced (or inserted after the title)."""
    if MARCA_INICIO in texto and MARCA_FIM in texto:
        head, rest = texto.split(MARCA_INICIO, 1)
        _, tail = rest.split(MARCA_FIM, 1)
        return head + bloco_md.rstrip("\n") + tail
    first, _, rest = texto.partition("\n")
    return f"{first}\n\n{bloco_md}\n{ANTERIOR}\n{rest}"


def bloco_existente(texto: str) -> str | None:
    """The regional block of a BACKTEST.md text, if any (kept when the earlier backtest rewrites it)."""
    if MARCA_INICIO in texto and MARCA_FIM in texto:
        return MARCA_INICIO + texto.split(MARCA_INICIO, 1)[1].split(MARCA_FIM, 1)[0] + MARCA_FIM + "\n"
    return None
