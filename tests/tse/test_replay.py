"""The replay server: the TSE's URL layout, validators and 304s, gzip, the night's clock, faults."""

from __future__ import annotations

import gzip
import hashlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest

from jobs.tse.catalog import parse_catalogue, parse_municipalities
from jobs.tse.coverage import parse_coverage
from jobs.tse.night import Noite
from jobs.tse.replay import EstadoReplay
from tests.tse.conftest import DATASETS, START, Replay

PRES = "/oficial/ele2026/6258/dados/sp/sp-c0001-e006258-u.json"


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_config_files_are_generated_from_the_captures(
    synthetic_night: Path, replay_factory: Callable[[Path], Replay]
) -> None:
    replay = replay_factory(synthetic_night)
    status, _, body = get(replay.url + "/oficial/comum/config/ele-c.json")
    cat = parse_catalogue(body)
    assert status == 200 and set(cat.eleicoes) == {"6258", "6260"}
    assert cat.eleicoes["6258"].cargos == {1} and cat.eleicoes["6260"].ciclo == "ele2026"
    assert cat.modelos["u"] == "<base>/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>"
    status, _, body = get(replay.url + "/oficial/ele2026/6260/config/mun-e006260-cm.json")
    assert status == 200 and len(parse_municipalities(body)["ac"]) == 22
    status, _, body = get(replay.url + "/oficial/ele2026/6258/config/mun-e006258-cm.json")
    assert status == 200 and len(parse_municipalities(body)) == 28
    assert get(replay.url + "/oficial/ele2026/6257/config/mun-e006257-cm.json")[0] == 404


def test_data_files_validators_gzip_and_404s(
    synthetic_night: Path, replay_factory: Callable[[Path], Replay]
) -> None:
    replay = replay_factory(synthetic_night)
    raw = (synthetic_night / "capturas" / "2026-10-25T20-30-00Z" / "sp-c0001-e006258-u.json").read_bytes()
    status, headers, body = get(replay.url + PRES)
    assert status == 200 and body == raw
    assert headers["ETag"] == '"' + hashlib.md5(raw, usedforsecurity=False).hexdigest() + '"'
    assert abs((parsedate_to_datetime(headers["Date"]) - START).total_seconds()) < 5  # the night's clock
    assert get(replay.url + PRES, {"If-None-Match": headers["ETag"]})[0] == 304
    assert get(replay.url + PRES, {"If-Modified-Since": headers["Last-Modified"]})[0] == 304
    status, headers, body = get(replay.url + PRES, {"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == raw
    for path in (
        "/oficial/ele2026/6258/dados/rj/sp-c0001-e006258-u.json",  # wrong UF folder
        "/oficial/ele2026/6258/dados/sp/sp-c0001-e006258-u.jws",  # no twin recorded
        "/oficial/ele2026/6258/dados/sp/qualquer.json",
        "/outro/ele2026/6258/dados/sp/sp-c0001-e006258-u.json",
    ):
        status, _, body = get(replay.url + path)
        assert status == 404 and b"<Code>NoSuchKey</Code>" in body
    replay.avancar()
    status, headers2, body2 = get(replay.url + PRES)
    assert body2 != raw and headers2["ETag"] != headers["ETag"]


def test_coverage_is_generated_from_the_municipal_files(
    synthetic_night: Path, replay_factory: Callable[[Path], Replay]
) -> None:
    replay = replay_factory(synthetic_night)
    status, _, body = get(replay.url + "/oficial/ele2026/6260/dados/ac/ac-e006260-ab.json")
    assert status == 200
    stamps = parse_coverage(body, "ac")
    assert len(stamps) == 22
    rows = json.loads(body)["abr"]
    assert rows[0]["tpabr"] == "uf" and rows[0]["munf"] == "0"
    capture = synthetic_night / "capturas" / "2026-10-25T20-30-00Z"
    one = json.loads((capture / "ac01007-c0003-e006260-u.json").read_bytes())
    row = next(r for r in rows if r["cdabr"] == "01007")
    assert row["ht"] == one["ht"] and row["s"]["st"] == one["s"]["st"] and row["e"]["est"] == one["e"]["est"]
    assert (
        get(replay.url + "/oficial/ele2026/6258/dados/ac/ac-e006258-ab.json")[0] == 404
    )  # no municipal files


def _stamp_moved(before: bytes, after: bytes) -> set[str]:
    """The root keys whose values differ between two versions of a result file."""
    a, b = json.loads(before), json.loads(after)
    return {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}


def _md5_etag(body: bytes) -> str:
    return '"' + hashlib.md5(body, usedforsecurity=False).hexdigest() + '"'


def test_a_finished_part_is_regenerated_at_every_step(
    synthetic_night: Path, replay_factory: Callable[[Path], Replay]
) -> None:
    """The real TSE regenerates a finished part's file at every cycle: `hg` and `idg` advance,
    `dt/ht` and every count stay at the moment it finished, and so the ETag changes."""
    replay = replay_factory(synthetic_night)
    mun = "/oficial/ele2026/6260/dados/ac/ac01007-c0003-e006260-u.json"
    uf = "/oficial/ele2026/6260/dados/ac/ac-c0003-e006260-u.json"
    replay.avancar(para=2)  # governor AC at 120 %: every municipality and the UF finished
    served = {path: [get(replay.url + path)] for path in (mun, uf)}
    replay.avancar()
    for path in (mun, uf):
        served[path].append(get(replay.url + path))
        (_, h0, b0), (_, h1, b1) = served[path]
        d0, d1 = json.loads(b0), json.loads(b1)
        assert d0["s"]["st"] == d0["s"]["ts"] and d0["and"] == "f"  # finished at step 2
        assert _stamp_moved(b0, b1) == {"hg", "idg"}  # counts, dt/ht, flags: as they were
        assert d1["hg"] > d0["hg"] and int(d1["idg"]) > int(d0["idg"])
        assert h1["ETag"] == _md5_etag(b1) != h0["ETag"] == _md5_etag(b0)
        assert parsedate_to_datetime(h1["Last-Modified"]) > parsedate_to_datetime(h0["Last-Modified"])


def test_a_part_with_nothing_new_keeps_its_totalization_time(tmp_path: Path) -> None:
    """Unfinished parts whose numbers did not move between two captures are regenerated too, with
    `dt/ht` of the capture where their numbers last changed."""
    from jobs.tse.synthetic import schedule, totals_from_baseline, write_night
    from model.baselines import load_baselines

    base = load_baselines()["6258-presidente-br-uf"]
    write_night(tmp_path, totals_from_baseline(base), schedule(START, [0.5, 0.5, 0.6]), eleicao="6258")
    noite = Noite.abrir(tmp_path)
    nome = "sp-c0001-e006258-u.json"
    d0, d1, d2 = (json.loads(c.arquivos[nome].read_bytes()) for c in noite.capturas)
    assert d1["hg"] != d0["hg"] and int(d1["idg"]) > int(d0["idg"])
    assert (d1["dt"], d1["ht"], d1["s"], d1["v"]) == (d0["dt"], d0["ht"], d0["s"], d0["v"])
    assert d2["ht"] == d2["hg"] != d1["ht"] and int(d2["s"]["st"]) > int(d1["s"]["st"])


def test_recorded_file_missing_from_a_capture_is_served_regenerated(
    real_night: Path, replay_factory: Callable[[Path], Replay]
) -> None:
    """RS has no file in the real capture of 21:39:46 UTC: the last recorded one (21:38:48) is
    served as the TSE would have served it, regenerated: only `hg` (moved by the 58 s between the
    captures) and `idg` change, and the ETag and Last-Modified follow the new bytes."""
    replay = replay_factory(real_night)
    rs = "/oficial/ele2026/6257/dados/rs/rs-c0001-e006257-u.json"
    assert replay.avancar(para=1)["captura"] == "2026-10-04T21-38-48Z"
    _, h0, b0 = get(replay.url + rs)
    assert b0 == (real_night / "capturas" / "2026-10-04T21-38-48Z" / "rs-c0001-e006257-u.json").read_bytes()
    assert replay.avancar()["captura"] == "2026-10-04T21-39-46Z"
    assert not (real_night / "capturas" / "2026-10-04T21-39-46Z" / "rs-c0001-e006257-u.json").exists()
    _, h1, b1 = get(replay.url + rs)
    assert _stamp_moved(b0, b1) == {"hg", "idg"} and len(b1) == len(b0)
    d0, d1 = json.loads(b0), json.loads(b1)
    assert (d0["hg"], d1["hg"]) == ("18:37:27", "18:38:25") and int(d1["idg"]) == int(d0["idg"]) + 58
    assert h1["ETag"] == _md5_etag(b1) != h0["ETag"]
    assert parsedate_to_datetime(h1["Last-Modified"]) == Noite.abrir(real_night).capturas[2].instante
    assert get(replay.url + rs, {"If-None-Match": h0["ETag"]})[0] == 200  # new bytes, not a 304
    replay.avancar(para=-1)
    status, _, signed = get(replay.url + rs.replace(".json", ".jws"))
    assert status == 200 and signed.startswith(b"eyJra")


def test_a_signed_file_missing_from_a_capture_is_served_as_recorded(tmp_path: Path) -> None:
    """A regenerated body could not carry the TSE's signature: a real signed file (and its `.json`)
    absent from a later capture is served exactly as recorded."""
    final = DATASETS / "tse" / "2026-1t-final" / "presidente-uf"
    names = ("sp-c0001-e006257-u.json", "sp-c0001-e006257-u.jws")
    first = tmp_path / "capturas" / "2026-10-05T15-53-00Z"
    second = tmp_path / "capturas" / "2026-10-05T15-54-00Z"
    for pasta in (first, second):
        pasta.mkdir(parents=True)
    for nome in names:
        (first / nome).write_bytes((final / nome).read_bytes())
    (second / "rj-c0001-e006257-u.json").write_bytes((final / "rj-c0001-e006257-u.json").read_bytes())
    noite = Noite.abrir(tmp_path)
    for nome in names:
        assert noite.corpo(1, nome) == ((final / nome).read_bytes(), noite.capturas[0].instante)


def test_faults_change_what_is_served(
    synthetic_night: Path, replay_factory: Callable[[Path], Replay]
) -> None:
    replay = replay_factory(synthetic_night)
    _, _, raw = get(replay.url + PRES)
    replay.falhas(relogio_min={"sp-*": 10})
    skewed = json.loads(get(replay.url + PRES)[2])
    assert skewed["hg"] != json.loads(raw)["hg"]
    replay.falhas(somas=["sp-c0001-e006258-u.json"])
    broken = json.loads(get(replay.url + PRES)[2])
    assert int(broken["v"]["vvc"]) == int(json.loads(raw)["v"]["vvc"]) + 1000
    replay.falhas(truncado=["sp-c0001-e006258-u"])
    assert get(replay.url + PRES)[2] == raw[: len(raw) // 2]
    replay.falhas(erro_5xx=["sp-*"])
    assert get(replay.url + PRES)[0] == 503
    replay.falhas(congelado=["sp-*"])
    replay.avancar()
    assert get(replay.url + PRES)[2] == raw
    assert replay.estado()["falhas"]["congelado"] == {"sp-*": 0}
    replay.limpar()
    assert get(replay.url + PRES)[2] != raw
    with pytest.raises(urllib.error.HTTPError) as info:
        replay.falhas(quebrar_tudo=True)
    assert info.value.code == 400
    assert replay.estado()["respostas"]["503"] == 1


def test_timer_steps_through_the_captures(synthetic_night: Path) -> None:
    estado = EstadoReplay(Noite.abrir(synthetic_night), intervalo_s=0.02)
    estado.relogio()  # returns at the last capture
    assert estado.indice == len(estado.noite.capturas) - 1
    assert estado.avancar() == estado.indice  # never past the end
    t = estado.agora()
    time.sleep(0.01)
    assert estado.agora() > t


def test_partial_night_from_the_real_captures(real_night: Path) -> None:
    noite = Noite.abrir(real_night)
    assert [c.nome for c in noite.capturas] == [
        "2026-10-04T21-36-05Z",
        "2026-10-04T21-38-48Z",
        "2026-10-04T21-39-46Z",
        "2026-10-04T21-44-49Z",
        "2026-10-04T23-17-25Z",
        "2026-10-05T00-01-02Z",
        "2026-10-05T15-53-00Z",
    ]
    assert len([n for n in noite.capturas[-1].arquivos if n.endswith(".jws")]) == 29
    assert noite.eleicoes() == {"6257": {1}, "6259": {3}}
    assert json.loads((real_night / "noite.json").read_bytes())["ciclo"] == "ele2026"


def test_a_finished_part_s_regenerated_twin_is_signed(
    synthetic_night: Path, replay_factory: Callable[[Path], Replay], tmp_path: Path
) -> None:
    """Signed synthetic nights (test key) sign every regenerated file: the twin of a finished
    part changes with its `.json` at every step, verifies, and carries the `.json` served."""
    from jobs.tse.jws import verify_jws
    from tests.support.assinatura import chave_de_teste, signed_copy

    replay = replay_factory(signed_copy(synthetic_night, tmp_path / "assinada"))
    mun = "/oficial/ele2026/6260/dados/ac/ac01007-c0003-e006260-u"
    twins = []
    for passo in (2, 3):  # finished at both
        replay.avancar(para=passo)
        _, _, body = get(replay.url + mun + ".json")
        _, _, twin = get(replay.url + mun + ".jws")
        assert verify_jws(twin, chave_de_teste()) == body
        twins.append(twin)
    assert twins[0] != twins[1]
