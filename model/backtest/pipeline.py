"""The whole backtest: replays, fit, scores, calibration file and report (what `eleicoes backtest` runs).

Pass 1 replays every night with the calibration in force (only the uncorrected shares are kept);
the calibration is fitted from them (`calibrar`); pass 2 scores every capture under the fitted
calibration, under the calibration in force, and with the fit done on half of the seeds and scored
on the other half (2-fold cross-fit). Same inputs and seeds give the same bytes: nothing here reads
a clock, and every figure is written with a fixed number of decimals.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model import VERSION, drift_fit
from model.backtest import calibrar
from model.backtest.chegada import ParametrosChegada
from model.backtest.executar import ConfigBacktest, rodar_sementes
from model.backtest.metricas import Ponto, pontuar
from model.backtest.replay import Linha, replay_pastas
from model.baselines import Baseline
from model.calibration import Calibration, parse_calibration


@dataclass(frozen=True)
class NoiteReal:
    """A real night: snapshot folders in order, and the final shares to score against."""

    id: str
    pastas: tuple[Path, ...]
    finais: dict[int, float]
    vencedor: int
    turno: int


def noite_2026_1t(datasets: Path) -> NoiteReal:
    """The two real 2026 1st-round captures, scored against the signed final national file."""
    pastas = tuple(sorted(p for p in (datasets / "tse/2026-1t-parcial").iterdir() if p.is_dir()))
    final = json.loads((datasets / "tse/2026-1t-final/presidente-uf/br-c0001-e006257-u.json").read_bytes())
    vv = int(final["v"]["vv"])
    votes = {
        int(c["n"]): int(c["vap"]) for a in final["carg"][0]["agr"] for par in a["par"] for c in par["cand"]
    }
    finais = {n: 100.0 * v / vv for n, v in votes.items()}
    return NoiteReal("real-2026-1t", pastas, finais, max(votes, key=lambda n: (votes[n], -n)), 1)


@dataclass
class Resultado:
    """Everything the backtest produces (bytes and figures; written by `escrever`)."""

    config: ConfigBacktest
    params: ParametrosChegada
    linhas: list[Linha]
    reais: dict[str, list[Linha]]
    calibracao: dict[str, Any]
    calibracao_bytes: bytes
    calibracao_vigente: Calibration
    calibracao_nova: Calibration
    pontos: dict[str, list[Ponto]]
    insumos_sha256: str


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


INSUMOS = (
    "results/pres_2t_2022_mun.csv",
    "results/gov_2t_2022_mun.csv",
    "results/votos_presidente_1t_2022.csv",
    "results/545/br/br.json",
    "results/545/br/states.json",
    "tse/2022/ele2022_544/mun-e000544-cm.json",
    "tse/2022/ele2022_544/df97012-c0001-e000544-v.json",
    "tse/2022/ele2022_544/br-c0001-e000544-v.json",
    "tse/2022/ele2022_544/br-c0001-e000544-001-f.json",
    "timeseries/2022/apuracao.txt",
    "timeseries/2026/pres_br_1t_2026_points.csv",
)


def digest_insumos(cfg: ConfigBacktest, params: ParametrosChegada) -> str:
    """SHA-256 over the input files, the arrival parameters, the configuration, the model version and
    the source files of `model/` (so a calibration's name changes whenever what produced it does)."""
    h = hashlib.sha256()
    for rel in INSUMOS:
        h.update(rel.encode() + b"\0" + _sha(cfg.datasets / rel).encode() + b"\n")
    for p in sorted((cfg.datasets / "tse/2026-1t-parcial").rglob("*.json")):
        h.update(p.name.encode() + b"\0" + _sha(p).encode() + b"\n")
    conf = dataclasses.asdict(cfg) | {"datasets": ""}
    h.update(json.dumps(conf, sort_keys=True, default=str).encode())
    h.update(json.dumps(params.to_json(), sort_keys=True).encode())
    h.update(VERSION.encode())
    # The code that produced it: the model and the backtest sources.
    root = Path(__file__).resolve().parents[1]
    for src in sorted(root.rglob("*.py")):
        h.update(str(src.relative_to(root)).encode() + b"\0" + _sha(src).encode() + b"\n")
    return h.hexdigest()


def identificacao(cfg: ConfigBacktest, digest: str) -> str:
    """Versioned id of the fitted calibration: data, model version, seeds and an input digest."""
    escopo = "" if cfg.ufs is None else "-" + "".join(cfg.ufs)
    # The digest covers the seeds, the settings and every input file.
    return f"bt2022sim{escopo}-v{VERSION.replace('.', '')}-n{cfg.sementes}-{digest[:8]}"


def calibration_bytes(obj: dict[str, Any]) -> bytes:
    """Stable serialization of a calibration object (same layout as model/calibracao.json)."""
    return (json.dumps(obj, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def series_reais(datasets: Path) -> dict[str, list[tuple[float, float]]]:
    """Real national partial errors (2022 runoff, 2026 1st round) of candidate 13, by % counted."""
    return {
        "2022_2turno": drift_fit.series_2022(datasets),
        "2026_1turno": drift_fit.series_2026(datasets),
    }


TEXTOS = {
    "nota": "Calibração AJUSTADA PELO BACKTEST (eleicoes backtest; docs/BACKTEST.md): noites simuladas do 2º "
    "turno de 2022 com ordem de chegada modelada (não a ordem real dos boletins), mais o teste "
    "independente nas capturas reais do 1º turno de 2026. Regras de cada tabela em "
    "model/backtest/calibrar.py.",
    "deriva": "Média, sobre as noites simuladas do 2º turno de 2022, do erro da projeção por UF sem correção "
    "(candidato 13), interpolada em cada ponto da grade; constante abaixo de 10%; 0 a 100%.",
    "erro_parcial": "Maior entre o erro absoluto médio da parcial nacional bruta nas noites simuladas e "
    "o erro das séries reais (2º turno 2022, timeseries/2022/apuracao.txt; 1º turno 2026, "
    "timeseries/2026/pres_br_1t_2026_points.csv). Usada também para governador.",
}


def executar(
    cfg: ConfigBacktest,
    params: ParametrosChegada,
    vigente: Calibration,
    baselines: dict[str, Baseline],
    *,
    noites_reais: Sequence[NoiteReal] = (),
    processos: int = 1,
    progresso: Callable[[int], None] | None = None,
) -> Resultado:
    """Run the whole backtest (module docstring); nothing is written here."""
    linhas = rodar_sementes(cfg, params, vigente, processos, progresso) if cfg.sementes > 0 else []
    reais: dict[str, list[Linha]] = {}
    for n in noites_reais:
        reais[n.id] = replay_pastas(
            n.id, n.pastas, finais=n.finais, vencedor=n.vencedor, cal=vigente, baselines=baselines
        )
    reais_1t = [ln for n in noites_reais if n.turno == 1 for ln in reais[n.id]]
    digest = digest_insumos(cfg, params)
    ident = identificacao(cfg, digest)
    prov = {
        "versao_modelo": VERSION,
        "nota": TEXTOS["nota"],
        "deriva": TEXTOS["deriva"],
        "erro_parcial": TEXTOS["erro_parcial"],
        "backtest": {
            "comando": "eleicoes backtest",
            "sementes": cfg.sementes,
            "semente_inicial": cfg.semente_inicial,
            "capturas_por_noite": cfg.capturas,
            "sementes_governador": min(cfg.sementes, cfg.sementes_governador),
            "sementes_1turno": min(cfg.sementes, cfg.sementes_1t),
            "ufs": list(cfg.ufs) if cfg.ufs is not None else None,
            "noites_reais": [n.id for n in noites_reais],
            "insumos_sha256": digest,
            "chegada": params.to_json(),
        },
    }
    reais_series = series_reais(cfg.datasets)
    obj = calibrar.ajustar(linhas, reais_1t, vigente, ident, prov, reais_series)
    raw = calibration_bytes(obj)
    nova = parse_calibration(raw)
    pontos = pontuar_tudo(linhas, reais, nova, vigente, reais_1t, reais_series, prov)
    return Resultado(cfg, params, linhas, reais, obj, raw, vigente, nova, pontos, digest)


def _half(linhas: Sequence[Linha], par: bool) -> list[Linha]:
    return [ln for ln in linhas if ln.noite.startswith("sim-") and (int(ln.noite[4:]) % 2 == 0) == par]


def pontuar_tudo(
    linhas: Sequence[Linha],
    reais: dict[str, list[Linha]],
    nova: Calibration,
    vigente: Calibration,
    reais_1t: Sequence[Linha],
    reais_series: dict[str, list[tuple[float, float]]],
    prov: dict[str, Any],
) -> dict[str, list[Ponto]]:
    """Score sets by name (docs/BACKTEST.md explains each)."""
    uf = [ln for ln in linhas if ln.disputa == "presidente" and ln.variante == "uf"]
    mun = [ln for ln in linhas if ln.disputa == "presidente" and ln.variante == "municipio"]
    out: dict[str, list[Ponto]] = {
        "presidente_uf": [pontuar(ln, nova) for ln in uf],
        "presidente_uf_vigente": [pontuar(ln, vigente) for ln in uf],
        "presidente_municipio": [pontuar(ln, nova) for ln in mun],
        "governador_municipio": [pontuar(ln, nova) for ln in linhas if ln.variante == "governador_municipio"],
        "governador_zona": [pontuar(ln, nova) for ln in linhas if ln.variante == "governador_zona"],
        "presidente_1t": [pontuar(ln, nova) for ln in linhas if ln.disputa == "presidente-1t"],
    }
    mun_curve = nova  # the municipal variant with its own drift curve, when fitted
    own = calibrar.curva_media(calibrar.replays(mun), calibrar.erro_sem) if mun else None
    if own is not None:
        mun_curve = dataclasses.replace(nova, deriva_pp=tuple(calibrar.arredondar(own)))
        out["presidente_municipio_curva_propria"] = [pontuar(ln, mun_curve) for ln in mun]
    # Matched captures: the UF replays at exactly the captures the municipal variant was scored on.
    keys = {(ln.noite, ln.captura) for ln in mun}
    out["presidente_uf_pareado"] = [
        p for p in out["presidente_uf"] if (p.linha.noite, p.linha.captura) in keys
    ]
    # 2-fold cross-fit: calibration fitted on one half of the seeds, scored on the other.
    cv: list[Ponto] = []
    for par in (True, False):
        fit_lines = _half(linhas, par)
        test_lines = [
            ln for ln in _half(linhas, not par) if ln.disputa == "presidente" and ln.variante == "uf"
        ]
        if not fit_lines or not test_lines:
            continue
        obj = calibrar.ajustar(fit_lines, reais_1t, vigente, "validacao-cruzada", prov, reais_series)
        half_cal = parse_calibration(calibration_bytes(obj))
        cv += [pontuar(ln, half_cal) for ln in test_lines]
    out["presidente_uf_validacao_cruzada"] = sorted(cv, key=lambda p: (p.linha.noite, p.linha.captura))
    for nid, lines in reais.items():
        out[nid] = [pontuar(ln, nova) for ln in lines]
    return out
