"""Real arrival order by region (`timeseries/regioes/`) and the simulator fitted to it.

The three real nights (2022 1st round, 2022 runoff, 2026 1st round) give, per region (5 regions plus
abroad) and per minute in which a ballot box arrived, the sections counted and the votes for 13 and
22. Here:

* each region's **progress** is taken from the real curve itself: a simulated batch that takes its
  region to x % of its sections arrives at the minute the real region reached x % (`relogios`), so
  the regional order of a replay is the real one by construction;
* **inside** a region the order is simulated: the score of a batch of unit m in UF u of region r is

      z = k * (tamanho[r] * ln(E_m / 100 000) + capital[r] * [m is a capital]) + eta_u + xi_m + eps

  (eta, xi, eps as in `chegada`), and `tamanho[r]`, `capital[r]` are fitted so that the expected
  within-region drift of Lula's share (partial share in the region minus its final share, at each
  5 % of the region's sections) matches the real one of that night (`ajustar_noite`). The vote map
  is the 2022 runoff by municipality for the runoff and the 2022 1st round (estimated counts) for
  both first rounds (no 2026 municipal results here: the 2026 fit uses 2022's map of where Lula's
  voters are, and its replay counts 2022 1st-round votes in 2026's regional order);
* `k` is the **drift scale**: 1 is the fitted night; 0.5 and 1.75 halve or stretch the systematic
  within-region order (what the UF-stratified projection's drift is made of), the range the
  calibration must survive (seed: the band "tolera que a deriva ... fique entre 25% e 175%").
"""

from __future__ import annotations

import csv
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.backtest.chegada import (
    TAMANHO_REFERENCIA,
    Grupo,
    Lote,
    ParametrosChegada,
    interpolar,
    nelder_mead,
)
from model.backtest.dados import REGIOES, Unidade

CSV_REGIOES = "timeseries/regioes/apuracao_por_minuto_regiao.csv"
PARAMETROS_REGIONAIS_PATH = Path(__file__).resolve().parent / "chegada_regional.json"
NOITES = ("2022_2t", "2022_1t", "2026_1t")
NOME_REGIAO = {
    "Norte": "N",
    "Nordeste": "NE",
    "Centro-Oeste": "CO",
    "Sudeste": "SE",
    "Sul": "S",
    "Exterior": "ZZ",
}
REGIOES_DENTRO = ("N", "NE", "CO", "SE", "S")  # abroad is one unit: no within-region order
PONTOS_AJUSTE = tuple(float(x) for x in range(5, 100, 5))  # % of the region's sections
PRIORI_SD = 2.0  # weak prior on each region's effects (score units)
LIMIARES = tuple(-10.0 + i * 0.1 for i in range(201))


@dataclass(frozen=True)
class CurvaRegiao:
    """One region's real cumulative curve: one point per minute in which a ballot box arrived."""

    regiao: str
    minuto: tuple[float, ...]  # minutes after 17:00 Brasília
    secoes: tuple[int, ...]
    secoes_total: int
    validos: tuple[int, ...]
    v13: tuple[int, ...]
    v22: tuple[int, ...]

    def pct(self, i: int) -> float:
        """% of the region's sections counted at point i."""
        return 100.0 * self.secoes[i] / self.secoes_total

    def lula(self, i: int, turno: int) -> float:
        """Lula's share at point i: of the two (runoff) or of the valid votes (1st round), %."""
        den = self.v13[i] + self.v22[i] if turno == 2 else self.validos[i]
        return 100.0 * self.v13[i] / den if den else 0.0


@dataclass(frozen=True)
class NoiteRegional:
    """A real night's regional curves."""

    id: str
    turno: int
    curvas: dict[str, CurvaRegiao]

    def minutos(self) -> list[float]:
        """Every real minute in which something arrived, in order."""
        return sorted({m for c in self.curvas.values() for m in c.minuto})


def ler_noites(datasets: Path) -> dict[str, NoiteRegional]:
    """The three real nights from the derived long CSV (every region, every minute)."""
    rows: dict[tuple[str, str], list[dict[str, str]]] = {}
    with (datasets / CSV_REGIOES).open(encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            if r["regiao"] in NOME_REGIAO:
                rows.setdefault((r["eleicao"], NOME_REGIAO[r["regiao"]]), []).append(r)
    out: dict[str, NoiteRegional] = {}
    for nid in NOITES:
        curvas = {}
        for reg in REGIOES:
            rs = sorted(rows[(nid, reg)], key=lambda r: float(r["t_min_desde_17h"]))
            curvas[reg] = CurvaRegiao(
                regiao=reg,
                minuto=tuple(float(r["t_min_desde_17h"]) for r in rs),
                secoes=tuple(int(r["secoes_acum"]) for r in rs),
                secoes_total=int(rs[0]["secoes_total"]),
                validos=tuple(int(r["validos_acum"]) for r in rs),
                v13=tuple(int(r["votos13_acum"]) for r in rs),
                v22=tuple(int(r["votos22_acum"]) for r in rs),
            )
        out[nid] = NoiteRegional(nid, 2 if nid.endswith("2t") else 1, curvas)
    return out


def relogio(c: CurvaRegiao) -> tuple[list[float], list[float]]:
    """(% of the region's sections, minute) pairs, strictly increasing in %, from 0 %."""
    xs, ys = [0.0], [max(c.minuto[0] - 1.0, 0.0)]
    for i in range(len(c.minuto)):
        p = c.pct(i)
        if p > xs[-1]:
            xs.append(p)
            ys.append(c.minuto[i])
    return xs, ys


@dataclass(frozen=True)
class EfeitosRegiao:
    """Fitted within-region order of one night: size and capital effects per region."""

    tamanho: dict[str, float]
    capital: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        """Rounded (stable bytes)."""
        return {
            "tamanho": {r: round(self.tamanho[r], 4) for r in REGIOES_DENTRO},
            "capital": {r: round(self.capital[r], 4) for r in REGIOES_DENTRO},
        }


def gerar_lotes_regionais(
    p: ParametrosChegada,
    unidades: Sequence[Unidade],
    semente: int,
    noite: NoiteRegional,
    efeitos: EfeitosRegiao,
    escala: float,
) -> list[Lote]:
    """Batches in arrival order: simulated order inside each region, the region's real clock."""
    rng = random.Random(semente)  # noqa: S311 - reproducible simulation, not cryptography
    eta = {uf: rng.gauss(0.0, p.sigma_uf) for uf in sorted({u.uf for u in unidades})}
    by_region: dict[str, list[tuple[float, int, int, int]]] = {}
    for i, u in enumerate(unidades):
        r = u.regiao
        size = math.log(max(u.eleitorado_municipio, 1) / TAMANHO_REFERENCIA)
        syst = efeitos.tamanho.get(r, 0.0) * size + (efeitos.capital.get(r, 0.0) if u.capital else 0.0)
        loc = escala * syst + eta[u.uf] + rng.gauss(0.0, p.sigma_unidade)
        k = max(1, math.ceil(u.secoes / p.secoes_por_lote))
        base, extra = divmod(u.secoes, k)
        for j in range(k):
            n = base + (1 if j < extra else 0)
            if n > 0:
                by_region.setdefault(r, []).append((loc + rng.gauss(0.0, 1.0), i, j, n))
    out: list[tuple[float, str, int, Lote]] = []
    for r, scored in sorted(by_region.items()):
        scored.sort()
        xs, ys = relogio(noite.curvas[r])
        total = sum(s for *_, s in scored)
        done, seg = 0, 1
        for pos, (_, i, _, n) in enumerate(scored):
            done += n
            x = min(100.0 * done / total, xs[-1])
            while xs[seg] < x:  # progress only grows: walk the clock once
                seg += 1
            m = ys[seg - 1] + (ys[seg] - ys[seg - 1]) * (x - xs[seg - 1]) / (xs[seg] - xs[seg - 1])
            out.append((m, r, pos, Lote(i, n, 0.0)))
    out.sort(key=lambda x: (x[0], x[1], x[2]))
    return [Lote(lo.unidade, lo.secoes, m) for m, _, _, lo in out]


# --------------------------------------------------------------------------------------------------
# Fit of the within-region order to the real within-region drift.


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _votos(g: Grupo, turno: int) -> tuple[float, float]:
    """(Lula, denominator) of a group: runoff two-party votes or 1st-round valid votes."""
    return (g.a, g.a + g.b) if turno == 2 else (g.lula_1t, g.validos_1t)


def deriva_esperada(gs: Sequence[Grupo], tamanho: float, capital: float, s: float, turno: int) -> list[float]:
    """Expected within-region drift (partial share - final share, points) at `PONTOS_AJUSTE`."""
    locs = [tamanho * g.log_tamanho + (capital if g.capital else 0.0) for g in gs]
    votes = [_votos(g, turno) for g in gs]
    total = sum(g.secoes for g in gs)
    final = 100.0 * sum(v[0] for v in votes) / sum(v[1] for v in votes)
    pct: list[float] = []
    share: list[float] = []
    for c in LIMIARES:
        sec = a = d = 0.0
        for g, loc, v in zip(gs, locs, votes, strict=True):
            f = _phi((c - loc) / s)
            sec += f * g.secoes
            a += f * v[0]
            d += f * v[1]
        if d > 0 and (not pct or 100.0 * sec / total > pct[-1] + 1e-9):
            pct.append(100.0 * sec / total)
            share.append(100.0 * a / d)
    return [interpolar(pct, share, x) - final for x in PONTOS_AJUSTE]


def deriva_real(c: CurvaRegiao, turno: int) -> list[float]:
    """Real within-region drift of Lula's share at `PONTOS_AJUSTE` (interpolated in % sections)."""
    n = len(c.minuto)
    pts = [(c.pct(i), c.lula(i, turno)) for i in range(n) if c.secoes[i] > 0]
    xs: list[float] = []
    ys: list[float] = []
    for x, y in pts:
        if not xs or x > xs[-1]:
            xs.append(x)
            ys.append(y)
    final = c.lula(n - 1, turno)
    return [interpolar(xs, ys, x) - final for x in PONTOS_AJUSTE]


@dataclass(frozen=True)
class AjusteRegiao:
    """Fit of one region on one night: parameters and real vs model drift at each point."""

    regiao: str
    tamanho: float
    capital: float
    real: tuple[float, ...]
    modelo: tuple[float, ...]

    def rms(self) -> float:
        """RMS difference model - real over the points, points of Lula's share."""
        d = [m - r for m, r in zip(self.modelo, self.real, strict=True)]
        return math.sqrt(sum(x * x for x in d) / len(d))


def ajustar_regiao(gs: Sequence[Grupo], real: Sequence[float], s: float, turno: int) -> tuple[float, float]:
    """Size and capital effects minimising the squared drift difference plus a weak prior."""

    def objective(x: list[float]) -> float:
        model = deriva_esperada(gs, x[0], x[1], s, turno)
        fit = sum((m - r) ** 2 for m, r in zip(model, real, strict=True))
        return fit / 0.05**2 + (x[0] ** 2 + x[1] ** 2) / PRIORI_SD**2

    x, _ = nelder_mead(objective, [0.0, 0.0], 0.5, 120)
    return round(x[0], 4), round(x[1], 4)


def ajustar_noite(
    p: ParametrosChegada, gs: Sequence[Grupo], noite: NoiteRegional
) -> tuple[EfeitosRegiao, list[AjusteRegiao]]:
    """Fit every region of `noite` (module docstring)."""
    s = math.sqrt(1.0 + p.sigma_uf**2 + p.sigma_unidade**2)
    tam, cap, rel = {}, {}, []
    for r in REGIOES_DENTRO:
        sel = [g for g in gs if g.regiao == r and _votos(g, noite.turno)[1] > 0]
        real = deriva_real(noite.curvas[r], noite.turno)
        t, c = ajustar_regiao(sel, real, s, noite.turno)
        tam[r], cap[r] = t, c
        model = deriva_esperada(sel, t, c, s, noite.turno)
        rel.append(AjusteRegiao(r, t, c, tuple(real), tuple(model)))
    return EfeitosRegiao(tam, cap), rel


def ajustes_json(ajustes: dict[str, list[AjusteRegiao]], efeitos: dict[str, EfeitosRegiao]) -> dict[str, Any]:
    """The stored fit (`chegada_regional.json`)."""
    return {
        "nota": "Ordem dentro de cada região ajustada à deriva real de cada região "
        "(timeseries/regioes); gerado por `eleicoes backtest-regional --ajustar`. Não edite à mão.",
        "pontos_pct": list(PONTOS_AJUSTE),
        "noites": {
            nid: {
                **efeitos[nid].to_json(),
                "ajuste": {
                    a.regiao: {
                        "deriva_real": [round(v, 3) for v in a.real],
                        "deriva_modelo": [round(v, 3) for v in a.modelo],
                        "rms": round(a.rms(), 3),
                    }
                    for a in ajustes[nid]
                },
            }
            for nid in NOITES
        },
    }


def carregar_efeitos(path: Path = PARAMETROS_REGIONAIS_PATH) -> dict[str, EfeitosRegiao]:
    """The fitted within-region effects of every night."""
    try:
        root = json.loads(path.read_bytes())
        return {
            nid: EfeitosRegiao(
                {str(k): float(v) for k, v in d["tamanho"].items()},
                {str(k): float(v) for k, v in d["capital"].items()},
            )
            for nid, d in root["noites"].items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"parâmetros regionais ilegíveis em {path}: {exc}") from exc


def json_bytes(obj: dict[str, Any]) -> bytes:
    """Stable bytes."""
    return (json.dumps(obj, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
