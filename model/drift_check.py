"""Live check of the drift correction (president, runoff).

Seed: `presidente_sem_correcao` is "acionável ... se a deriva de 2026 se mostrar diferente da de 2022
durante a noite". As UFs finish, their late-count drift is known: at every earlier reading, each
finished UF's projection (its counted share, the ratio estimate) minus its final share. Weighted by
the UFs' valid votes this is what they added to the national projection's drift. The curve's
prediction for a UF is the curve at *that UF's own* % of sections counted then (a UF that finishes
early was far along when the country was not; comparing it with the curve at the national % would
read every early UF as drift-free). The observed/predicted ratio (weighted least squares over every
finished UF x earlier reading with the UF between `apurado_min` and `apurado_max` % of its
sections) is compared with `faixa_tolerada`; outside it, the projection drops the correction and uses
the `presidente_sem_correcao` band for the rest of the night (once out, it stays out).

The sums the ratio needs do not depend on the final share (num = sum w (s - f) d = w (S1 - f S0)),
so each output carries, per UF, the running sums over the night's readings so far (`acumulado`:
readings, sum d, sum s*d, sum d^2, rounded) and the next reading needs only the previous output.
Pure and deterministic: same outputs in order give the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from model.calibration import Calibration
from model.drift import drift_at

CASAS = 6  # decimals of the running sums stored in the output (the next reading reuses them as stored)


@dataclass(frozen=True)
class ParteLida:
    """One UF at one reading: the reference candidate's share of the two, valid votes, % sections."""

    participacao: float
    validos: int
    secoes_pct: float

    @property
    def final(self) -> bool:
        """Every section counted."""
        return self.secoes_pct >= 100.0


def partes_lidas(saida: Mapping[str, Any], referencia: int) -> dict[str, ParteLida]:
    """Two-candidate parts of one model output with something counted, by part id."""
    out = {}
    for e in saida["estratos"]:
        cands = {int(k): float(v) for k, v in e["candidatos"].items()}
        total = sum(cands.values())
        if len(cands) != 2 or referencia not in cands or not e["valido"] or not e["validos"] or total <= 0:
            continue
        if e["secoes_pct"] is None:
            continue
        out[str(e["id"])] = ParteLida(
            100.0 * cands[referencia] / total, int(e["validos"]), float(e["secoes_pct"])
        )
    return out


Soma = tuple[int, float, float, float]  # readings, sum d, sum s*d, sum d^2


@dataclass(frozen=True)
class Verificacao:
    """Result of the check at one reading (`to_json` gives the output's Portuguese keys)."""

    estado: str  # nao_aplicavel, desativada, dados_insuficientes, dentro, fora
    razao: float | None = None
    faixa: tuple[float, float] | None = None
    ufs_finalizadas: int = 0
    peso_pct: float = 0.0
    leituras: int = 0
    acumulado: dict[str, Soma] = field(default_factory=dict)

    @property
    def fora(self) -> bool:
        """True when the correction must be dropped."""
        return self.estado == "fora"

    def to_json(self) -> dict[str, Any]:
        """The `verificacao_deriva` object of `saida.json`."""
        return {
            "estado": self.estado,
            "razao_observada": None if self.razao is None else round(self.razao, 3),
            "faixa_tolerada": None if self.faixa is None else list(self.faixa),
            "ufs_finalizadas": self.ufs_finalizadas,
            "peso_ufs_finalizadas_pct": round(self.peso_pct, 2),
            "leituras_usadas": self.leituras,
            "acao": "sem_correcao" if self.fora else "correcao_mantida",
            "acumulado": {k: list(v) for k, v in sorted(self.acumulado.items())},
        }


def estado_anterior(saida: Mapping[str, Any] | None) -> tuple[bool, dict[str, Soma]]:
    """(already out of range, running sums) from the previous output; a malformed one restarts."""
    if saida is None:
        return False, {}
    try:
        v = saida.get("verificacao_deriva") or {}
        acc = {
            str(k): (int(x[0]), float(x[1]), float(x[2]), float(x[3]))
            for k, x in (v.get("acumulado") or {}).items()
        }
        return v.get("estado") == "fora", acc
    except (AttributeError, TypeError, ValueError, IndexError):
        return False, {}


def verificar(
    cal: Calibration, anterior: Mapping[str, Any] | None, partes: Mapping[str, ParteLida]
) -> Verificacao:
    """The check at this reading (`partes`), given the previous output `anterior` (module docstring)."""
    regra = cal.verificacao_deriva
    if regra is None:
        return Verificacao("desativada")
    faixa = (regra.razao_min, regra.razao_max)
    sticky, acc = estado_anterior(anterior)
    for uf, p in partes.items():
        if regra.apurado_min <= p.secoes_pct <= regra.apurado_max:
            d = drift_at(cal, p.secoes_pct)
            n, s0, s1, s2 = acc.get(uf, (0, 0.0, 0.0, 0.0))
            acc[uf] = (
                n + 1,
                round(s0 + d, CASAS),
                round(s1 + p.participacao * d, CASAS),
                round(s2 + d * d, CASAS),
            )
    done = {uf: p for uf, p in partes.items() if p.final}
    total = sum(p.validos for p in partes.values())
    peso = 100.0 * sum(p.validos for p in done.values()) / total if total else 0.0
    num = den = 0.0
    used = 0
    for uf, p in done.items():
        n, s0, s1, s2 = acc.get(uf, (0, 0.0, 0.0, 0.0))
        num += p.validos * (s1 - p.participacao * s0)
        den += p.validos * s2
        used += n
    razao = num / den if den > 0 else None
    args = (razao, faixa, len(done), peso, used, acc)
    if sticky:
        return Verificacao("fora", *args)
    if razao is None or peso < regra.peso_minimo_pct or used < regra.leituras_minimas:
        return Verificacao("dados_insuficientes", *args)
    return Verificacao("dentro" if faixa[0] <= razao <= faixa[1] else "fora", *args)
