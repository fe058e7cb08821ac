"""Night simulator: exact totals, counts that never decrease, valid TSE files the model accepts."""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import pytest

from model.backtest.arquivos import Contagem, arquivo_u, conteudo_u, nome_u, pct2, pctn, registro
from model.backtest.chegada import carregar_parametros
from model.backtest.dados import Dados2022, carregar
from model.backtest.noite import ConfigNoite, escrever_noite
from model.backtest.replay import ATRASO_LEITURA, ReplaySimulado, contagens, preparar
from model.backtest.simulador import Noite, alocar, series, simular_noite
from model.forecast import project, to_json_bytes
from model.snapshot import read_snapshot
from model.tse_files import consistency_problems, decrease_problems, parse_result
from tests.model.helpers import DATASETS, calibration


@functools.cache
def dados() -> Dados2022:
    """Rondônia (52 municipalities, a real 2022 governor runoff) and DF (19 zones)."""
    return carregar(DATASETS, {"ro", "df"})


@functools.cache
def noite(semente: int = 3, capturas: int = 40) -> Noite:
    return simular_noite(dados(), carregar_parametros(), semente, capturas)


def test_totals_at_100_percent_equal_the_inputs_exactly() -> None:
    d, n = dados(), noite()
    p = carregar_parametros()
    for race in (d.presidente, d.governadores["ro"], d.presidente_1t):
        aloc = alocar(n, race, p.dispersao_intra)
        by_unit = series(n, aloc, "zona")  # finest level: one part per unit
        last = len(n.capturas) - 1
        for uid, counts in race.votos.items():
            got, secoes, _ = by_unit[uid].em(last)
            assert got == counts, uid
            assert secoes == next(u.secoes for u in d.unidades if u.id == uid)
        agg = series(n, aloc, "br")["br"]
        assert agg.em(last)[0] == race.total()


def test_counts_never_decrease_and_sections_stay_within_totals() -> None:
    d, n = dados(), noite()
    aloc = alocar(n, d.presidente, carregar_parametros().dispersao_intra)
    for parte, s in series(n, aloc, "municipio").items():
        prev = None
        for k in range(len(n.capturas)):
            counts, st, _ = s.em(k)
            assert 0 <= st <= s.secoes_total
            if prev is not None:
                assert all(a >= b for a, b in zip(counts, prev[0], strict=True)), parte
                assert st >= prev[1]
            prev = (counts, st)


def test_tse_files_satisfy_every_identity_and_parse_to_the_same_record() -> None:
    d, n = dados(), noite()
    aloc = alocar(n, d.presidente, carregar_parametros().dispersao_intra)
    c = preparar(
        n,
        aloc,
        chave="presidente",
        variante="municipio",
        nivel="municipio",
        cargo="presidente",
        eleicao="545",
        turno=2,
        uf=None,
        baselines=d.bases,
    )
    before: dict[str, object] = {}
    for k in (0, 5, 20, len(n.capturas) - 1):
        for parte, cont in contagens(c, n, k).items():
            raw = arquivo_u(cont, 1 + k)
            assert raw.startswith(b"\n") and not raw.endswith(b"\n")
            (rec,) = parse_result(raw, "u")
            assert consistency_problems(rec) == [], (parte, k)
            assert rec == registro(cont)
            root = json.loads(raw)
            s, e = root["s"], root["e"]
            assert int(s["ts"]) == int(s["st"]) + int(s["snt"])
            assert int(e["te"]) == int(e["est"]) + int(e["esnt"])
            assert int(e["esi"]) == int(e["c"]) + int(e["a"])
            if parte in before:
                assert decrease_problems(rec, before[parte]) == []  # type: ignore[arg-type]
            before[parte] = rec


def test_tse_percentages_follow_the_rounding_rules() -> None:
    assert pct2(48_491_472, 48_491_886) == "99,99"  # never 100,00 unless exact (datasets README)
    assert pct2(1, 1_000_000) == "0,01" and pct2(0, 10) == "0,00" and pct2(5, 5) == "100,00"
    assert pctn(0, 7) == "0" and pctn(7, 7) == "100" and pctn(2, 3) == "66,666666667"


def test_zero_vote_file_has_no_dvt_and_empty_times() -> None:
    n = noite()
    cont = Contagem(
        "545",
        2,
        1,
        "uf",
        "ro",
        "ro",
        ((13, "LULA", "PT", 0), (22, "X", "PL", 0)),
        0,
        0,
        0,
        1000,
        10,
        0,
        n.instante(0),
        None,
    )
    root = conteudo_u(cont, 1)
    assert root["dt"] == "" and root["ht"] == "" and root["and"] == "n"
    cands = [c for a in root["carg"][0]["agr"] for p in a["par"] for c in p["cand"]]
    assert all("dvt" not in c for c in cands)
    (rec,) = parse_result(arquivo_u(cont, 1), "u")
    assert consistency_problems(rec) == []


def test_in_memory_replay_equals_the_model_on_the_written_files(tmp_path: Path) -> None:
    """The backtest's fast path gives byte-identical outputs to `project` on the TSE files."""
    d, p, cal = dados(), carregar_parametros(), calibration()
    n = simular_noite(d, p, 3, 12)
    aloc = alocar(n, d.presidente, p.dispersao_intra)
    for nivel, cargo, uf in (
        ("uf", "presidente", None),
        ("municipio", "presidente", None),
        ("municipio", "governador", "ro"),
    ):
        units = [u.id for u in d.unidades_da_uf("ro")] if uf else None
        c = preparar(
            n,
            aloc,
            chave="x",
            variante=nivel,
            nivel=nivel,
            cargo=cargo,
            eleicao="545",
            turno=2,
            uf=uf,
            baselines=d.bases,
            unidades=units,
        )
        runner = ReplaySimulado(n, c)
        for k in (1, 6, 11):
            folder = tmp_path / f"{nivel}-{cargo}-{k}"
            folder.mkdir()
            code = 1 if cargo == "presidente" else 3
            captura = {}
            for parte, cont in contagens(c, n, k).items():
                name = nome_u(parte, code, "545")
                (folder / name).write_bytes(arquivo_u(cont, k))
                captura[name] = {"baixado_em": (n.instante(k) + ATRASO_LEITURA).isoformat(), "status": 200}
            (folder / "captura.json").write_text(json.dumps({"arquivos": captura}), encoding="utf-8")
            slow = project(read_snapshot(folder), calibracao=cal, baselines=d.bases, cargo=cargo, uf=uf)
            assert to_json_bytes(runner.saida(k, cal)) == to_json_bytes(slow), (nivel, cargo, k)


def test_night_folder_layout_and_the_model_reads_every_capture(tmp_path: Path) -> None:
    d = dados()
    cfg = ConfigNoite(semente=1, capturas=5, governadores=("ro",), df_zonas=True, municipios_presidente=True)
    pasta = tmp_path / "noite"
    folders = escrever_noite(pasta, d, carregar_parametros(), cfg)
    meta = json.loads((pasta / "noite.json").read_text(encoding="utf-8"))
    assert meta["ciclo"] == "ele2026" and meta["ambiente"] == "oficial" and "SIMULADA" in meta["descricao"]
    catalog = json.loads((pasta / "oficial/comum/config/ele-c.json").read_bytes())
    assert {e["cd"] for e in catalog["pl"][0]["e"]} == {"6258", "6260"}
    cm = json.loads((pasta / "oficial/ele2026/6260/config/mun-e006260-cm.json").read_bytes())
    assert {g["cd"] for g in cm["abr"]} == {"ro", "df"}
    assert (pasta / "oficial/ele2026/6258/config/mun-e006258-cm.json").is_file()
    assert [f.name for f in folders] == sorted(f.name for f in folders)
    assert len({f.name for f in folders}) == 5
    last = folders[-1]
    names = {p.name for p in last.iterdir()}
    assert {"ro-c0001-e006258-u.json", "br-c0001-e006258-u.json", "ro-c0003-e006260-u.json"} <= names
    assert "df97012-z0001-c0003-e006260-u.json" in names and "br-e006260-ab.json" in names
    captura = json.loads((last / "captura.json").read_bytes())
    assert set(captura["arquivos"]) == names - {"captura.json"}
    ab = json.loads((last / "ro-e006260-ab.json").read_bytes())
    assert ab["abr"][0]["tpabr"] == "uf" and len(ab["abr"]) == 1 + 52
    assert {r["and"] for r in ab["abr"]} == {"f"}
    gov = project(read_snapshot(last), calibracao=calibration(), baselines={}, cargo="governador", uf="ro")
    assert gov["modo"] == "governador_municipio" and gov["apurado_pct"] == 100.0
    final = d.governadores["ro"].total()
    share = 100 * final[0] / (final[0] + final[1])
    assert abs(gov["forecast"]["candidatos"][0]["pct"] - share) < 1e-3
    df = project(
        read_snapshot(folders[2]), calibracao=calibration(), baselines={}, cargo="governador", uf="df"
    )
    assert df["modo"] == "governador_zona" and df["criterios"][0]["ok"]
    pres = project(read_snapshot(folders[2]), calibracao=calibration(), baselines={})
    assert (
        pres["modo"].startswith("presidente_municipio")
        and "arquivos_validos" not in pres["criterios_nao_atendidos"]
    )
    # A final file is frozen: once at 100 % its bytes never change again.
    frozen = 0
    for a, b in itertools.pairwise(folders):
        for f in a.glob("*-u.json"):
            if json.loads(f.read_bytes())["tf"] == "s":
                assert (b / f.name).read_bytes() == f.read_bytes()
                frozen += 1
    assert frozen > 0
    out1 = to_json_bytes(project(read_snapshot(folders[1]), calibracao=calibration(), baselines={}))
    assert out1 == to_json_bytes(project(read_snapshot(folders[1]), calibracao=calibration(), baselines={}))


@pytest.mark.parametrize("semente", [0, 1])
def test_same_seed_same_night_other_seed_other_night(semente: int) -> None:
    d, p = dados(), carregar_parametros()
    a = simular_noite(d, p, semente, 20)
    b = simular_noite(d, p, semente, 20)
    c = simular_noite(d, p, semente + 7, 20)
    assert a == b and a.lotes != c.lotes
    assert alocar(a, d.presidente, 0.13) == alocar(b, d.presidente, 0.13)
