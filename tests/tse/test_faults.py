"""The job against the replay server with each fault: nothing crashes, no reading is lost or
overwritten, the right criterion fails in `saida.json`, and publication resumes when it clears."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jobs.tse.audit import audit_snapshot
from jobs.tse.config import Corrida
from tests.tse.conftest import PRESIDENT, Job, Replay, captura, job_config, saida, snapshots, tree

SP = "sp-c0001-e006258-u"
SP_JSON = f"{SP}.json"

# fault, expected failed criterion (None: still publishable), whether sp's reading is preserved
CASES: list[tuple[str, dict[str, Any], str | None, bool]] = [
    ("latencia", {"latencia_s": 0.02}, None, False),
    ("5xx", {"erro_5xx": [SP]}, "eleitorado_leitura_preservada", True),
    ("tempo_esgotado", {"tempo_esgotado": [SP]}, "eleitorado_leitura_preservada", True),  # held till the end
    ("corpo_truncado", {"truncado": [SP]}, "eleitorado_leitura_preservada", True),
    ("ausente_404", {"ausente": [SP]}, "eleitorado_leitura_preservada", True),
    ("arquivo_congelado", {"congelado": [SP]}, "diferenca_horario", False),
    ("relogio_desviado", {"relogio_min": {SP: 10}}, "diferenca_horario", False),
    ("somas_erradas", {"somas": [SP]}, "eleitorado_leitura_preservada", True),
]


@pytest.mark.parametrize(("falha", "falhas", "criterio", "preservado"), CASES, ids=[c[0] for c in CASES])
def test_fault_is_survived_reported_and_cleared(
    falha: str,
    falhas: dict[str, Any],
    criterio: str | None,
    preservado: bool,
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, PRESIDENT, tempo_limite_s=5.0))
    race = dados / "tse" / "6258" / "presidente"

    [r1] = job.ciclo()
    assert r1.publicavel is True
    first = snapshots(race)[0]
    first_files = tree(first)

    replay.falhas(**falhas)  # `congelado` as a list freezes the file at the current capture
    replay.avancar()
    [r2] = job.ciclo()
    assert r2.erro is None and r2.alterado
    second = snapshots(race)[-1]
    out = saida(second)
    if criterio is None:
        assert out["publicavel"] is True and r2.publicavel is True
    else:
        assert out["publicavel"] is False
        assert criterio in out["criterios_nao_atendidos"]
        assert out["parcial"]["candidatos"]  # the official partial is still there
    entry = captura(second)["arquivos"][SP_JSON]
    if preservado:
        assert entry["preservado"] is True and entry["erro"]
        assert (second / SP_JSON).read_bytes() == first_files[SP_JSON]  # previous reading kept
        assert r2.preservados == 1
    else:
        assert "preservado" not in entry
    # No reading lost or overwritten: the first snapshot is byte for byte what it was.
    assert tree(first) == first_files
    assert (race / "latest").read_text(encoding="utf-8") == f"{second.name}\n"

    replay.limpar()
    [r3] = job.ciclo()
    assert r3.publicavel is True and r3.erro is None
    assert r3.alterado is (falha != "latencia")
    if r3.alterado:
        third = snapshots(race)[-1]
        assert saida(third)["criterios_nao_atendidos"] == []
        assert "preservado" not in captura(third)["arquivos"][SP_JSON]
    for snap in snapshots(race):
        result = audit_snapshot(snap)
        assert result.ok, (result.problemas, result.diff)


def test_part_that_never_answered_is_a_missing_file(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    replay.falhas(ausente=[SP])
    dados = tmp_path / "data"
    [r] = job_factory(job_config(replay.url, dados, PRESIDENT)).ciclo()
    snap = snapshots(dados / "tse" / "6258" / "presidente")[0]
    assert not (snap / SP_JSON).exists()
    assert captura(snap)["arquivos"][SP_JSON] == {
        "status": None,
        "erro": "TSE respondeu 404",
        "http": 404,
        "tentado_em": captura(snap)["arquivos"][SP_JSON]["tentado_em"],
    }
    assert "eleitorado_sem_arquivo_valido" in saida(snap)["criterios_nao_atendidos"]
    assert r.publicavel is False and r.falhas == 1


def test_retries_recover_a_transient_5xx_within_the_cycle(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    """A 503 is retried (backoff) but keeps failing here; with 1 retry allowed the cycle still ends."""
    replay = replay_factory(synthetic_night)
    replay.falhas(erro_5xx=[SP])
    job = job_factory(job_config(replay.url, tmp_path / "data", PRESIDENT, tentativas=3))
    [r] = job.ciclo()
    # catalogue, config, 29 twins (none; sp's fails), 28 .json, two retries of sp's twin
    assert r.falhas == 1 and r.pedidos == 2 + 29 + 28 + 2
    assert replay.estado()["pedidos_por_arquivo"][f"{SP}.jws"] == 3


def test_tampered_jws_is_rejected_and_a_good_one_accepted(
    real_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    """The real final 6257 files carry `.jws` twins signed by the TSE."""
    replay = replay_factory(real_night)
    dados = tmp_path / "data"
    race = Corrida("presidente", "6257", "br", "uf")
    # catalogo_intervalo_s = 0: twins found missing at the first capture are probed again each cycle.
    job = job_factory(job_config(replay.url, dados, race, catalogo_intervalo_s=0.0))
    job.ciclo()
    replay.avancar(para=-1)  # the signed final capture
    replay.falhas(jws_adulterado=["sp-c0001-e006257-u"])
    [r] = job.ciclo()
    assert r.rejeitados == 1 and r.preservados == 1
    snap = snapshots(dados / "tse" / "6257" / "presidente")[-1]
    sp = captura(snap)["arquivos"]["sp-c0001-e006257-u.json"]
    assert sp["preservado"] is True and "assinatura" in sp["erro"]
    assert not (snap / "sp-c0001-e006257-u.jws").exists()  # the first capture had no twin
    rj = captura(snap)["arquivos"]["rj-c0001-e006257-u.json"]
    assert rj["assinatura"] == "verificada" and rj["fonte"] == "jws"
    assert (snap / "rj-c0001-e006257-u.jws").is_file()
    replay.limpar()
    [r2] = job.ciclo()
    assert r2.alterado and r2.rejeitados == 0
    last = snapshots(dados / "tse" / "6257" / "presidente")[-1]
    assert captura(last)["arquivos"]["sp-c0001-e006257-u.json"]["assinatura"] == "verificada"
    result = audit_snapshot(last)
    assert result.ok and result.assinaturas == 29


def test_required_signature_rejects_unsigned_files(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    [r] = job_factory(job_config(replay.url, tmp_path / "data", PRESIDENT, jws="exigir")).ciclo()
    assert r.falhas == 29 and r.publicavel is False
    asked = replay.estado()["pedidos_por_arquivo"]
    assert not any(n.endswith("-u.json") for n in asked)  # only the .jws were asked for
