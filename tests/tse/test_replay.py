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
from tests.tse.conftest import START, Replay

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


def test_recorded_file_missing_from_a_capture_is_served_from_the_last_one(
    real_night: Path, replay_factory: Callable[[Path], Replay]
) -> None:
    replay = replay_factory(real_night)
    rs = "/oficial/ele2026/6257/dados/rs/rs-c0001-e006257-u.json"
    _, h0, b0 = get(replay.url + rs)
    assert replay.avancar()["captura"] == "2026-10-04T21-39-46Z"
    _, h1, b1 = get(replay.url + rs)
    assert b1 == b0 and h1["Last-Modified"] == h0["Last-Modified"]  # TSE files never disappear
    replay.avancar()
    status, _, signed = get(replay.url + rs.replace(".json", ".jws"))
    assert status == 200 and signed.startswith(b"eyJra")


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
        "2026-10-04T21-39-46Z",
        "2026-10-05T15-53-00Z",
    ]
    assert len([n for n in noite.capturas[2].arquivos if n.endswith(".jws")]) == 29
    assert noite.eleicoes() == {"6257": {1}, "6259": {3}}
    assert json.loads((real_night / "noite.json").read_bytes())["ciclo"] == "ele2026"
