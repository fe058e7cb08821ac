"""Issue 22 item 1: every structural identity of the TSE format is checked before a reading is used.

Every real file in datasets/tse passes every identity (the one documented exception is refused, as
it always was); a mutation that breaks each identity of a real file refuses it; a candidate listed
twice or a changed candidate set refuses the reading; a refused reading never becomes the reference.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jobs.tse.synthetic import make_synthetic_night
from model.forecast import read_file
from model.snapshot import CaptureEntry, Snapshot
from model.tse_files import (
    TseFormatError,
    candidate_set_problems,
    consistency_problems,
    parse_result,
)
from tests.model.helpers import DATASETS, NOW, Part, president_name, run, snapshot_of, stratum, u_file

REAL_U = sorted((DATASETS / "tse").rglob("*-u.json"))
REAL_V = sorted((DATASETS / "tse").rglob("*-v.json"))
# The 2022 simulation's national file: its candidates carry no `dvt` (the legacy `-v` layout keeps
# it in the `-f` file) while 1,068,930 of its votes are `vansj`, so Σ candidates = vvc ≠ vv.
SIMULADO_2022 = "br-c0001-e009577-v.json"
AC = DATASETS / "tse/2026-1t-parcial/2026-10-04T21-36-05Z/ac-c0001-e006257-u.json"


def test_the_real_files_are_all_there() -> None:
    assert len(REAL_U) >= 170 and len(REAL_V) == 6


@pytest.mark.parametrize("path", REAL_U + REAL_V, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_real_file_passes_every_identity(path: Path) -> None:
    records = parse_result(path.read_bytes(), path.name[-6])
    problems = [p for rec in records for p in consistency_problems(rec)]
    if path.name == SIMULADO_2022:
        assert problems == ["soma dos votos válidos dos candidatos (3240770) ≠ vv (2171840)"]
        return
    assert problems == []


def _cands(d: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for agr in d["carg"][0]["agr"] for par in agr["par"] for c in par["cand"]]


def _leader(d: dict[str, Any]) -> dict[str, Any]:
    return max(_cands(d), key=lambda c: int(c["vap"]))


def _add(block: dict[str, Any], key: str, n: int) -> None:
    block[key] = str(int(block[key]) + n)


def _inflate_leader(d: dict[str, Any]) -> None:
    """The leader gets more votes than the totalized electorate, every vote sum kept consistent."""
    extra = int(d["e"]["est"])
    _add(_leader(d), "vap", extra)
    for k in ("tv", "vvc", "vv", "vnom"):
        if k in d["v"]:
            _add(d["v"], k, extra)
    if "c" in d["e"]:
        _add(d["e"], "c", extra)


def _duplicate(d: dict[str, Any]) -> None:
    """The leader listed twice: the second entry with the runner-up's votes, sums kept."""
    par = d["carg"][0]["agr"][0]["par"][0]
    lider = _leader(d)
    copia = dict(lider, vap="0")
    par["cand"].append(copia)


MUTATIONS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "votos > eleitorado": (_inflate_leader, "votos totais"),
    "tv ≠ c": (lambda d: _add(d["e"], "c", 1), "comparecimento"),
    "tv ≠ soma": (lambda d: _add(d["v"], "vb", 1), "vb+vn+vnt"),
    "vvc ≠ vv+van+vansj": (lambda d: _add(d["v"], "vvc", 1), "vvc"),
    "ts ≠ st+snt": (lambda d: _add(d["s"], "snt", 1), "st+snt"),
    "te ≠ est+esnt": (lambda d: _add(d["e"], "esnt", 1), "est+esnt"),
    "st > ts": (lambda d: _add(d["s"], "st", int(d["s"]["ts"]) + 1), "seções totalizadas"),
    "Σ candidatos ≠ vv": (lambda d: _add(_leader(d), "vap", 1), "soma dos votos válidos"),
    "candidato repetido": (_duplicate, "mais de uma vez"),
    "negativo": (lambda d: d["v"].update(vnt="-1"), "negativos"),
}


@pytest.mark.parametrize("nome", list(MUTATIONS))
def test_breaking_each_identity_of_a_real_file_refuses_it(nome: str) -> None:
    d = json.loads(AC.read_bytes())
    mutate, palavra = MUTATIONS[nome]
    mutate(d)
    [rec] = parse_result(json.dumps(d).encode())
    problems = consistency_problems(rec)
    assert any(palavra in p for p in problems), problems


@pytest.mark.parametrize(
    ("valor", "motivo"),
    [("²", "inteiro"), ("1" * 5000, "inteiro"), ("٣", "inteiro"), (" 12 ", None), ("1e3", "inteiro")],
)
def test_numbers_are_ascii_digits_of_bounded_length(valor: str, motivo: str | None) -> None:
    d = json.loads(AC.read_bytes())
    d["s"]["ts"] = valor
    if motivo is None:
        [rec] = parse_result(json.dumps(d).encode())
        assert rec.secoes == 12
        return
    with pytest.raises(TseFormatError, match=motivo):
        parse_result(json.dumps(d).encode())


def test_json_nested_100000_deep_is_a_clear_refusal() -> None:
    with pytest.raises(TseFormatError, match="JSON malformado"):
        parse_result(b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(TseFormatError):
        parse_result(b'{"ele": ' + b"[" * 100_000)


def _read(files: dict[str, bytes], antes: dict[str, bytes] | None, uf: str = "sp") -> tuple[bool, str | None]:
    nome = president_name(uf)
    anterior = snapshot_of(antes) if antes is not None else None
    leitura = read_file(snapshot_of(files), nome, "uf", uf, ("6258", 2, 1), anterior)
    return leitura.valido, leitura.motivo


def test_a_changed_candidate_set_refuses_the_reading() -> None:
    nome = president_name("sp")
    primeira = {nome: u_file("sp", Part(votes={13: 200_000, 22: 200_000}))}
    renumerado = {nome: u_file("sp", Part(est=600_000, votes={13: 240_000, 77: 240_000}))}
    terceiro = {nome: u_file("sp", Part(est=600_000, votes={13: 240_000, 22: 200_000, 77: 40_000}))}
    assert _read(primeira, None) == (True, None)
    valido, motivo = _read(renumerado, primeira)
    assert not valido and motivo is not None and "novos: 77; ausentes: 22" in motivo
    valido, motivo = _read(terceiro, primeira)
    assert not valido and motivo is not None and "primeira leitura válida" in motivo
    [a], [b] = parse_result(primeira[nome]), parse_result(renumerado[nome])
    assert candidate_set_problems(a, a) == [] and candidate_set_problems(b, a)


def test_a_candidate_listed_twice_on_the_first_reading_is_refused_not_flipped() -> None:
    nome = president_name("sp")
    d = json.loads(u_file("sp", Part(votes={13: 250_000, 22: 150_000})))
    par = d["carg"][0]["agr"][0]["par"][0]
    par["cand"].append({"n": "13", "nmu": "C13", "vap": "0", "dvt": "Válido"})  # last entry wins today
    valido, motivo = _read({nome: json.dumps(d).encode()}, None)
    assert not valido and motivo is not None and "mais de uma vez: 13" in motivo


def test_a_refused_reading_never_becomes_the_reference() -> None:
    """A previous reading that breaks an identity is no reference: the valid one after it is used."""
    nome = president_name("sp")
    bogus = json.loads(u_file("sp", Part(votes={13: 200_000, 22: 200_000})))
    _inflate_leader(bogus)
    antes = {nome: json.dumps(bogus).encode()}
    agora = {nome: u_file("sp", Part(est=550_000, votes={13: 220_000, 22: 220_000}))}
    assert _read(agora, antes) == (True, None)
    out = run(snapshot_of(agora), anterior=snapshot_of(antes), agora=NOW)
    assert stratum(out, "sp")["valido"] is True


def test_preserved_entry_is_still_checked() -> None:
    nome = president_name("sp")
    bogus = json.loads(u_file("sp", Part()))
    _inflate_leader(bogus)
    snap = Snapshot({nome: json.dumps(bogus).encode()}, {nome: CaptureEntry(NOW, 200, True, None)})
    leitura = read_file(snap, nome, "uf", "sp", ("6258", 2, 1), None)
    assert leitura.categoria == "inconsistente" and "eleitorado totalizado" in (leitura.motivo or "")


def test_a_refused_reading_counts_against_the_valid_files_criterion_and_is_named() -> None:
    """Issue 23 point 2: the poller refused SP's new reading (kept in rejeitados/) and preserved the
    last valid one; criterion 1 counts it and names the file and why."""
    from model.snapshot import parse_capture
    from tests.model.helpers import criterion, president_files

    files = president_files()
    nome = president_name("sp")
    doc = {
        "arquivos": {
            n: {"baixado_em": "2026-10-25T19:59:00Z", "status": 200}
            | (
                {
                    "preservado": True,
                    "erro": "leitura recusada pelo modelo: votos totais (9) > eleitorado",
                    "rejeitado": {f"rejeitados/{n}": "ab"},
                }
                if n == nome
                else {}
            )
            for n in files
        }
    }
    captura, erro = parse_capture(json.dumps(doc).encode())
    assert (
        erro is None and captura[nome].recusado is not None and captura[president_name("rj")].recusado is None
    )
    out = run(Snapshot(files, captura), agora=NOW)
    c = criterion(out, "arquivos_validos")
    assert c["valor"] == 1 and "arquivos_validos" in out["criterios_nao_atendidos"]
    assert nome in (c["nota"] or "") and "votos totais" in (c["nota"] or "")
    assert stratum(out, "sp")["valido"] is True  # the last valid reading is still used (and preserved)


def test_a_part_read_for_the_first_time_with_other_candidates_is_refused() -> None:
    """A renumbered candidate in a part with no previous reading: the set most parts share is the
    race's; the odd part is refused instead of showing a third candidate."""
    from tests.model.helpers import president_files

    files = president_files()
    files[president_name("sp")] = u_file("sp", Part(votes={13: 200_000, 77: 200_000}))
    out = run(snapshot_of(files), agora=NOW)
    sp = stratum(out, "sp")
    assert sp["valido"] is False and "outras partes" in (sp.get("motivo") or "")
    assert [c["numero"] for c in out["forecast"]["candidatos"]] == [13, 22]


def test_the_generated_nights_pass_every_identity_with_no_tolerance(tmp_path: Path) -> None:
    """The demo's and the tests' synthetic nights (`"f": "s"`) are held to the same identities as the
    TSE's own files: turnout c equals the votes cast tv, whatever the floors of the generator."""
    make_synthetic_night(
        tmp_path, dt.datetime(2026, 10, 25, 20, 30, tzinfo=dt.UTC), (0.07, 0.55, 1.0), 10.0, ("es",)
    )
    files = sorted(tmp_path.rglob("*-u.json"))
    assert len(files) > 80
    for path in files:
        for rec in parse_result(path.read_bytes()):
            assert rec.simulado and consistency_problems(rec) == [], path.name
