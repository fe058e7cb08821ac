"""Arrival-order model of a night: sections arrive in batches whose order depends on region, UF,
municipality size and capital vs interior, with randomness per seed; and the fit of its parameters.

Order. A batch of unit m (municipality, DF zone or abroad) in UF u of region r gets the score

    z = regiao[r] + eta_u + tamanho[r] * ln(E_m / 100 000) + capital[r] * [m is a capital] + xi_m + eps

with eta_u ~ N(0, sigma_uf) per UF, xi_m ~ N(0, sigma_unidade) per unit and eps ~ N(0, 1) per
batch (the unit of the scale), all drawn from `random.Random(seed)` in a fixed order; E_m is the
municipality's electorate. Batches are counted in increasing score. A unit is cut into batches of
`secoes_por_lote` sections (at least one).

Clock. The batch that takes the count to x % of the sections arrives at the minute the real 2022
runoff count reached x % (`relogio`: the 12 readings of `timeseries/2022/apuracao.txt`, 7.53 % at
17:30 to 93.62 % at 19:20 Brasília, plus stated assumptions for the ends: 0 % at 17:10, 99 % at
20:00, 100 % at 22:00). So the simulated count always runs at the real 2022 pace; the model only
decides who arrives when.

Fit (`ajustar`, results in `chegada_2022.json`), on expected values (randomness integrated out):

1. the real 2022 runoff national curve: Lula's share of the two candidates at each real % of
   sections counted (tolerance 0.05 point) -> mainly the regional shifts, which order the UFs;
2. the real 2026 1st-round partial files (`tse/2026-1t-parcial/`, 27 UFs x 2 captures) against the
   final UF files (`tse/2026-1t-final/presidente-uf/`): Lula's error inside each UF at that UF's own
   % counted (tolerance 1 point, each UF weighted by its votes, as in the national projection),
   with the 2022 1st-round municipal shares as the map of where his votes are -> `tamanho` and
   `capital` (one pair per region: the real errors show capitals early in the North-East and late
   in the South-East), which order municipalities *inside* a UF (what the UF-stratified
   projection's drift depends on);
3. the spread across UFs of their % counted at those two captures (probit scale) -> sigma_uf;
4. a weak prior (s.d. 1 score unit) pulling each region's size and capital effect to 0, since a
   region can have as few as 3 UFs.

`sigma_unidade` is then chosen apart (`escolher_sigma_unidade`): the value at which simulated
within-UF errors scatter around their expected values as much as the real 2026 ones scatter
around theirs; and the fit is redone with it.

The national 2022 curve alone cannot tell ordering between UFs from ordering inside them; target 2
is the only real data here on the second. The batch size, abroad's shift and `dispersao_intra` are
fixed; see docs/BACKTEST.md.
"""

from __future__ import annotations

import ast
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.backtest.dados import REGIOES, Dados2022, Unidade

PARAMETROS_PATH = Path(__file__).resolve().parent / "chegada_2022.json"
TAMANHO_REFERENCIA = 100_000
REGIOES_AJUSTADAS = ("N", "NE", "CO", "S")  # SE is the reference (0); abroad fixed at 0
REGIOES_AJUSTADAS_UF = ("N", "NE", "CO", "SE", "S")  # size and capital effects, per region
# Assumed ends of the real clock (minutes after 17:00 Brasília, % of sections): first results,
# then the slow tail after the last real reading (93.62 % at 19:20).
RELOGIO_INICIO = (0.0, 10.0)
RELOGIO_FIM = ((99.0, 180.0), (100.0, 300.0))


@dataclass(frozen=True)
class ParametrosChegada:
    """Parameters of the arrival model (score scale: batch noise has s.d. 1)."""

    regiao: dict[str, float]
    tamanho: dict[str, float]
    capital: dict[str, float]
    sigma_uf: float
    sigma_unidade: float
    secoes_por_lote: int
    dispersao_intra: float
    relogio: tuple[tuple[float, float], ...]  # (% of sections counted, minutes after closing), increasing

    def to_json(self) -> dict[str, Any]:
        """JSON object with rounded values (stable bytes)."""
        return {
            "regiao": {r: round(self.regiao.get(r, 0.0), 6) for r in REGIOES},
            "tamanho": {r: round(self.tamanho.get(r, 0.0), 6) for r in REGIOES_AJUSTADAS_UF},
            "capital": {r: round(self.capital.get(r, 0.0), 6) for r in REGIOES_AJUSTADAS_UF},
            "sigma_uf": round(self.sigma_uf, 6),
            "sigma_unidade": round(self.sigma_unidade, 6),
            "secoes_por_lote": self.secoes_por_lote,
            "dispersao_intra": round(self.dispersao_intra, 6),
            "relogio": [[round(a, 4), round(b, 4)] for a, b in self.relogio],
        }


def parametros_from_json(d: dict[str, Any]) -> ParametrosChegada:
    """Inverse of `to_json` (ValueError on a malformed object)."""
    try:
        return ParametrosChegada(
            regiao={str(k): float(v) for k, v in d["regiao"].items()},
            tamanho={str(k): float(v) for k, v in d["tamanho"].items()},
            capital={str(k): float(v) for k, v in d["capital"].items()},
            sigma_uf=float(d["sigma_uf"]),
            sigma_unidade=float(d["sigma_unidade"]),
            secoes_por_lote=int(d["secoes_por_lote"]),
            dispersao_intra=float(d["dispersao_intra"]),
            relogio=tuple((float(a), float(b)) for a, b in d["relogio"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"parâmetros de chegada inválidos: {exc}") from exc


def carregar_parametros(path: Path = PARAMETROS_PATH) -> ParametrosChegada:
    """The fitted parameters shipped with the backtest."""
    try:
        root = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ValueError(f"parâmetros de chegada ilegíveis em {path}: {exc}") from exc
    return parametros_from_json(root["parametros"])


@dataclass(frozen=True)
class Lote:
    """One batch: `secoes` sections of unit number `unidade` arriving `minuto` minutes after closing."""

    unidade: int
    secoes: int
    minuto: float


def _location(p: ParametrosChegada, u: Unidade) -> float:
    size = math.log(max(u.eleitorado_municipio, 1) / TAMANHO_REFERENCIA)
    r = u.regiao
    return p.regiao.get(r, 0.0) + p.tamanho.get(r, 0.0) * size + (p.capital.get(r, 0.0) if u.capital else 0.0)


def interpolar(xs: Sequence[float], ys: Sequence[float], x: float) -> float:
    """Piecewise-linear interpolation through sorted `xs`, flat outside."""
    if x <= xs[0]:
        return ys[0]
    for i in range(1, len(xs)):
        if x <= xs[i]:
            x0, x1 = xs[i - 1], xs[i]
            return ys[i - 1] if x1 == x0 else ys[i - 1] + (ys[i] - ys[i - 1]) * (x - x0) / (x1 - x0)
    return ys[-1]


def gerar_lotes(p: ParametrosChegada, unidades: Sequence[Unidade], semente: int) -> list[Lote]:
    """Batches of one night in arrival order; minutes from the real clock at the count's progress."""
    rng = random.Random(semente)  # noqa: S311 - reproducible simulation, not cryptography
    eta = {uf: rng.gauss(0.0, p.sigma_uf) for uf in sorted({u.uf for u in unidades})}
    scored: list[tuple[float, int, int, int]] = []
    for i, u in enumerate(unidades):
        loc = _location(p, u) + eta[u.uf] + rng.gauss(0.0, p.sigma_unidade)
        k = max(1, math.ceil(u.secoes / p.secoes_por_lote))
        base, extra = divmod(u.secoes, k)
        for j in range(k):
            size = base + (1 if j < extra else 0)
            if size > 0:
                scored.append((loc + rng.gauss(0.0, 1.0), i, j, size))
    scored.sort()
    total = sum(s for *_, s in scored)
    xs = [a for a, _ in p.relogio]
    ys = [b for _, b in p.relogio]
    out, done = [], 0
    for _, i, _, size in scored:
        done += size
        out.append(Lote(unidade=i, secoes=size, minuto=interpolar(xs, ys, 100.0 * done / total)))
    return out


# --------------------------------------------------------------------------------------------------
# Real targets.


@dataclass(frozen=True)
class PontoReal:
    """One reading of the real national 2022 runoff partial."""

    minuto: float  # minutes after the polls closed (17:00 Brasília = 20:00 UTC)
    secoes_pct: float
    lula_pct: float  # Lula's share of the two candidates' votes, %


def curva_real_2022(datasets: Path) -> list[PontoReal]:
    """`timeseries/2022/apuracao.txt`: UTC time; {name: votes}; % of sections (decimal comma)."""
    out = []
    text = (datasets / "timeseries/2022/apuracao.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.strip():
            continue
        stamp, counts, pst, _ = line.split(";")
        hh, mm, ss = stamp.split()[1].split(":")
        minuto = (int(hh) - 20) * 60 + int(mm) + float(ss) / 60
        d = ast.literal_eval(counts)
        lula, bolso = int(d["LULA"]), int(d["JAIR BOLSONARO"])
        out.append(PontoReal(minuto, float(pst.replace(",", ".")), 100.0 * lula / (lula + bolso)))
    return out


def relogio_real(real: list[PontoReal]) -> tuple[tuple[float, float], ...]:
    """The clock: real (% counted, minute) readings plus the assumed ends (module docstring)."""
    pts = [RELOGIO_INICIO, *((r.secoes_pct, r.minuto) for r in real), *RELOGIO_FIM]
    return tuple((round(a, 4), round(b, 4)) for a, b in pts)


@dataclass(frozen=True)
class PontoUF:
    """Lula's error inside one UF at one real 2026 1st-round capture."""

    captura: str
    uf: str
    secoes_pct: float  # the UF's own % of sections counted
    erro_lula: float  # partial share of valid votes - final share, points


def _lula_share(raw: bytes) -> tuple[float, float]:
    d = json.loads(raw)
    vv = int(d["v"]["vv"])
    votes = {int(c["n"]): int(c["vap"]) for a in d["carg"][0]["agr"] for par in a["par"] for c in par["cand"]}
    return 100.0 * votes.get(13, 0) / vv if vv else 0.0, 100.0 * int(d["s"]["st"]) / int(d["s"]["ts"])


def erros_uf_2026(datasets: Path) -> list[PontoUF]:
    """Within-UF errors of the real 2026 1st-round captures (abroad and the national file left out)."""
    final_dir = datasets / "tse/2026-1t-final/presidente-uf"
    out = []
    for cap in sorted(p for p in (datasets / "tse/2026-1t-parcial").iterdir() if p.is_dir()):
        for f in sorted(cap.glob("??-c0001-e006257-u.json")):
            uf = f.name[:2]
            if uf in ("br", "zz"):
                continue
            final, _ = _lula_share((final_dir / f.name).read_bytes())
            share, pct = _lula_share(f.read_bytes())
            if 0 < pct < 100:
                out.append(PontoUF(cap.name, uf, pct, share - final))
    return out


# --------------------------------------------------------------------------------------------------
# Expected curves and the fit.


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _probit(q: float) -> float:
    """Inverse of the normal CDF by bisection (q in (0, 1))."""
    lo, hi = -9.0, 9.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _phi(mid) < q else (lo, mid)
    return (lo + hi) / 2


@dataclass(frozen=True)
class Grupo:
    """Units pooled by UF, capital flag and size bucket, with their votes."""

    uf: str
    regiao: str
    capital: bool
    log_tamanho: float
    secoes: float
    a: float  # Lula, runoff 2022
    b: float  # Bolsonaro, runoff 2022
    lula_1t: float  # Lula, 1st round 2022 (estimated votes)
    validos_1t: float


def grupos(dados: Dados2022) -> list[Grupo]:
    """Units pooled by (UF, capital, size bucket of 1/4 log unit): the expected curves stay cheap."""
    pres = dados.presidente
    mun_base = dados.bases.get("545-presidente-br-municipio")
    zone_base = dados.bases.get("545-governador-df-zona")
    acc: dict[tuple[str, bool, int], list[float]] = {}
    for u in dados.unidades:
        ls = math.log(max(u.eleitorado_municipio, 1) / TAMANHO_REFERENCIA)
        key = (u.uf, u.capital, round(ls * 4))
        v = pres.votos[u.id]
        e = acc.setdefault(key, [0.0] * 6)
        e[0] += u.secoes
        e[1] += u.secoes * ls
        e[2] += v[0]
        e[3] += v[1]
        base = zone_base if u.zona else mun_base
        bp = base.partes.get(u.id) if base is not None else None
        if bp is not None and bp.validos:
            e[4] += bp.votos.get(13, 0)
            e[5] += bp.validos
    uf_region = {uf: r for r, ufs in REGIOES.items() for uf in ufs}
    return [
        Grupo(k[0], uf_region[k[0]], k[1], e[1] / e[0], e[0], e[2], e[3], e[4], e[5])
        for k, e in sorted(acc.items())
        if e[0] > 0
    ]


def _loc(p: ParametrosChegada, g: Grupo) -> float:
    r = g.regiao
    return (
        p.regiao.get(r, 0.0)
        + p.tamanho.get(r, 0.0) * g.log_tamanho
        + (p.capital.get(r, 0.0) if g.capital else 0.0)
    )


LIMIARES = tuple(-8.0 + i * 0.05 for i in range(321))


def curva_esperada(p: ParametrosChegada, gs: list[Grupo]) -> tuple[list[float], list[float]]:
    """Expected national (% sections counted, Lula share of the two %) as the score threshold rises."""
    s = math.sqrt(1.0 + p.sigma_uf**2 + p.sigma_unidade**2)
    total = sum(g.secoes for g in gs)
    locs = [_loc(p, g) for g in gs]
    pct, share = [], []
    for c in LIMIARES:
        sec = a = b = 0.0
        for g, loc in zip(gs, locs, strict=True):
            f = _phi((c - loc) / s)
            sec += f * g.secoes
            a += f * g.a
            b += f * g.b
        pct.append(100.0 * sec / total)
        share.append(100.0 * a / (a + b) if a + b > 0 else 50.0)
    return pct, share


def erro_dentro_da_uf(p: ParametrosChegada, gs: list[Grupo], uf: str, pct: float) -> float:
    """Expected 1st-round Lula error (points) inside `uf` when it has `pct` % of its sections counted."""
    sel = [g for g in gs if g.uf == uf and g.validos_1t > 0]
    s = math.sqrt(1.0 + p.sigma_unidade**2)
    locs = [_loc(p, g) for g in sel]
    total = sum(g.secoes for g in sel)
    lo, hi = min(locs) - 8 * s, max(locs) + 8 * s
    for _ in range(50):  # the UF's threshold for `pct`
        mid = (lo + hi) / 2
        done = sum(_phi((mid - loc) / s) * g.secoes for g, loc in zip(sel, locs, strict=True)) / total
        lo, hi = (mid, hi) if 100 * done < pct else (lo, mid)
    c = (lo + hi) / 2
    lula = val = 0.0
    for g, loc in zip(sel, locs, strict=True):
        f = _phi((c - loc) / s)
        lula += f * g.lula_1t
        val += f * g.validos_1t
    final = 100.0 * sum(g.lula_1t for g in sel) / sum(g.validos_1t for g in sel)
    return 100.0 * lula / val - final


def _variance(xs: list[float]) -> float:
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / len(xs)


def dispersao_ufs(p: ParametrosChegada, gs: list[Grupo]) -> float:
    """Model s.d., across UFs (abroad excluded), of the probit of their progress at one instant."""
    acc: dict[str, list[float]] = {}
    for g in gs:
        if g.uf != "zz":
            e = acc.setdefault(g.uf, [0.0, 0.0])
            e[0] += g.secoes * _loc(p, g)
            e[1] += g.secoes
    var_loc = _variance([a / b for a, b in acc.values()])
    return math.sqrt((var_loc + p.sigma_uf**2) / (1.0 + p.sigma_unidade**2))


def dispersao_real(ufs: list[PontoUF]) -> dict[str, float]:
    """Real s.d., across UFs, of the probit of their progress, per capture."""
    by_cap: dict[str, list[float]] = {}
    for u in ufs:
        by_cap.setdefault(u.captura, []).append(_probit(u.secoes_pct / 100.0))
    return {k: math.sqrt(_variance(v)) for k, v in sorted(by_cap.items()) if len(v) >= 3}


# Tolerances of the fit (scale of each residual).
TOL_PARTICIPACAO = 0.05  # point of Lula's national share
TOL_UF = 1.0  # point of Lula's within-UF error
TOL_DISPERSAO = 0.05  # s.d. of the UFs' probit progress
PRIORI_SD = 1.0  # weak prior on each region's size and capital effect (score units)


def pesos_uf(gs: list[Grupo]) -> dict[str, float]:
    """Weight of each UF's within-UF residual: its 1st-round valid votes over the mean UF's, since the
    national projection's error is the UFs' errors weighted by their votes."""
    acc: dict[str, float] = {}
    for g in gs:
        if g.validos_1t > 0:
            acc[g.uf] = acc.get(g.uf, 0.0) + g.validos_1t
    mean = sum(acc.values()) / len(acc) if acc else 1.0
    return {uf: v / mean for uf, v in acc.items()}


def residuos(p: ParametrosChegada, gs: list[Grupo], real: list[PontoReal], ufs: list[PontoUF]) -> list[float]:
    """Scaled residuals of the three targets (module docstring)."""
    pct, share = curva_esperada(p, gs)
    out = [(interpolar(pct, share, r.secoes_pct) - r.lula_pct) / TOL_PARTICIPACAO for r in real]
    have = {g.uf for g in gs if g.validos_1t > 0}
    peso = pesos_uf(gs)
    out += [
        math.sqrt(peso[u.uf]) * (erro_dentro_da_uf(p, gs, u.uf, u.secoes_pct) - u.erro_lula) / TOL_UF
        for u in ufs
        if u.uf in have
    ]
    if len(have) >= 3:
        model_sd = dispersao_ufs(p, gs)
        out += [(model_sd - sd) / TOL_DISPERSAO for sd in dispersao_real(ufs).values()]
    # Weak prior: per-region effects near 0 unless the data insist (some regions have 3 UFs).
    out += [v / PRIORI_SD for d in (p.tamanho, p.capital) for v in d.values()]
    return out


AJUSTADOS = (
    *(f"regiao.{r}" for r in REGIOES_AJUSTADAS),
    *(f"tamanho.{r}" for r in REGIOES_AJUSTADAS_UF),
    *(f"capital.{r}" for r in REGIOES_AJUSTADAS_UF),
    "sigma_uf",
)  # sigma_unidade is set apart, by matching variances (`escolher_sigma_unidade`)


def _vector(p: ParametrosChegada) -> list[float]:
    return [
        *(p.regiao.get(r, 0.0) for r in REGIOES_AJUSTADAS),
        *(p.tamanho.get(r, 0.0) for r in REGIOES_AJUSTADAS_UF),
        *(p.capital.get(r, 0.0) for r in REGIOES_AJUSTADAS_UF),
        p.sigma_uf,
    ]


def _from_vector(x: Sequence[float], fixed: ParametrosChegada) -> ParametrosChegada:
    n, m = len(REGIOES_AJUSTADAS), len(REGIOES_AJUSTADAS_UF)
    regiao = dict.fromkeys(REGIOES, 0.0)
    regiao.update(dict(zip(REGIOES_AJUSTADAS, x[:n], strict=True)))
    return ParametrosChegada(
        regiao=regiao,
        tamanho=dict(zip(REGIOES_AJUSTADAS_UF, x[n : n + m], strict=True)),
        capital=dict(zip(REGIOES_AJUSTADAS_UF, x[n + m : n + 2 * m], strict=True)),
        sigma_unidade=fixed.sigma_unidade,
        sigma_uf=abs(x[n + 2 * m]),
        secoes_por_lote=fixed.secoes_por_lote,
        dispersao_intra=fixed.dispersao_intra,
        relogio=fixed.relogio,
    )


def erros_simulados_dentro_da_uf(
    p: ParametrosChegada, dados: Dados2022, ufs: list[PontoUF], semente: int
) -> list[float]:
    """Lula's 1st-round error inside each target UF at its real % counted, in one simulated night."""
    mun_base = dados.bases.get("545-presidente-br-municipio")
    zone_base = dados.bases.get("545-governador-df-zona")
    comp: dict[int, tuple[float, float]] = {}
    for i, u in enumerate(dados.unidades):
        base = zone_base if u.zona else mun_base
        bp = base.partes.get(u.id) if base is not None else None
        if bp is not None and bp.validos:
            comp[i] = (bp.votos.get(13, 0) / u.secoes, bp.validos / u.secoes)
    by_uf: dict[str, list[tuple[int, float, float]]] = {}
    for lote in gerar_lotes(p, dados.unidades, semente):
        c = comp.get(lote.unidade)
        if c is not None:
            uf = dados.unidades[lote.unidade].uf
            by_uf.setdefault(uf, []).append((lote.secoes, lote.secoes * c[0], lote.secoes * c[1]))
    out = []
    for t in ufs:
        seq = by_uf.get(t.uf)
        if not seq:
            continue
        total = sum(x[0] for x in seq)
        final = 100.0 * sum(x[1] for x in seq) / sum(x[2] for x in seq)
        target = total * t.secoes_pct / 100.0
        done = lula = val = 0.0
        for sec, a, v in seq:
            if done >= target:
                break
            done, lula, val = done + sec, lula + a, val + v
        out.append(100.0 * lula / val - final if val > 0 else 0.0)
    return out


def _rms(xs: Sequence[float]) -> float:
    return math.sqrt(sum(x * x for x in xs) / len(xs)) if xs else 0.0


GRADE_SIGMA_UNIDADE = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
SEMENTES_SIGMA = 8


def escolher_sigma_unidade(
    p: ParametrosChegada, dados: Dados2022, ufs: list[PontoUF]
) -> tuple[float, list[dict[str, float]]]:
    """sigma_unidade such that the simulated within-UF errors scatter around their expected values as
    much as the real 2026 ones do around theirs (the whole real residual is taken as randomness,
    the conservative reading). Returns the choice and the table behind it."""
    gs = grupos(dados)
    have = {g.uf for g in gs if g.validos_1t > 0}
    targets = [u for u in ufs if u.uf in have]
    rows = []
    for sigma in GRADE_SIGMA_UNIDADE:
        q = ParametrosChegada(**{**p.__dict__, "sigma_unidade": sigma})
        expected = [erro_dentro_da_uf(q, gs, u.uf, u.secoes_pct) for u in targets]
        real_rms = _rms([u.erro_lula - e for u, e in zip(targets, expected, strict=True)])
        sim: list[float] = []
        for seed in range(SEMENTES_SIGMA):
            got = erros_simulados_dentro_da_uf(q, dados, targets, 10_000 + seed)
            sim += [g - e for g, e in zip(got, expected, strict=True)]
        rows.append(
            {"sigma_unidade": sigma, "rms_real": round(real_rms, 4), "rms_simulado": round(_rms(sim), 4)}
        )
    best = min(rows, key=lambda r: (abs(r["rms_simulado"] - r["rms_real"]), r["sigma_unidade"]))
    return best["sigma_unidade"], rows


def nelder_mead(
    f: Callable[[list[float]], float], x0: list[float], passo: float, iteracoes: int
) -> tuple[list[float], float]:
    """Plain deterministic Nelder-Mead minimisation (standard coefficients)."""
    n = len(x0)
    simplex = [list(x0)]
    for i in range(n):
        x = list(x0)
        x[i] += passo
        simplex.append(x)
    values = [f(x) for x in simplex]
    for _ in range(iteracoes):
        order = sorted(range(n + 1), key=lambda i: values[i])
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        if values[-1] - values[0] < 1e-9:
            break
        centroid = [sum(x[j] for x in simplex[:-1]) / n for j in range(n)]
        worst = simplex[-1]
        refl = [c + (c - w) for c, w in zip(centroid, worst, strict=True)]
        fr = f(refl)
        if fr < values[0]:
            exp = [c + 2 * (c - w) for c, w in zip(centroid, worst, strict=True)]
            fe = f(exp)
            simplex[-1], values[-1] = (exp, fe) if fe < fr else (refl, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = refl, fr
        else:
            con = [c + 0.5 * (w - c) for c, w in zip(centroid, worst, strict=True)]
            fc = f(con)
            if fc < values[-1]:
                simplex[-1], values[-1] = con, fc
            else:
                best = simplex[0]
                simplex = [best] + [
                    [b + 0.5 * (x - b) for b, x in zip(best, s, strict=True)] for s in simplex[1:]
                ]
                values = [values[0]] + [f(x) for x in simplex[1:]]
    i = min(range(n + 1), key=lambda k: values[k])
    return simplex[i], values[i]


def ajustar(
    dados: Dados2022,
    real: list[PontoReal],
    ufs: list[PontoUF],
    inicial: ParametrosChegada,
    iteracoes: int = 600,
) -> tuple[ParametrosChegada, float]:
    """Fit the parameters named in `AJUSTADOS`; returns (parameters, objective)."""
    gs = grupos(dados)

    def objective(x: list[float]) -> float:
        return sum(r * r for r in residuos(_from_vector(x, inicial), gs, real, ufs))

    x, val = _vector(inicial), 0.0
    for passo in (0.5, 0.2, 0.05):  # restarts with a shrinking simplex
        x, val = nelder_mead(objective, x, passo, iteracoes)
    return _from_vector([round(v, 6) for v in x], inicial), val


def relatorio_ajuste(
    p: ParametrosChegada, dados: Dados2022, real: list[PontoReal], ufs: list[PontoUF]
) -> dict[str, Any]:
    """Real vs expected values at every target (stored in chegada_2022.json, shown in the report)."""
    gs = grupos(dados)
    pct, share = curva_esperada(p, gs)
    nacional = [
        {
            "apurado": round(r.secoes_pct, 2),
            "lula_real": round(r.lula_pct, 3),
            "lula_esperado": round(interpolar(pct, share, r.secoes_pct), 3),
        }
        for r in real
    ]
    have = {g.uf for g in gs if g.validos_1t > 0}
    por_uf = [
        {
            "captura": u.captura,
            "uf": u.uf,
            "apurado_uf": round(u.secoes_pct, 2),
            "erro_lula_real": round(u.erro_lula, 3),
            "erro_lula_esperado": round(erro_dentro_da_uf(p, gs, u.uf, u.secoes_pct), 3),
        }
        for u in ufs
        if u.uf in have
    ]
    disp = {k: round(v, 4) for k, v in dispersao_real(ufs).items()}
    return {
        "nacional_2022": nacional,
        "dentro_da_uf_2026": por_uf,
        "dispersao_ufs_2026": {"real": disp, "modelo": round(dispersao_ufs(p, gs), 4)},
    }


INICIAL = ParametrosChegada(
    regiao={"N": 0.3, "NE": 0.3, "CO": 0.0, "SE": 0.0, "S": -0.3, "ZZ": 0.0},
    tamanho=dict.fromkeys(REGIOES_AJUSTADAS_UF, 0.0),
    capital=dict.fromkeys(REGIOES_AJUSTADAS_UF, 0.0),
    sigma_uf=0.3,
    sigma_unidade=0.5,
    secoes_por_lote=30,  # fixed: ~10,000 electors per batch
    dispersao_intra=0.13,  # fixed: s.d. of the zones' Lula-Bolsonaro logit in DF, 1st round 2022
    relogio=(),
)


def ajustar_e_descrever(
    dados: Dados2022, datasets: Path, iteracoes: int = 600
) -> tuple[ParametrosChegada, dict[str, Any]]:
    """Fit from `INICIAL` (module docstring): the fit, sigma_unidade by variance matching, the fit
    again with it; returns the parameters and the JSON object to store."""
    real = curva_real_2022(datasets)
    ufs = erros_uf_2026(datasets)
    p = ParametrosChegada(**{**INICIAL.__dict__, "relogio": relogio_real(real)})
    p, _ = ajustar(dados, real, ufs, p, iteracoes)
    sigma, tabela_sigma = escolher_sigma_unidade(p, dados, ufs)
    p = ParametrosChegada(**{**p.__dict__, "sigma_unidade": sigma})
    p, objetivo = ajustar(dados, real, ufs, p, iteracoes)
    obj = {
        "nota": "Parâmetros do modelo de ordem de chegada (model/backtest/chegada.py), ajustados por "
        "`eleicoes backtest --ajustar-chegada`. Não edite à mão.",
        "ajustados": [*AJUSTADOS, "sigma_unidade"],
        "objetivo": round(objetivo, 3),
        "tolerancias": {
            "participacao": TOL_PARTICIPACAO,
            "uf": TOL_UF,
            "dispersao": TOL_DISPERSAO,
            "priori_sd": PRIORI_SD,
        },
        "parametros": p.to_json(),
        "sigma_unidade": tabela_sigma,
        "ajuste": relatorio_ajuste(p, dados, real, ufs),
    }
    return p, obj


def parametros_bytes(obj: dict[str, Any]) -> bytes:
    """Stable bytes of the parameters file."""
    return (json.dumps(obj, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
