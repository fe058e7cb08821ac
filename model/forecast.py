"""The projection as one pure function: a snapshot's raw bytes + baselines + calibration -> output dict.

Implements the seed's steps (seeds/metodologia-projecao.txt, "O que a projeção faz"); each rule
lives in its own module (strata, swing, drift, bands, criteria) and this module assembles them.
No I/O here: the CLI and the polling job read the files and serialize the result with `to_json_bytes`.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from model import VERSION
from model.bands import error_source, expected_error, half_width, margin_half_width, partial_error
from model.baselines import Baseline, BasePart, baseline_key
from model.calibration import Calibration
from model.cobertura import Cobertura, CoverageError, confirmation, coverage_name, parse_coverage_file
from model.criteria import Measurements, evaluate
from model.drift import corrected_shares
from model.drift_check import Verificacao, partes_lidas, verificar
from model.snapshot import Snapshot
from model.strata import (
    CARGO_CODES,
    ELECTIONS,
    MODE_GOV_DEGRADED,
    MODE_GOV_MUN,
    MODE_GOV_ZONE,
    MODE_PRESIDENT_MUN,
    PartSpec,
    Plan,
    file_time,
    infer_election,
    plan_parts,
)
from model.swing import SwingObservation, apply_swing, mean_swing, two_party_share
from model.tse_files import (
    BRASILIA,
    ResultRecord,
    TseFormatError,
    candidate_set_problems,
    consistency_problems,
    count_value,
    decrease_problems,
    load_json,
    parse_file_name,
    parse_result,
)

PCT_DECIMALS = 4  # every percentage in the output is rounded to 4 decimals (round half even)
MIN_DECIMALS = 2  # minutes in the criteria

# Expected `tpabr` of each level (TSE-FORMAT.md §2.3).
LEVEL_TPABR = {"uf": "uf", "municipio": "mu", "zona": "zona", "br": "br"}


class ProjectionError(ValueError):
    """The request itself is unusable (unknown cargo, missing UF); Portuguese message."""


@dataclass
class Reading:
    """One file's reading after every validity check."""

    arquivo: str
    record: ResultRecord | None = None
    valido: bool = False
    categoria: str = "ausente"  # "ok", "ausente" (no valid reading) or "inconsistente"
    motivo: str | None = None
    preservado: bool = False
    hora: dt.datetime | None = None
    recusado: str | None = None  # a new reading of this file was refused in this capture, and why
    # President by municipality: the coverage file that proves this reading current, and as of when
    # (its `dg/hg`; `confirm_by_coverage`). The time rows then take the later of the two times.
    confirmado_por: str | None = None
    confirmado_em: dt.datetime | None = None

    @property
    def hora_efetiva(self) -> dt.datetime | None:
        """The time the seed's time rows compare: the file's, or the confirming coverage's if later."""
        if self.hora is None or self.confirmado_em is None:
            return self.hora
        return max(self.hora, self.confirmado_em)


@dataclass
class PartOutcome:
    """A part after projection."""

    spec: PartSpec
    reading: Reading
    eleitorado: int | None
    eleitorado_totalizado: int
    validos: int
    restantes: float
    base: str
    votos: dict[int, int]
    projetados: dict[int, float] = field(default_factory=dict)
    contado: bool = False  # something counted: valid reading with totalized electorate and valid votes


def round_half_up(x: float) -> int:
    """Votes as integers: floor(x + 0.5)."""
    return math.floor(x + 0.5)


def _pct(x: float) -> float:
    return round(x, PCT_DECIMALS)


def read_file(
    snapshot: Snapshot,
    arquivo: str,
    nivel: str,
    parte: str,
    expected: tuple[str, int, int],
    anterior: Snapshot | None,
    linha: str | None = None,
) -> Reading:
    """Read and validate one file of the snapshot; never raises on bad data.

    `linha` picks the row whose `cdabr` is that code in a multi-row 2022 `-v` file (a DF zone).
    """
    out = Reading(arquivo=arquivo)
    if snapshot.erro_captura is not None:
        out.motivo = snapshot.erro_captura
        return out
    entry = snapshot.captura.get(arquivo)
    raw = snapshot.arquivos.get(arquivo)
    if entry is None and raw is None:
        out.motivo = "arquivo ausente"
        return out
    if entry is None:
        out.motivo = "arquivo sem registro em captura.json"
        return out
    # A refused reading with no earlier valid one leaves no body (status None): it still counts
    # against "arquivos do TSE válidos e consistentes", not only as a part without a valid file.
    out.recusado = entry.recusado
    if entry.recusado is not None and raw is None:
        out.motivo = entry.recusado
        return out
    if entry.status != 200:
        out.motivo = f"TSE respondeu status {entry.status}" if entry.status is not None else "status ausente"
        return out
    if raw is None:
        out.motivo = "arquivo ausente"
        return out
    out.preservado = entry.preservado
    fname = parse_file_name(arquivo)
    try:
        records = parse_result(raw, fname.formato if fname else "u")
    except TseFormatError as exc:
        out.categoria, out.motivo = "inconsistente", str(exc)
        return out
    want_tpabr = LEVEL_TPABR[nivel]
    matching = _rows(records, want_tpabr, linha)
    if not matching:
        what = f"{want_tpabr} {linha}" if linha else want_tpabr
        out.categoria, out.motivo = "inconsistente", f"nenhuma abrangência {what} no arquivo"
        return out
    rec = matching[0]
    out.record = rec
    problems: list[str] = []
    eleicao, turno, cargo = expected
    if rec.eleicao != eleicao:
        problems.append(f"eleição {rec.eleicao} (esperada {eleicao})")
    if rec.turno != turno:
        problems.append(f"turno {rec.turno} (esperado {turno})")
    if rec.cargo is not None and rec.cargo != cargo:
        problems.append(f"cargo {rec.cargo} (esperado {cargo})")
    if rec.tpabr != want_tpabr:
        problems.append(f"abrangência {rec.tpabr} (esperada {want_tpabr})")
    elif not _cdabr_matches(rec.cdabr, nivel, parte):
        problems.append(f"código da abrangência {rec.cdabr} não corresponde a {parte}")
    problems += consistency_problems(rec)
    if not problems and anterior is not None:
        problems += _decrease(anterior, arquivo, nivel, rec, linha)
    if problems:
        out.categoria, out.motivo = "inconsistente", "; ".join(problems)
        return out
    out.valido, out.categoria = True, "ok"
    out.hora = file_time(rec.gerado_em, rec.totalizado_local, parte[:2])
    return out


def _cdabr_matches(cdabr: str, nivel: str, parte: str) -> bool:
    if nivel == "br":
        return cdabr == "br"
    if nivel == "uf":
        return cdabr == parte[:2]
    if nivel == "municipio":
        return cdabr.zfill(5) == parte[2:7]
    return cdabr.zfill(4) == parte[-4:]


def _rows(records: list[ResultRecord], tpabr: str, linha: str | None) -> list[ResultRecord]:
    if linha is not None:
        return [r for r in records if r.tpabr == tpabr and r.cdabr == linha]
    return [r for r in records if r.tpabr == tpabr] if len(records) > 1 else records


def _decrease(
    anterior: Snapshot, arquivo: str, nivel: str, rec: ResultRecord, linha: str | None = None
) -> list[str]:
    raw = anterior.arquivos.get(arquivo)
    entry = anterior.captura.get(arquivo)
    if raw is None or (entry is not None and entry.status != 200):
        return []
    fname = parse_file_name(arquivo)
    try:
        prev = parse_result(raw, fname.formato if fname else "u")
    except TseFormatError:
        return []
    match = _rows(prev, LEVEL_TPABR[nivel], linha)
    # Only a valid reading is a reference: a refused one must never refuse the valid ones after it.
    if not match or consistency_problems(match[0]):
        return []
    return candidate_set_problems(rec, match[0]) + decrease_problems(rec, match[0])


def _baseline_for(
    baselines: dict[str, Baseline], eleicao: str, cargo: str, uf: str, nivel: str
) -> Baseline | None:
    return baselines.get(baseline_key(eleicao, cargo, uf, nivel))


@dataclass(frozen=True)
class Race:
    """What a projection needs besides the readings: plan, baseline and the race's identity."""

    plan: Plan
    base: Baseline | None
    cargo: str
    uf: str  # "br" for the president, the lower-case UF for a governor
    eleicao: str
    turno: int

    @property
    def expected(self) -> tuple[str, int, int]:
        """(election, round, cargo code) every file of the race must carry."""
        return (self.eleicao, self.turno, CARGO_CODES[self.cargo])


def prepare_race(
    nomes: Iterable[str],
    *,
    baselines: dict[str, Baseline],
    cargo: str = "presidente",
    uf: str | None = None,
    eleicao: str | None = None,
) -> Race:
    """Mode, parts and baseline of a race from the snapshot's file names (no file content read)."""
    nomes = list(nomes)
    if cargo not in CARGO_CODES:
        raise ProjectionError(f"cargo desconhecido: {cargo} (use presidente ou governador)")
    uf_l = (uf or "").lower() or None
    if cargo == "governador" and uf_l is None:
        ufs = {f.uf for f in map(parse_file_name, nomes) if f and f.cargo == 3}
        if len(ufs) != 1:
            raise ProjectionError("informe a UF do governador (--uf)")
        uf_l = ufs.pop()
    ele = eleicao or infer_election(nomes, cargo, uf_l)
    if ele is None:
        ele = "6258" if cargo == "presidente" else "6260"
    ele = str(int(ele)) if ele.isdigit() else ele
    known = ELECTIONS.get(ele)
    turno = known.turno if known else 2
    uf_key = "br" if cargo == "presidente" else (uf_l or "")
    nivel_guess = plan_parts(nomes, cargo, uf_l, ele, ()).nivel
    base = _baseline_for(baselines, ele, cargo, uf_key, nivel_guess)
    plan = plan_parts(nomes, cargo, uf_l, ele, base.partes if base else ())
    return Race(plan=plan, base=base, cargo=cargo, uf=uf_key, eleicao=ele, turno=turno)


def snapshot_race(snapshot: Snapshot) -> tuple[str, str | None]:
    """(cargo, UF) of the race a snapshot holds: as its `captura.json` records it, else from the
    file names (any president file: the president; only governor files of one UF: that governor)."""
    if snapshot.cargo is not None:
        return snapshot.cargo, snapshot.uf
    files = [f for f in map(parse_file_name, [*snapshot.arquivos, *snapshot.captura]) if f is not None]
    if any(f.cargo == CARGO_CODES["presidente"] for f in files):
        return "presidente", None
    governor_ufs = {f.uf for f in files if f.cargo == CARGO_CODES["governador"]}
    if len(governor_ufs) > 1:
        raise ProjectionError("o snapshot tem arquivos de governador de mais de uma UF: informe --uf")
    if governor_ufs:
        return "governador", governor_ufs.pop()
    return "presidente", None


def _coverage_electorate(cobertura: dict[str, bytes]) -> dict[str, int]:
    """{part id: electorate} from the coverage files (`<uf>-e<ele>-ab.json`, TSE-FORMAT.md §3).

    Unreadable files or rows are skipped: this only fills the electorate of parts without a file.
    """
    out: dict[str, int] = {}
    for nome, raw in sorted(cobertura.items()):
        try:
            root = load_json(raw, nome)
        except TseFormatError:
            continue
        rows = root.get("abr") if isinstance(root, dict) else None
        for row in rows if isinstance(rows, list) else []:
            if not isinstance(row, dict):
                continue
            bloco = row.get("e")
            te = bloco.get("te") if isinstance(bloco, dict) else row.get("te")
            tpabr, cdabr = str(row.get("tpabr", "")).lower(), str(row.get("cdabr", "")).lower()
            eleitorado = count_value(te)
            if eleitorado is None or eleitorado < 0:
                continue
            if tpabr in ("mu", "mun") and cdabr.isascii() and cdabr.isdigit():
                out[nome[:2] + cdabr.zfill(5)] = eleitorado
            elif tpabr == "uf" and len(cdabr) == 2:
                out[cdabr] = eleitorado
    return out


def known_electorate(
    race: Race, readings: list[Reading], snapshot: Snapshot, anterior: Snapshot | None
) -> dict[str, int]:
    """Electorate of the parts with no valid reading, from the previous capture's file of the part,
    else the coverage files kept with the snapshot, so a missing file never shrinks the denominator."""
    missing = [(p, rd) for p, rd in zip(race.plan.partes, readings, strict=True) if not rd.valido]
    if not missing:
        return {}
    out: dict[str, int] = {}
    coverage: dict[str, int] | None = None
    for spec, _ in missing:
        raw = anterior.arquivos.get(spec.arquivo) if anterior is not None else None
        if raw is not None:
            fname = parse_file_name(spec.arquivo)
            try:
                rows = _rows(
                    parse_result(raw, fname.formato if fname else "u"),
                    LEVEL_TPABR[spec.nivel or race.plan.nivel],
                    spec.linha,
                )
            except TseFormatError:
                rows = []
            if rows and rows[0].eleitorado > 0:
                out[spec.id] = rows[0].eleitorado
                continue
        if coverage is None:
            coverage = _coverage_electorate(snapshot.cobertura)
        if spec.id in coverage:
            out[spec.id] = coverage[spec.id]
    return out


def project(
    snapshot: Snapshot,
    *,
    calibracao: Calibration,
    baselines: dict[str, Baseline],
    cargo: str | None = None,
    uf: str | None = None,
    eleicao: str | None = None,
    agora: dt.datetime | None = None,
    anterior: Snapshot | None = None,
    corrigir_deriva: bool = True,
    saida_anterior: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Project the final result of one race from one snapshot (the seed's whole method).

    `cargo=None` takes the race the snapshot holds (`snapshot_race`). `agora` is "now" for the
    freshness criteria (default: the latest `baixado_em`); `anterior` is the previous reading, for
    the decreasing-totals check and the electorate of missing parts; `corrigir_deriva=False` is the
    seed's `presidente_sem_correcao` configuration; `saida_anterior` the race's previous output,
    which carries the live drift check's state (`model/drift_check.py`).
    """
    if cargo is None:
        cargo, uf_snap = snapshot_race(snapshot)
        uf = uf or uf_snap
    # Files the poller asked for count even when no bytes came back: a municipal file that failed
    # to download is a missing part, not a sign that the TSE does not publish municipal files.
    nomes = sorted(set(snapshot.arquivos) | set(snapshot.captura))
    race = prepare_race(nomes, baselines=baselines, cargo=cargo, uf=uf, eleicao=eleicao)
    plan = race.plan
    readings = [
        read_file(snapshot, p.arquivo, p.nivel or plan.nivel, p.id, race.expected, anterior, p.linha)
        for p in plan.partes
    ]
    if plan.modo == MODE_PRESIDENT_MUN:
        confirm_by_coverage(snapshot, plan, readings)
    aggregate: Reading | None = None
    if plan.agregado is not None:
        agg_level = "br" if cargo == "presidente" else "uf"
        aggregate = (
            readings[0]
            if plan.modo == MODE_GOV_DEGRADED
            else read_file(snapshot, plan.agregado, agg_level, race.uf, race.expected, anterior)
        )
    _same_candidates([*readings, *([aggregate] if aggregate is not None else [])])
    return project_readings(
        race,
        readings,
        aggregate,
        calibracao=calibracao,
        agora=agora or snapshot.latest_download(),
        corrigir_deriva=corrigir_deriva,
        eleitorado_conhecido=known_electorate(race, readings, snapshot, anterior),
        saida_anterior=saida_anterior,
    )


def confirm_by_coverage(snapshot: Snapshot, plan: Plan, readings: list[Reading]) -> None:
    """President by municipality: mark each valid municipal reading still counting that the
    snapshot's coverage file of its UF proves current (`model/cobertura.py`, `confirmation`).

    The poller does not re-ask a counting municipality whose coverage row has not moved since it
    fetched the file (`jobs/tse/agenda_municipal.py`); what it holds is then the municipality's
    state as of the coverage file's generation, and the time rows measure it at that instant
    (docs/NOITE.md, "President by municipality, live"). A missing, unreadable or stale coverage
    file confirms nothing: the file's own `hg` is what counts."""
    lidas: dict[str, Cobertura | None] = {}
    for spec, rd in zip(plan.partes, readings, strict=True):
        r = rd.record
        entry = snapshot.captura.get(spec.arquivo)
        if not rd.valido or r is None or entry is None or entry.cobertura is None or not _still_counting(rd):
            continue
        nome, carimbo = entry.cobertura
        fname = parse_file_name(spec.arquivo)
        if fname is None or nome != coverage_name(spec.id[:2], fname.eleicao):
            continue  # only the coverage file of the part's own UF and election
        if nome not in lidas:
            raw = snapshot.cobertura.get(nome)
            try:
                lidas[nome] = parse_coverage_file(raw, nome[:2]) if raw is not None else None
            except CoverageError:
                lidas[nome] = None
        quando = confirmation(lidas[nome], spec.id, carimbo, r.secoes_totalizadas, r.eleitorado_totalizado)
        if quando is not None:
            rd.confirmado_por, rd.confirmado_em = nome, quando


def _same_candidates(readings: list[Reading]) -> None:
    """The candidates of a race are the same in every file: a valid reading whose set of numbers
    differs from the one most files share (a renumbered or invented candidate in a part read for
    the first time) is refused. With no strict majority nothing is refused here (each file is still
    checked against its own previous valid reading)."""
    sets: dict[int, frozenset[int]] = {}
    for r in readings:
        if r.valido and r.record is not None:
            sets[id(r)] = frozenset(c.numero for c in r.record.candidatos)
    counts: dict[frozenset[int], int] = {}
    for conjunto in sets.values():
        counts[conjunto] = counts.get(conjunto, 0) + 1
    if len(counts) < 2:
        return
    ref, n = max(counts.items(), key=lambda kv: (kv[1], sorted(kv[0])))
    if 2 * n <= len(sets):
        return
    for r in readings:
        proprio = sets.get(id(r))
        if proprio is not None and proprio != ref:
            novos, ausentes = sorted(proprio - ref), sorted(ref - proprio)
            detalhe = "; ".join(
                t
                for t in (
                    "novos: " + ", ".join(map(str, novos)) if novos else "",
                    "ausentes: " + ", ".join(map(str, ausentes)) if ausentes else "",
                )
                if t
            )
            r.valido, r.categoria = False, "inconsistente"
            r.motivo = f"candidatos diferentes dos das outras partes da corrida ({detalhe})"


def _simulated(readings: list[Reading], aggregate: Reading | None) -> bool:
    """Whether the TSE files say they come from a simulation (`"f": "s"`): a demonstration night."""
    every = [*readings, *([aggregate] if aggregate else [])]
    return any(r.valido and r.record is not None and r.record.simulado for r in every)


def project_readings(
    race: Race,
    readings: list[Reading],
    aggregate: Reading | None,
    *,
    calibracao: Calibration,
    agora: dt.datetime | None,
    corrigir_deriva: bool = True,
    eleitorado_conhecido: dict[str, int] | None = None,
    saida_anterior: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The projection from readings already made (one per part of `race.plan`, in order).

    `saida_anterior` is the race's previous output (its `verificacao_deriva` carries the live drift
    check's running state; None starts it afresh).

    `project` reads and validates the files and calls this; the backtest calls it directly with
    readings built from simulated counts (tests check both paths give the same output).
    `eleitorado_conhecido` is the electorate of parts without a valid reading (`known_electorate`).
    """
    projected = _project_parts(race.plan, readings, race.base, eleitorado_conhecido or {})

    def build(corrigir: bool) -> dict[str, Any]:
        return _assemble(
            plan=race.plan,
            projected=projected,
            aggregate=aggregate,
            base=race.base,
            cal=calibracao,
            cargo=race.cargo,
            uf=race.uf,
            eleicao=race.eleicao,
            turno=race.turno,
            agora=agora,
            corrigir=corrigir,
            demonstracao=_simulated(readings, aggregate),
        )

    out = build(corrigir_deriva)
    verif = Verificacao("nao_aplicavel")
    if race.cargo == "presidente" and race.turno == 2 and corrigir_deriva:
        verif = verificar(calibracao, saida_anterior, partes_lidas(out, calibracao.deriva_candidato))
        if verif.fora:  # the night's drift left the validated range: publish without the correction
            out = build(False)
    out["verificacao_deriva"] = verif.to_json()
    return out


def _candidates(readings: list[Reading], base: Baseline | None) -> dict[int, str]:
    names: dict[int, str] = {}
    for r in readings:
        if r.valido and r.record is not None:
            for c in r.record.candidatos:
                if c.valido and not names.get(c.numero):
                    names[c.numero] = c.nome
    if not names and base is not None:
        names = dict.fromkeys(base.finalistas, "")
    return dict(sorted(names.items()))


@dataclass(frozen=True)
class _Projected:
    outcomes: list[PartOutcome]
    names: dict[int, str]
    swing: float


def _project_parts(
    plan: Plan, readings: list[Reading], base: Baseline | None, conhecido: dict[str, int]
) -> _Projected:
    names = _candidates(readings, base)
    nums = list(names)
    finalists_match = base is not None and set(base.finalistas) == set(nums)
    outcomes: list[PartOutcome] = []
    for spec, rd in zip(plan.partes, readings, strict=True):
        bp: BasePart | None = base.partes.get(spec.id) if base is not None else None
        rec = rd.record
        if rd.valido and rec is not None:
            eleitorado: int | None = rec.eleitorado
            est, vv = rec.eleitorado_totalizado, rec.vv
            votos = {n: 0 for n in nums} | {c.numero: c.votos for c in rec.candidatos if c.numero in names}
        else:
            # No valid reading: nothing counted; electorate from the previous capture or the coverage
            # files, else the baseline, else a file that parsed.
            eleitorado = conhecido.get(spec.id)
            if eleitorado is None:
                eleitorado = (
                    bp.eleitorado if bp and bp.eleitorado is not None else (rec.eleitorado if rec else None)
                )
            est, vv, votos = 0, 0, dict.fromkeys(nums, 0)
        has_counts = rd.valido and rec is not None and rec.eleitorado_totalizado > 0 and rec.vv > 0
        outcomes.append(PartOutcome(spec, rd, eleitorado, est, vv, 0.0, "parcial", votos, contado=has_counts))

    counted = [o for o in outcomes if o.contado]
    sum_vv = sum(o.validos for o in counted)
    sum_est = sum(o.eleitorado_totalizado for o in counted)
    # Valid votes per remaining voter where nothing is counted: the counted parts' aggregate rate
    # (seed: the method's own ratio "válidos ÷ eleitores já totalizados"), else the 1st round's.
    if sum_est > 0:
        rate = sum_vv / sum_est
    elif base is not None:
        be = sum(p.eleitorado or 0 for p in base.partes.values() if p.validos is not None)
        bv = sum(p.validos or 0 for p in base.partes.values() if p.eleitorado is not None)
        rate = bv / be if be > 0 else 0.0
    else:
        rate = 0.0
    agg_shares: dict[int, float] | None = None
    if sum_vv > 0:
        agg_shares = {n: sum(o.votos[n] for o in counted) / sum_vv for n in nums}
    elif finalists_match and base is not None:
        tot = {n: sum(p.votos.get(n, 0) for p in base.partes.values()) for n in nums}
        s = sum(tot.values())
        agg_shares = {n: tot[n] / s for n in nums} if s > 0 else None

    swing = 0.0
    a = b = 0
    if finalists_match and base is not None:
        a, b = sorted(base.finalistas)
        obs = []
        for o in counted:
            bp = base.partes.get(o.spec.id)
            if bp is None:
                continue
            s1 = two_party_share(bp.votos.get(a, 0), bp.votos.get(b, 0))
            s2 = two_party_share(o.votos[a], o.votos[b])
            if s1 is not None and s2 is not None:
                obs.append(SwingObservation(s1, s2, float(o.validos)))
        swing = mean_swing(obs)

    for o in outcomes:
        if o.contado:
            # Seed: remaining valid = not-yet-totalized voters × (valid ÷ totalized voters), split as counted.
            assert o.eleitorado is not None
            o.restantes = (o.eleitorado - o.eleitorado_totalizado) * o.validos / o.eleitorado_totalizado
            o.projetados = {n: o.votos[n] + o.restantes * o.votos[n] / o.validos for n in nums}
            o.base = "parcial"
            continue
        if o.eleitorado is None:
            o.base, o.restantes = "nenhuma", 0.0
            o.projetados = {n: float(o.votos[n]) for n in nums}
            continue
        o.restantes = (o.eleitorado - o.eleitorado_totalizado) * rate
        bp = base.partes.get(o.spec.id) if base is not None else None
        s1 = two_party_share(bp.votos.get(a, 0), bp.votos.get(b, 0)) if bp and finalists_match else None
        if s1 is not None:
            share_a = apply_swing(s1, swing)
            shares = {a: share_a, b: 1.0 - share_a}
            o.base = "1turno_swing"
        elif agg_shares is not None:
            shares = agg_shares
            o.base = "taxa_agregada"
        else:
            shares = dict.fromkeys(nums, 0.0)
            o.base, o.restantes = "nenhuma", 0.0
        o.projetados = {n: o.votos[n] + o.restantes * shares[n] for n in nums}
    return _Projected(outcomes, names, swing)


def _shares_json(pcts: dict[int, float]) -> dict[int, float]:
    """Round to PCT_DECIMALS; with two candidates B = 100 - A after rounding, so A + B = 100."""
    nums = sorted(pcts)
    if len(nums) == 2 and sum(pcts.values()) > 0:
        a = _pct(pcts[nums[0]])
        return {nums[0]: a, nums[1]: _pct(100.0 - a)}
    return {n: _pct(v) for n, v in pcts.items()}


def _minutes(delta: dt.timedelta) -> float:
    return round(delta.total_seconds() / 60.0, MIN_DECIMALS)


def _iso(t: dt.datetime | None) -> str | None:
    return t.astimezone(BRASILIA).isoformat() if t is not None else None


def _still_counting(rd: Reading) -> bool:
    r = rd.record
    return r is not None and r.secoes_totalizadas < r.secoes


@dataclass(frozen=True)
class Headline:
    """The calibration-dependent part of a projection: correction, band, margin and trend.

    Percentages in `pct` and `sem_correcao` are already rounded as in the output.
    """

    corrigido: bool
    modo: str
    tabela: str
    correcao: float
    faixa: float
    faixa_margem: float
    pct: dict[int, float]
    sem_correcao: dict[int, float]
    margem: float | None
    margem_entre: list[int]
    tendencia: int | str


def headline(
    *,
    cal: Calibration,
    cargo: str,
    modo_plano: str,
    turno: int,
    raw_pct: dict[int, float],
    apurado: float,
    corrigir: bool,
    projetado: bool = True,
) -> Headline:
    """Drift correction (seed 4b), band (seed "Faixa de erro"), margin and `tendencia`.

    `raw_pct` are the projected shares before correction (unrounded), `apurado` the % of the
    electorate counted. Pure: the backtest calls it again with a newly fitted calibration.
    """
    # --- drift correction (president, runoff only: seed 4b).
    apply_drift = cargo == "presidente" and corrigir and turno == 2
    if apply_drift:
        final_pct, correcao = corrected_shares(cal, raw_pct, apurado)
    else:
        final_pct, correcao = dict(raw_pct), 0.0
    if cargo == "presidente":
        modo = modo_plano if apply_drift else f"{modo_plano}_sem_correcao"
        tabela = "presidente" if apply_drift else "presidente_sem_correcao"
    else:
        modo = modo_plano
        tabela = {MODE_GOV_MUN: "governador_municipio", MODE_GOV_ZONE: "governador_zona"}.get(
            modo_plano, "governador_degradado"
        )
    faixa = half_width(cal, tabela, apurado)
    faixa_margem = margin_half_width(faixa)
    sem = _shares_json(raw_pct)
    fin = _shares_json(final_pct)

    # --- margin and trend.
    nums = sorted(raw_pct)
    top = sorted(nums, key=lambda n: (-final_pct[n], n))[:2]
    margem: float | None = None
    tendencia: int | str = "indefinido"
    margem_entre: list[int] = []
    if len(top) == 2 and projetado:
        a, b = sorted(top)
        margem = _pct(fin[a] - fin[b])
        margem_entre = [a, b]
        if abs(margem) > faixa_margem:  # seed: "só aparece quando a margem projetada é maior que a faixa"
            tendencia = a if margem > 0 else b
    return Headline(
        corrigido=apply_drift,
        modo=modo,
        tabela=tabela,
        correcao=correcao,
        faixa=faixa,
        faixa_margem=faixa_margem,
        pct=fin,
        sem_correcao=sem,
        margem=margem,
        margem_entre=margem_entre,
        tendencia=tendencia,
    )


def _assemble(
    *,
    plan: Plan,
    projected: _Projected,
    aggregate: Reading | None,
    base: Baseline | None,
    cal: Calibration,
    cargo: str,
    uf: str,
    eleicao: str,
    turno: int,
    agora: dt.datetime | None,
    corrigir: bool,
    demonstracao: bool,
) -> dict[str, Any]:
    outcomes, names = projected.outcomes, projected.names
    nums = list(names)
    total_el = sum(o.eleitorado or 0 for o in outcomes)
    valid = [o for o in outcomes if o.reading.valido]
    est_total = sum(o.eleitorado_totalizado for o in valid)
    apurado = 100.0 * est_total / total_el if total_el > 0 else 0.0

    # --- official partial: the aggregate TSE file when valid, else the sum of the valid parts.
    if aggregate is not None and aggregate.valido and aggregate.record is not None:
        ar = aggregate.record
        p_votes = {n: next((c.votos for c in ar.candidatos if c.numero == n), 0) for n in nums}
        p_vv, p_te, p_est, fonte = ar.vv, ar.eleitorado, ar.eleitorado_totalizado, aggregate.arquivo
        uncounted_known = True
    else:
        p_votes = {n: sum(o.votos[n] for o in valid) for n in nums}
        p_vv, p_te, p_est, fonte = (
            sum(o.validos for o in valid),
            total_el,
            est_total,
            "soma das partes válidas",
        )
        uncounted_known = all(o.eleitorado is not None for o in outcomes)
    parcial_pct = _shares_json({n: 100.0 * p_votes[n] / p_vv if p_vv else 0.0 for n in nums})

    # --- sum observed + estimated; percentages over projected valid votes (seed, step 4).
    proj = {n: sum(o.projetados.get(n, 0.0) for o in outcomes) for n in nums}
    proj_total = sum(proj.values())
    raw_pct = {n: 100.0 * proj[n] / proj_total if proj_total > 0 else 0.0 for n in nums}
    if plan.modo == MODE_GOV_DEGRADED:
        raw_pct = {n: 100.0 * p_votes[n] / p_vv if p_vv else 0.0 for n in nums}  # projection = partial

    hl = headline(
        cal=cal,
        cargo=cargo,
        modo_plano=plan.modo,
        turno=turno,
        raw_pct=raw_pct,
        apurado=apurado,
        corrigir=corrigir,
        projetado=proj_total > 0,
    )
    apply_drift, modo, tabela = hl.corrigido, hl.modo, hl.tabela
    correcao, faixa, faixa_margem = hl.correcao, hl.faixa, hl.faixa_margem
    sem, fin = hl.sem_correcao, hl.pct
    margem, margem_entre, tendencia = hl.margem, hl.margem_entre, hl.tendencia
    by_votes = sorted(nums, key=lambda n: (-p_votes[n], n))
    lead = p_votes[by_votes[0]] - p_votes[by_votes[1]] if len(by_votes) >= 2 else 0
    # Seed: "a vantagem em votos já é maior que todo o eleitorado ainda não totalizado".
    definido = uncounted_known and len(by_votes) >= 2 and lead > (p_te - p_est)

    estratos = []
    isos: dict[dt.datetime | None, str | None] = {}
    for o in outcomes:
        hora = o.reading.hora
        if hora not in isos:
            isos[hora] = _iso(hora)
        r = o.reading.record
        estratos.append(
            {
                "id": o.spec.id,
                "arquivo": o.spec.arquivo,
                "valido": o.reading.valido,
                "motivo": o.reading.motivo,
                "preservado": o.reading.preservado,
                "hora": isos[hora],
                **_confirmed(o.reading),
                "secoes_pct": _pct(r.secoes_pct) if r is not None and o.reading.valido else None,
                "eleitorado": o.eleitorado,
                "eleitorado_totalizado": o.eleitorado_totalizado,
                "validos": o.validos,
                "validos_restantes_estimados": round_half_up(o.restantes),
                "base": o.base,
                "candidatos": {str(n): round_half_up(o.projetados.get(n, 0.0)) for n in nums},
            }
        )

    criterios = evaluate(cargo, _measure(plan, outcomes, aggregate, cargo, total_el, agora, est_total))
    nao_atendidos = [c.rule.id for c in criterios if not c.ok]
    confianca = (
        "baixa" if apurado < 25 else ("alta" if apurado > 70 else "media")
    )  # seed: rótulo de confiança

    forecast_cands = [
        {
            "numero": n,
            "nome": names[n],
            "pct": fin[n],
            "sem_correcao": sem[n],
            "faixa": _pct(faixa),
            "intervalo": [_pct(max(fin[n] - faixa, 0.0)), _pct(min(fin[n] + faixa, 100.0))],
            "votos_projetados": round_half_up(proj[n]),
        }
        for n in nums
    ]
    return {
        "modelo": {"versao": VERSION, "calibracao": cal.id, "calibracao_sha256": cal.sha256},
        "eleicao": eleicao,
        "cargo": cargo,
        "uf": uf,
        "turno": turno,
        "modo": modo,
        "degradado": plan.modo == MODE_GOV_DEGRADED,
        "demonstracao": demonstracao,
        "agora": _iso(agora),
        "apurado_pct": _pct(apurado),
        "confianca": confianca,
        "publicavel": not nao_atendidos,
        "criterios": [c.to_json() for c in criterios],
        "criterios_nao_atendidos": nao_atendidos,
        "parcial": {
            "fonte": fonte,
            "eleitorado": p_te,
            "eleitorado_totalizado": p_est,
            "validos": p_vv,
            "candidatos": [
                {"numero": n, "nome": names[n], "votos": p_votes[n], "pct": parcial_pct[n]} for n in nums
            ],
        },
        "forecast": {
            "candidatos": forecast_cands,
            "correcao_pp": _pct(correcao),
            "correcao_candidato": cal.deriva_candidato if apply_drift else None,
            "margem": margem,
            "margem_entre": margem_entre,
            "faixa_margem": _pct(faixa_margem),
            "tendencia": tendencia,
            "definido_matematicamente": definido,
            "erro_medio_esperado": {
                "projecao": _pct(expected_error(cal, tabela, apurado)),
                "parcial": _pct(partial_error(cal, apurado)),
                # which of these figures were measured for this race type (issue 23, item 4)
                "fonte": error_source(tabela, modo).to_json(),
            },
            "tabela_faixa": tabela,
            "swing_logit": round(projected.swing, 6),
            "validos_projetados": round_half_up(proj_total),
        },
        "baseline": base.chave if base is not None else None,
        "estratos": estratos,
    }


def _measure(
    plan: Plan,
    outcomes: list[PartOutcome],
    aggregate: Reading | None,
    cargo: str,
    total_el: int,
    agora: dt.datetime | None,
    est_total: int,
) -> Measurements:
    def share(x: float) -> float:
        return 100.0 * x / total_el if total_el > 0 else 0.0

    notas: list[tuple[str, str]] = []
    isentos: set[str] = set()
    invalid_files = sum(1 for o in outcomes if o.reading.categoria == "inconsistente")
    if aggregate is not None and plan.modo != MODE_GOV_DEGRADED and aggregate.categoria == "inconsistente":
        invalid_files += 1
    # A file whose new reading the poller refused (kept in rejeitados/, last valid reading preserved)
    # counts against the criterion too, named with the reason (issue 23 point 2).
    lidos = [o.reading for o in outcomes]
    if aggregate is not None and plan.modo != MODE_GOV_DEGRADED:
        lidos.append(aggregate)
    recusados = [r for r in lidos if r.recusado is not None and r.categoria != "inconsistente"]
    invalid_files += len(recusados)
    if recusados:
        notas.append(
            ("arquivos_validos", "; ".join(f"{r.arquivo} recusado: {r.recusado}" for r in recusados[:10]))
        )
    bad = [o for o in outcomes if not o.reading.valido]
    sem_arquivo: float | None = share(sum(o.eleitorado or 0 for o in bad))
    unknown = [o.spec.id for o in bad if o.eleitorado is None]
    if unknown:
        sem_arquivo = None
        notas.append(("eleitorado_sem_arquivo_valido", f"eleitorado desconhecido em {len(unknown)} parte(s)"))
    if bad:
        notas.append(
            ("eleitorado_sem_arquivo_valido", ", ".join(f"{o.spec.id}: {o.reading.motivo}" for o in bad[:10]))
        )
    sem_base = share(
        sum(
            (o.eleitorado or 0) - o.eleitorado_totalizado
            for o in outcomes
            if o.base in ("taxa_agregada", "nenhuma")
        )
    )
    preservada = share(sum(o.eleitorado or 0 for o in outcomes if o.reading.valido and o.reading.preservado))
    counting = [o.reading for o in outcomes if o.reading.valido and _still_counting(o.reading)]
    diferenca: float | None
    idade: float | None
    # Seed: parts with 100% of sections totalized are exempt from the time-difference row only;
    # the reference file's age is always measured.
    if cargo == "presidente":
        if not counting:
            isentos.add("diferenca_horario")
            diferenca = None
            notas.append(("diferenca_horario", "todas as partes com 100% das seções totalizadas"))
        elif any(r.hora is None for r in counting):
            diferenca = None
        else:
            # `hora_efetiva`: a municipal file a fresh coverage file proves current is measured at
            # the coverage's time (`confirm_by_coverage`); by UF it is always the file's own.
            known = [r.hora_efetiva for r in counting if r.hora_efetiva is not None]
            diferenca = _minutes(max(known) - min(known))
        every = [o.reading.hora for o in outcomes if o.reading.valido]
        if plan.modo == MODE_PRESIDENT_MUN:
            # By municipality a finished part's counts are final and the poller does not ask it
            # again (jobs/tse/agenda_municipal.py): its `hg` ages with nothing to refresh. The age
            # is measured on the parts still counting and the national file, asked every cycle.
            refs = [*counting, *([aggregate] if aggregate is not None and aggregate.valido else [])]
            every = [r.hora_efetiva for r in refs] if refs else every
        if not every or any(t is None for t in every) or agora is None:
            idade = None
        else:
            idade = _minutes(agora - min(t for t in every if t is not None))
    else:
        ref = aggregate
        if ref is None or not ref.valido or ref.hora is None:
            diferenca = idade = None
            motivo = ref.motivo if ref is not None else "arquivo da UF ausente"
            notas.append(("idade_arquivo_referencia", f"arquivo da UF sem leitura válida: {motivo}"))
        else:
            parts = [r for r in counting if r.arquivo != ref.arquivo]
            if not counting:
                isentos.add("diferenca_horario")
                diferenca = None
            elif any(r.hora is None for r in parts):
                diferenca = None
            else:
                diffs = [abs((r.hora - ref.hora).total_seconds()) for r in parts if r.hora is not None]
                diferenca = round(max(diffs, default=0.0) / 60.0, MIN_DECIMALS)
            idade = _minutes(agora - ref.hora) if agora is not None else None
    if agora is None:
        notas.append(("idade_arquivo_referencia", "sem horário de referência (--agora ou baixado_em)"))
    n_parts = len(outcomes)
    return Measurements(
        valores={
            "arquivos_validos": float(invalid_files),
            "eleitorado_apurado": share(est_total),
            "partes_com_votos": 100.0 * sum(1 for o in outcomes if o.contado) / n_parts if n_parts else 0.0,
            "eleitorado_sem_arquivo_valido": sem_arquivo,
            "eleitorado_sem_base": sem_base,
            "eleitorado_leitura_preservada": preservada,
            "diferenca_horario": diferenca,
            "idade_arquivo_referencia": idade,
        },
        isentos=frozenset(isentos),
        notas=tuple(_merge_notes(notas)),
    )


def _confirmed(rd: Reading) -> dict[str, Any]:
    """An estrato's `confirmado` (the coverage file that proved it current, and its time), if any."""
    if rd.confirmado_por is None:
        return {}
    return {"confirmado": {"cobertura": rd.confirmado_por, "hora": _iso(rd.confirmado_em)}}


def _merge_notes(notas: list[tuple[str, str]]) -> list[tuple[str, str]]:
    merged: dict[str, str] = {}
    for k, v in notas:
        merged[k] = f"{merged[k]}; {v}" if k in merged else v
    return list(merged.items())


def to_json_bytes(output: dict[str, Any]) -> bytes:
    """Deterministic serialization: sorted keys, 2-space indent, UTF-8, trailing newline."""
    return (json.dumps(output, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode("utf-8")
