"""Criterion 1 ("arquivos do TSE válidos e consistentes") counts a file the poller refused (issue 23,
item 2), also when no earlier valid reading of it exists, and the race page names the file and why."""

from __future__ import annotations

import json
from typing import Any

from model.snapshot import parse_capture
from site_builder.projecao_dados import parse_saida
from site_builder.projecao_view import unmet
from tests.model.helpers import Part, baselines, criterion, run, snapshot_of, stratum, u_file

AC = baselines()["6260-governador-ac-municipio"]
MOTIVO = "leitura recusada pelo modelo: votos totais (9) > eleitorado (5)"


def _governor_night() -> tuple[dict[str, bytes], str]:
    """Every AC municipality half counted, and the smallest municipality's file (≤ 2 % of the
    electorate) refused at its first reading: the poller kept it in rejeitados/ and had nothing older."""
    a, b = AC.finalistas
    parts = {
        pid: Part(te=bp.eleitorado or 0, est=(bp.eleitorado or 0) // 2, votes={a: 1000, b: 900}, vb=0, vn=0)
        for pid, bp in AC.partes.items()
    }
    uf = Part(
        te=sum(p.te for p in parts.values()),
        est=sum(p.est for p in parts.values()),
        votes={a: 1000 * len(parts), b: 900 * len(parts)},
        vb=0,
        vn=0,
    )
    files = {"ac-c0003-e006260-u.json": u_file("ac", uf, cargo=3, ele="6260")}
    for pid, p in parts.items():
        files[f"{pid}-c0003-e006260-u.json"] = u_file(pid[2:], p, cargo=3, ele="6260", tpabr="mu")
    small = min(parts, key=lambda pid: parts[pid].te)
    return files, small


def _saida() -> tuple[dict[str, Any], str]:
    files, small = _governor_night()
    refused = f"{small}-c0003-e006260-u.json"
    del files[refused]  # the refused bytes are in rejeitados/, not among the capture's files
    entries: dict[str, Any] = {n: {"baixado_em": "2026-10-25T19:59:00Z", "status": 200} for n in files}
    # What jobs/tse/cycle.py writes for a refused first reading (no earlier valid one).
    entries[refused] = {
        "status": None,
        "erro": MOTIVO,
        "http": 200,
        "tentado_em": "2026-10-25T19:59:00Z",
        "rejeitado": {f"rejeitados/{refused}": "ab" * 32},
    }
    captura, erro = parse_capture(json.dumps({"arquivos": entries}).encode())
    assert erro is None
    snap = snapshot_of(files)
    snap = type(snap)(arquivos=snap.arquivos, captura=captura)
    return run(snap, cargo="governador", uf="ac"), small


def test_a_refused_first_reading_fails_criterion_1_not_only_the_missing_file_allowance() -> None:
    out, small = _saida()
    sem_arquivo = criterion(out, "eleitorado_sem_arquivo_valido")
    assert sem_arquivo["ok"] is True and 0 < sem_arquivo["valor"] <= 2.0  # within the ≤ 2 % allowance
    c = criterion(out, "arquivos_validos")
    assert c["ok"] is False and c["valor"] == 1
    assert "arquivos_validos" in out["criterios_nao_atendidos"] and out["publicavel"] is False
    assert f"{small}-c0003-e006260-u.json" in (c["nota"] or "") and MOTIVO in (c["nota"] or "")
    assert stratum(out, small)["valido"] is False


def test_the_race_page_names_the_refused_file_and_why_in_portuguese() -> None:
    out, small = _saida()
    raw = json.dumps(out, ensure_ascii=False).encode("utf-8")
    texts = unmet(parse_saida(raw))
    linha = next((t for t in texts if t.startswith("1 arquivo do TSE foi recusado")), texts)
    assert isinstance(linha, str), linha
    assert f"{small}-c0003-e006260-u.json" in linha and "votos totais (9) > eleitorado (5)" in linha
