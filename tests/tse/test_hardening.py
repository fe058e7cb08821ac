"""Issue 15, TSE polling: a wrong projection never reaches readers.

A missing or failing `.jws` in a signed race is a failed file, never a downgrade to the unsigned
`.json`; a reading the model refuses is kept aside and the last valid one preserved; a stale reading
stops being publishable even when no file changed. The hostile answers come from the fault proxy
(tests/support/proxy_falhas.py) in front of the replay server.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from jobs.tse.audit import audit_snapshot
from jobs.tse.config import ConfigTse
from tests.support.assinatura import KID, chave_de_teste, public_x, signed_copy
from tests.support.proxy_falhas import ProxyServer
from tests.tse.conftest import PRESIDENT, Job, Replay, captura, job_config, saida, snapshots, tree

SP = "sp-c0001-e006258-u"
SP_JSON = f"{SP}.json"


@pytest.fixture(scope="session")
def signed_night(synthetic_night: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The synthetic night with a `.jws` twin (test key) for every result file."""
    return signed_copy(synthetic_night, tmp_path_factory.mktemp("noite") / "assinada")


@pytest.fixture
def proxy_factory() -> Iterator[Callable[[str], ProxyServer]]:
    """Fault proxies in front of a replay server; stopped at teardown."""
    proxies: list[ProxyServer] = []

    def start(upstream: str) -> ProxyServer:
        proxy = ProxyServer(upstream)
        proxy.iniciar()
        proxies.append(proxy)
        return proxy

    yield start
    for p in proxies:
        p.parar()


def signed_config(url: str, dados: Path, **extra: Any) -> ConfigTse:
    return job_config(url, dados, PRESIDENT, jws_kid=KID, jws_x=public_x(), **extra)


def test_missing_twin_in_a_signed_race_is_a_failed_file_not_a_downgrade(
    signed_night: Path,
    replay_factory: Callable[[Path], Replay],
    proxy_factory: Callable[[str], ProxyServer],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(signed_night)
    proxy = proxy_factory(replay.url)
    dados = tmp_path / "data"
    job = job_factory(signed_config(proxy.url_base, dados))
    [r1] = job.ciclo()
    assert r1.publicavel is True
    race = dados / "tse" / "6258" / "presidente"
    first = snapshots(race)[0]
    assert captura(first)["arquivos"][SP_JSON]["assinatura"] == "verificada"
    # The twin disappears and the unsigned .json says another leader.
    proxy.falhas(ausente=[f"{SP}.jws"], adulterado=[SP_JSON])
    replay.avancar()
    [r2] = job.ciclo()
    last = snapshots(race)[-1]
    entry = captura(last)["arquivos"][SP_JSON]
    assert entry["preservado"] is True and "assinatura .jws ausente" in entry["erro"]
    assert (last / SP_JSON).read_bytes() == (first / SP_JSON).read_bytes()  # the signed reading kept
    assert r2.publicavel is False and "eleitorado_leitura_preservada" in r2.nao_atendidos
    assert proxy.estado.contagem["adulterado"] == 0  # the unsigned .json is not even asked for
    assert audit_snapshot(last, chave_de_teste()).ok


def test_tampered_json_on_the_first_reading_never_publishes(
    signed_night: Path,
    replay_factory: Callable[[Path], Replay],
    proxy_factory: Callable[[str], ProxyServer],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    """Whichever file a probe would have tried first, the race has twins: the one missing is a failure."""
    replay = replay_factory(signed_night)
    proxy = proxy_factory(replay.url)
    proxy.falhas(ausente=[f"{SP}.jws"], adulterado=[SP_JSON])
    dados = tmp_path / "data"
    [r] = job_factory(signed_config(proxy.url_base, dados)).ciclo()
    [snap] = snapshots(dados / "tse" / "6258" / "presidente")
    entry = captura(snap)["arquivos"][SP_JSON]
    assert entry["status"] is None and "assinatura .jws ausente" in entry["erro"]
    assert not (snap / SP_JSON).exists()
    assert saida(snap)["publicavel"] is False and r.publicavel is False
    assert "eleitorado_sem_arquivo_valido" in saida(snap)["criterios_nao_atendidos"]


def test_tampered_payload_with_the_original_signature_is_refused_and_kept_aside(
    signed_night: Path,
    replay_factory: Callable[[Path], Replay],
    proxy_factory: Callable[[str], ProxyServer],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(signed_night)
    proxy = proxy_factory(replay.url)
    dados = tmp_path / "data"
    job = job_factory(signed_config(proxy.url_base, dados))
    job.ciclo()
    proxy.falhas(adulterado=[f"{SP}.jws"])
    replay.avancar()
    [r] = job.ciclo()
    last = snapshots(dados / "tse" / "6258" / "presidente")[-1]
    entry = captura(last)["arquivos"][SP_JSON]
    assert r.rejeitados == 1 and entry["preservado"] is True and "assinatura" in entry["erro"]
    [kept] = entry["rejeitado"]
    assert kept == f"rejeitados/{SP}.jws" and (last / kept).is_file()
    assert r.publicavel is False


# fault of the proxy on sp's .json, and a word of the reason the model gives
REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("totais_menores", {"totais_menores": [SP_JSON]}, "diminuiu"),
    ("outra_eleicao", {"outra_eleicao": [SP_JSON]}, "eleição 6257"),
    ("outra_uf", {"trocado": {SP_JSON: "mg-c0001-e006258-u.json"}}, "código da abrangência mg"),
    ("esquema", {"esquema": [SP_JSON]}, "ausente"),
    ("negativos", {"negativos": [SP_JSON]}, "negativos"),
]


@pytest.mark.parametrize(("falha", "falhas", "motivo"), REFUSED, ids=[c[0] for c in REFUSED])
def test_refused_reading_never_replaces_the_valid_one(
    falha: str,
    falhas: dict[str, Any],
    motivo: str,
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    proxy_factory: Callable[[str], ProxyServer],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    proxy = proxy_factory(replay.url)
    dados = tmp_path / "data"
    job = job_factory(job_config(proxy.url_base, dados, PRESIDENT))
    job.ciclo()
    race = dados / "tse" / "6258" / "presidente"
    first = snapshots(race)[0]
    first_files = tree(first)
    replay.avancar()
    job.ciclo()
    valid = snapshots(race)[-1]
    proxy.falhas(**falhas)
    replay.avancar()
    [r] = job.ciclo()
    bad = snapshots(race)[-1]
    entry = captura(bad)["arquivos"][SP_JSON]
    assert r.rejeitados == 1 and entry["preservado"] is True
    assert "recusada pelo modelo" in entry["erro"] and motivo in entry["erro"], entry["erro"]
    assert (bad / SP_JSON).read_bytes() == (valid / SP_JSON).read_bytes()  # last valid reading kept
    [kept] = entry["rejeitado"]
    assert kept == f"rejeitados/{SP_JSON}" and (bad / kept).is_file()
    assert saida(bad)["publicavel"] is False
    assert tree(first) == first_files
    assert audit_snapshot(bad).ok
    (bad / kept).write_bytes(b"{}")  # the refused bytes are part of what the audit checks
    assert any("rejeitados/" in p for p in audit_snapshot(bad).problemas)
    (bad / kept).unlink()
    # The same refused bytes again: nothing new to store.
    [r_again] = job.ciclo()
    assert not r_again.alterado
    # Cleared: the next real reading is compared with the last valid one, not with the refused one.
    proxy.limpar()
    replay.avancar()
    [r2] = job.ciclo()
    last = snapshots(race)[-1]
    assert r2.publicavel is True and r2.rejeitados == 0, r2.nao_atendidos
    assert "preservado" not in captura(last)["arquivos"][SP_JSON]
    assert not (last / "rejeitados").exists()


def test_refused_first_reading_leaves_the_part_without_a_file(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    proxy_factory: Callable[[str], ProxyServer],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    proxy = proxy_factory(replay.url)
    proxy.falhas(outra_eleicao=[SP_JSON])
    dados = tmp_path / "data"
    [r] = job_factory(job_config(proxy.url_base, dados, PRESIDENT)).ciclo()
    [snap] = snapshots(dados / "tse" / "6258" / "presidente")
    entry = captura(snap)["arquivos"][SP_JSON]
    assert entry["status"] is None and "eleição 6257" in entry["erro"]
    assert not (snap / SP_JSON).exists() and (snap / "rejeitados" / SP_JSON).is_file()
    assert r.publicavel is False


def test_stale_reading_stops_being_publishable_with_no_new_file(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    """File age is a criterion: every cycle re-evaluates at its own time, and the page follows."""
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, PRESIDENT))
    [r1] = job.ciclo()
    assert r1.publicavel is True
    race = dados / "tse" / "6258" / "presidente"
    [first] = snapshots(race)
    replay.falhas(avanco_min=10)  # the TSE stops: same files, ten minutes later
    [r2] = job.ciclo()
    assert r2.nao_modificados == 29 and r2.novos == 0
    assert r2.alterado and r2.reavaliado and r2.publicavel is False
    assert "idade_arquivo_referencia" in r2.nao_atendidos
    second = snapshots(race)[-1]
    assert (race / "latest").read_text(encoding="utf-8") == f"{second.name}\n"
    assert (second / SP_JSON).stat().st_ino == (first / SP_JSON).stat().st_ino  # no new raw bytes
    assert saida(second)["publicavel"] is False
    assert audit_snapshot(second).ok
    assert "reavaliação sem arquivo novo" in r2.linha()
    # Still stale: the verdict did not change, so nothing is written.
    [r3] = job.ciclo()
    assert not r3.alterado and r3.publicavel is False
    assert len(snapshots(race)) == 2


def test_parts_not_asked_by_the_cycle_deadline_keep_their_reading(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    from jobs.tse.cycle import run_cycle

    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, PRESIDENT))
    job.ciclo()
    race = dados / "tse" / "6258" / "presidente"
    [first] = snapshots(race)
    replay.avancar()
    res = run_cycle(job.config.com(prazo_ciclo_s=0.001), job.state)  # over before most requests
    [r] = res.corridas
    assert res.erro is None and r.erro is None and r.preservados >= 1 and r.publicavel is False
    last = snapshots(race)[-1]
    entries = captura(last)["arquivos"]
    late = [n for n, e in entries.items() if "prazo do ciclo" in (e.get("erro") or "")]
    assert late and all((last / n).read_bytes() == (first / n).read_bytes() for n in late)
    assert job.state.cliente.prazo is None  # the next cycle starts without the old deadline


def test_a_catalogue_sending_polling_to_another_host_is_refused_and_the_last_good_one_kept(
    signed_night: Path,
    replay_factory: Callable[[Path], Replay],
    proxy_factory: Callable[[str], ProxyServer],
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
) -> None:
    """Issue 22 item 2: `<base>@other-host` in the `u` template moved every request to another host
    serving swapped leaders without `.jws`; the poll never stops on a bad catalogue either."""
    replay = replay_factory(signed_night)
    proxy = proxy_factory(replay.url)
    outro = proxy_factory(replay.url)
    outro.falhas(adulterado=["*-u.json"], ausente=["*.jws"])
    modelo = f"<base>@{outro.url_base.removeprefix('http://')}/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>"
    proxy.falhas(catalogo_modelo=modelo)
    job = job_factory(signed_config(proxy.url_base, tmp_path / "data", catalogo_intervalo_s=0.0))
    [r1] = job.ciclo()  # no good catalogue yet: nothing asked, nothing written, the job goes on
    assert r1.erro is not None and "recusado" in r1.erro and r1.captura is None
    proxy.limpar()
    [r2] = job.ciclo()
    assert r2.erro is None and r2.publicavel is True
    proxy.falhas(catalogo_modelo=modelo)
    replay.avancar(para=1)
    [r3] = job.ciclo()
    assert r3.erro is None and r3.publicavel is True and r3.novos > 0
    assert any("mantido o último válido" in a for a in r3.avisos), r3.avisos
    assert sum(outro.estado.contagem.values()) == 0  # the other host was never asked anything
