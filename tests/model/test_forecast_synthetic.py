"""The seed's rules on synthetic runoff snapshots: fallbacks, criteria, modes, correction, bands."""

from __future__ import annotations

import datetime as dt
import json
import math

from model.bands import half_width
from model.drift import drift_at
from model.forecast import to_json_bytes
from model.snapshot import CaptureEntry, Snapshot
from model.strata import UFS_PRESIDENTE
from tests.model.helpers import (
    NOW,
    Part,
    baselines,
    calibration,
    criterion,
    president_files,
    president_name,
    run,
    snapshot_of,
    stratum,
    u_file,
)

PRES_BASE = baselines()["6258-presidente-br-uf"]


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def test_clean_snapshot_is_publishable_and_corrected() -> None:
    out = run(snapshot_of(president_files()))
    assert out["eleicao"] == "6258" and out["turno"] == 2 and out["modo"] == "presidente"
    assert out["criterios_nao_atendidos"] == [] and out["publicavel"] is True
    assert out["apurado_pct"] == 50.0
    cands = {c["numero"]: c for c in out["forecast"]["candidatos"]}
    assert cands[13]["sem_correcao"] == 50.0
    curve = drift_at(calibration(), 50.0)
    assert abs(cands[13]["pct"] - (50.0 - curve)) < 1e-9
    assert abs(out["forecast"]["correcao_pp"] - (-curve)) < 1e-9
    assert cands[13]["pct"] + cands[22]["pct"] == 100.0
    faixa = half_width(calibration(), "presidente", 50.0)
    assert cands[13]["faixa"] == round(faixa, 4)
    assert out["forecast"]["faixa_margem"] == round(2 * faixa, 4)
    assert out["confianca"] == "media"
    assert out["modelo"]["versao"] == "3.1.0"
    assert len(out["modelo"]["calibracao_sha256"]) == 64


def test_sem_correcao_mode() -> None:
    out = run(snapshot_of(president_files()), corrigir_deriva=False)
    assert out["modo"] == "presidente_sem_correcao"
    assert out["forecast"]["correcao_pp"] == 0.0
    c13 = out["forecast"]["candidatos"][0]
    assert c13["pct"] == c13["sem_correcao"] == 50.0
    assert out["forecast"]["tabela_faixa"] == "presidente_sem_correcao"


def test_part_with_nothing_counted_uses_swing() -> None:
    files = president_files({"sp": Part(te=1_000_000, est=0, votes={13: 0, 22: 0}, vb=0, vn=0)})
    out = run(snapshot_of(files))
    sp = stratum(out, "sp")
    assert sp["base"] == "1turno_swing"
    # Hand computation: counted parts are 50/50; swing = vote-weighted mean of logit(0.5) - logit(s1).
    s1 = {uf: p.votos[13] / (p.votos[13] + p.votos[22]) for uf, p in PRES_BASE.partes.items() if uf != "sp"}
    swing = sum(-logit(s) for s in s1.values()) / len(s1)  # equal weights (400,000 valid votes each)
    base_sp = PRES_BASE.partes["sp"].votos
    share = 1 / (1 + math.exp(-(logit(base_sp[13] / (base_sp[13] + base_sp[22])) + swing)))
    remaining = 1_000_000 * 0.8  # aggregate valid rate 400,000 / 500,000
    assert sp["validos_restantes_estimados"] == 800_000
    assert abs(sp["candidatos"]["13"] - remaining * share) <= 1
    assert abs(out["forecast"]["swing_logit"] - swing) < 1e-6
    assert criterion(out, "eleitorado_sem_base")["valor"] == 0.0


def test_part_without_baseline_uses_aggregate_rate_and_counts_as_sem_base() -> None:
    files = president_files({"sp": Part(te=1_000_000, est=0, votes={13: 0, 22: 0}, vb=0, vn=0)})
    out = run(snapshot_of(files), baselines={})
    sp = stratum(out, "sp")
    assert sp["base"] == "taxa_agregada"
    assert sp["candidatos"] == {"13": 400_000, "22": 400_000}
    sem_base = criterion(out, "eleitorado_sem_base")
    assert abs(sem_base["valor"] - 100 / 28) < 1e-3  # 1 of 28 equal parts
    assert sem_base["ok"] is True and sem_base["limite"] == 5.0  # 3.6 % ≤ 5 %
    two = president_files(
        {uf: Part(te=1_000_000, est=0, votes={13: 0, 22: 0}, vb=0, vn=0) for uf in ("sp", "mg")}
    )
    assert criterion(run(snapshot_of(two), baselines={}), "eleitorado_sem_base")["ok"] is False


def test_stale_file_fails_age() -> None:
    files = president_files({"ba": Part(hg=NOW - dt.timedelta(minutes=7))})
    out = run(snapshot_of(files))
    age = criterion(out, "idade_arquivo_referencia")
    assert age["ok"] is False and age["valor"] == 7.0
    assert criterion(out, "diferenca_horario")["valor"] == 6.0
    assert out["publicavel"] is False


def test_clock_skew_between_files() -> None:
    files = president_files(
        {"rj": Part(hg=NOW - dt.timedelta(minutes=4)), "mg": Part(hg=NOW + dt.timedelta(minutes=2))}
    )
    out = run(snapshot_of(files), agora=NOW + dt.timedelta(minutes=3))
    skew = criterion(out, "diferenca_horario")
    assert skew["valor"] == 6.0 and skew["ok"] is False
    assert criterion(out, "idade_arquivo_referencia")["valor"] == 7.0


def test_local_time_does_not_count_as_skew() -> None:
    # Acre's dt/ht is two hours behind Brasília; generation time (hg) is the common clock.
    raw = json.loads(u_file("ac", Part()))
    raw["ht"] = "15:59:00"
    files = president_files() | {president_name("ac"): json.dumps(raw).encode()}
    out = run(snapshot_of(files))
    assert criterion(out, "diferenca_horario")["ok"] is True


def test_finished_parts_are_exempt_from_skew_but_not_from_file_age() -> None:
    # Seed: "partes com 100% das seções totalizadas ficam isentas" is in the time-difference row
    # only; the age row is "arquivo mais antigo entre as UFs", finished or not.
    done = Part(est=1_000_000, votes={13: 400_000, 22: 400_000}, hg=NOW - dt.timedelta(hours=2))
    out = run(snapshot_of(president_files({"df": done})))
    assert criterion(out, "diferenca_horario")["ok"] is True
    idade = criterion(out, "idade_arquivo_referencia")
    assert idade["ok"] is False and idade["valor"] == 120.0
    assert out["publicavel"] is False


def test_every_part_finished_still_checks_file_age() -> None:
    old = NOW - dt.timedelta(minutes=30)
    done = Part(est=1_000_000, votes={13: 400_000, 22: 400_000}, hg=old)
    out = run(snapshot_of(president_files(default=done)))
    assert criterion(out, "diferenca_horario")["ok"] is True  # exempt: every part is final
    assert criterion(out, "idade_arquivo_referencia")["valor"] == 30.0
    assert "idade_arquivo_referencia" in out["criterios_nao_atendidos"]


def test_missing_file() -> None:
    files = president_files()
    del files[president_name("rs")]
    out = run(snapshot_of(files))
    rs = stratum(out, "rs")
    assert rs["valido"] is False and rs["motivo"] == "arquivo ausente"
    assert rs["eleitorado"] == PRES_BASE.partes["rs"].eleitorado  # electorate from the baseline
    assert rs["base"] == "1turno_swing"
    crit = criterion(out, "eleitorado_sem_arquivo_valido")
    assert crit["ok"] is False and crit["valor"] > 0
    assert criterion(out, "arquivos_validos")["ok"] is True  # missing is not inconsistent
    assert out["parcial"]["candidatos"]


def test_http_error_status_is_no_valid_reading() -> None:
    files = president_files()
    snap = snapshot_of(files, {president_name("pe"): CaptureEntry(NOW, 503, False, None)})
    out = run(snap)
    assert stratum(out, "pe")["motivo"] == "TSE respondeu status 503"
    assert "eleitorado_sem_arquivo_valido" in out["criterios_nao_atendidos"]


def test_preserved_reading() -> None:
    snap = snapshot_of(president_files(), {president_name("go"): CaptureEntry(NOW, 200, True, None)})
    out = run(snap)
    assert stratum(out, "go")["preservado"] is True and stratum(out, "go")["valido"] is True
    crit = criterion(out, "eleitorado_leitura_preservada")
    assert crit["ok"] is False and abs(crit["valor"] - 100 / 28) < 1e-3


def test_sums_that_do_not_add_up() -> None:
    files = president_files() | {president_name("pa"): u_file("pa", Part(), extra_tv=5)}
    out = run(snapshot_of(files))
    pa = stratum(out, "pa")
    assert pa["valido"] is False and "tv (" in pa["motivo"]
    crit = criterion(out, "arquivos_validos")
    assert crit["ok"] is False and crit["valor"] == 1
    assert out["publicavel"] is False


def test_totalized_above_electorate_is_invalid() -> None:
    files = president_files() | {president_name("pa"): u_file("pa", Part(te=100, est=200))}
    out = run(snapshot_of(files))
    assert "eleitorado totalizado (200) > eleitorado (100)" in stratum(out, "pa")["motivo"]


def test_decreasing_total_against_previous_reading() -> None:
    before = snapshot_of(president_files({"ce": Part(votes={13: 210_000, 22: 200_000})}))
    now = snapshot_of(president_files())
    out = run(now, anterior=before)
    ce = stratum(out, "ce")
    assert ce["valido"] is False and "diminuiu" in ce["motivo"]
    assert "arquivos_validos" in out["criterios_nao_atendidos"]


def test_wrong_election_or_round() -> None:
    files = president_files() | {president_name("am"): u_file("am", Part(), turno="1")}
    out = run(snapshot_of(files))
    assert "turno 1 (esperado 2)" in stratum(out, "am")["motivo"]


def test_zero_vote_file_with_empty_dt_ht() -> None:
    zero = Part(est=0, votes={13: 0, 22: 0}, vb=0, vn=0, dt_ht_empty=True)
    out = run(snapshot_of(president_files({"zz": zero})))
    zz = stratum(out, "zz")
    assert zz["valido"] is True and zz["base"] == "1turno_swing" and zz["hora"] is not None
    assert criterion(out, "partes_com_votos")["valor"] == round(100 * 27 / 28, 4)


def test_malformed_json_and_capture() -> None:
    files = president_files() | {president_name("to"): b"{oops"}
    out = run(snapshot_of(files))
    assert stratum(out, "to")["motivo"].startswith("JSON malformado")
    broken = Snapshot(arquivos=president_files(), captura={}, erro_captura="captura.json malformado")
    out2 = run(broken)
    assert out2["publicavel"] is False
    assert all(s["motivo"] == "captura.json malformado" for s in out2["estratos"])


def test_tendencia_and_mathematical_definition() -> None:
    close = run(snapshot_of(president_files(default=Part(votes={13: 199_000, 22: 201_000}))))
    assert close["forecast"]["tendencia"] == "indefinido"
    wide = run(snapshot_of(president_files(default=Part(votes={13: 260_000, 22: 140_000}))))
    assert wide["forecast"]["tendencia"] == 13
    assert wide["forecast"]["margem"] > wide["forecast"]["faixa_margem"]
    assert wide["forecast"]["definido_matematicamente"] is False  # 28 × 500,000 voters still out
    done = Part(te=1_000_000, est=990_000, votes={13: 600_000, 22: 150_000}, ts=3000, st=2990)
    out = run(snapshot_of(president_files(default=done)))
    assert out["forecast"]["definido_matematicamente"] is True  # 12.6 M lead > 280,000 voters out


def test_confidence_labels() -> None:
    def at(est: int) -> str:
        votes = {13: est * 2 // 5, 22: est * 2 // 5}
        label: str = run(snapshot_of(president_files(default=Part(est=est, votes=votes))))["confianca"]
        return label

    assert at(200_000) == "baixa"
    assert at(250_000) == "media"
    assert at(700_000) == "media"
    assert at(710_000) == "alta"


def test_below_minimum_counted_not_published() -> None:
    out = run(snapshot_of(president_files(default=Part(est=50_000, votes={13: 20_000, 22: 20_000}))))
    assert "eleitorado_apurado" in out["criterios_nao_atendidos"]
    below = half_width(calibration(), "presidente", 5.0)  # below the first range: its first value
    assert out["forecast"]["candidatos"][0]["faixa"] == round(below, 4)


def test_output_is_deterministic_json() -> None:
    snap = snapshot_of(president_files())
    assert to_json_bytes(run(snap)) == to_json_bytes(run(snap))


# --- governor -----------------------------------------------------------------------------------

AC_BASE = baselines()["6260-governador-ac-municipio"]


def governor_files(parts: dict[str, Part], uf_part: Part, uf: str = "ac") -> dict[str, bytes]:
    files = {f"{uf}-c0003-e006260-u.json": u_file(uf, uf_part, cargo=3, ele="6260")}
    for pid, p in parts.items():
        if "-z" in pid:
            files[f"{pid}-c0003-e006260-u.json"] = u_file(pid[-4:], p, cargo=3, ele="6260", tpabr="zona")
        else:
            files[f"{pid}-c0003-e006260-u.json"] = u_file(pid[2:], p, cargo=3, ele="6260", tpabr="mu")
    return files


def test_governor_by_municipality() -> None:
    a, b = AC_BASE.finalistas
    parts = {
        pid: Part(te=bp.eleitorado or 0, est=(bp.eleitorado or 0) // 2, votes={a: 1000, b: 900}, vb=0, vn=0)
        for pid, bp in AC_BASE.partes.items()
    }
    uf_part = Part(
        te=sum(p.te for p in parts.values()),
        est=sum(p.est for p in parts.values()),
        votes={a: 1000 * len(parts), b: 900 * len(parts)},
        vb=0,
        vn=0,
    )
    out = run(snapshot_of(governor_files(parts, uf_part)), cargo="governador", uf="ac")
    assert out["modo"] == "governador_municipio" and out["uf"] == "ac" and out["eleicao"] == "6260"
    assert len(out["estratos"]) == 22
    assert out["forecast"]["correcao_pp"] == 0.0  # no drift correction for governors
    assert out["forecast"]["tabela_faixa"] == "governador_municipio"
    assert out["criterios_nao_atendidos"] == [], out["criterios"]
    # Drop one municipality: ≤ 2 % of the electorate may lack a file.
    small = min(parts, key=lambda p: parts[p].te)
    files = governor_files({k: v for k, v in parts.items() if k != small}, uf_part)
    out2 = run(snapshot_of(files), cargo="governador", uf="ac")
    crit = criterion(out2, "eleitorado_sem_arquivo_valido")
    assert crit["valor"] < 2.0 and crit["ok"] is True


def test_governor_municipality_skew_against_uf_file() -> None:
    a, b = AC_BASE.finalistas
    parts = {pid: Part(votes={a: 10, b: 9}, vb=0, vn=0) for pid in AC_BASE.partes}
    first = next(iter(parts))
    parts[first] = Part(votes={a: 10, b: 9}, vb=0, vn=0, hg=NOW - dt.timedelta(minutes=9))
    uf_file = Part(votes={a: 10 * len(parts), b: 9 * len(parts)}, vb=0, vn=0)  # the race's candidates
    out = run(snapshot_of(governor_files(parts, uf_file)), cargo="governador", uf="ac")
    assert criterion(out, "diferenca_horario")["valor"] == 8.0


def test_governor_degraded_mode() -> None:
    uf_part = Part(te=1_000_000, est=400_000, votes={11: 180_000, 10: 120_000})
    out = run(snapshot_of(governor_files({}, uf_part)), cargo="governador", uf="ac")
    assert out["modo"] == "governador_degradado" and out["degradado"] is True
    got = {c["numero"]: c for c in out["forecast"]["candidatos"]}
    assert got[11]["pct"] == 60.0 and got[10]["pct"] == 40.0  # projection = partial
    assert got[11]["faixa"] == round(half_width(calibration(), "governador_degradado", 40.0), 4)
    assert abs(got[11]["faixa"] - (7.0 - 1.5 * 10 / 20)) < 1e-9


def test_df_governor_by_zone() -> None:
    zones = [f"{z:04d}" for z in range(1, 22) if z not in (7, 12)]
    parts = {
        f"df97012-z{z}": Part(te=100_000, est=60_000, votes={11: 30_000, 13: 20_000}, vb=1_000, vn=1_000)
        for z in zones
    }
    uf_part = Part(te=1_900_000, est=1_140_000, votes={11: 570_000, 13: 380_000}, vb=19_000, vn=19_000)
    out = run(snapshot_of(governor_files(parts, uf_part, uf="df")), cargo="governador", uf="df")
    assert out["modo"] == "governador_zona" and len(out["estratos"]) == 19
    assert out["forecast"]["tabela_faixa"] == "governador_zona"
    assert out["forecast"]["candidatos"][0]["faixa"] == 0.25  # 60 %: "±0,3 a ±0,2" over 50-70 %
    # No 1st-round zone baseline exists for the DF: nothing else is missing, so no "sem base".
    assert criterion(out, "eleitorado_sem_base")["valor"] == 0.0


def test_president_by_municipality_mode() -> None:
    files = {
        f"{uf}{i:05d}-c0001-e006258-u.json": u_file(f"{i:05d}", Part(), tpabr="mu")
        for uf in UFS_PRESIDENTE
        for i in (1, 2)
    }
    out = run(snapshot_of(files))
    assert out["modo"] == "presidente_municipio"
    assert len(out["estratos"]) == 56
    assert out["forecast"]["candidatos"][0]["sem_correcao"] == 50.0
