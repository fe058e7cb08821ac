"""The polling job against the replay server: snapshots, `latest`, identical `projetar` bytes, git,
unchanged cycles, municipal coverage-first, the calibration pin."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from jobs.tse.cycle import PollState, TseError, data_key, run_cycle
from model import VERSION
from model import cli as model_cli
from model.calibration import load_calibration
from tests.tse.conftest import (
    GOVERNOR_AC,
    PRESIDENT,
    Job,
    Replay,
    captura,
    job_config,
    saida,
    snapshots,
    tree,
)

RaceDir = Path


def president_dir(dados: Path) -> Path:
    return dados / "tse" / "6258" / "presidente"


def projetar_bytes(argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> bytes:
    assert model_cli.main(["projetar", *argv]) == 0
    return capsysbinary.readouterr().out


def test_cycle_writes_a_snapshot_that_projetar_reproduces(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, PRESIDENT))
    [r] = job.ciclo()
    assert r.erro is None and r.alterado and r.publicavel is True
    race = president_dir(dados)
    [snap] = snapshots(race)
    assert (race / "latest").read_text(encoding="utf-8") == f"{snap.name}\n"
    assert snap.name == r.captura and snap.name.startswith("2026-10-25T20-3")  # the server's clock
    names = {p.name for p in snap.iterdir()}
    assert len([n for n in names if n.endswith("-c0001-e006258-u.json")]) == 29  # 28 parts + br
    cap = captura(snap)
    assert cap["comando"].startswith("eleicoes projetar data/tse/6258/presidente/")
    sp = cap["arquivos"]["sp-c0001-e006258-u.json"]
    assert sp["status"] == 200 and sp["etag"] and sp["baixado_em"].startswith("2026-10-25T20:30")
    assert sp["assinatura"] == "ausente"  # the synthetic night has no .jws twins
    # The raw bytes are exactly what the server serves for capture 0.
    night_sp = synthetic_night / "capturas" / "2026-10-25T20-30-00Z" / "sp-c0001-e006258-u.json"
    assert (snap / "sp-c0001-e006258-u.json").read_bytes() == night_sp.read_bytes()
    # `eleicoes projetar` on the folder gives the stored bytes, for this and the next snapshot.
    assert projetar_bytes([str(snap)], capsysbinary) == (snap / "saida.json").read_bytes()
    replay.avancar()
    [r2] = job.ciclo()
    assert r2.alterado and r2.apurado_pct is not None and r.apurado_pct is not None
    assert r2.apurado_pct > r.apurado_pct
    snap2 = snapshots(race)[-1]
    assert projetar_bytes([str(snap2)], capsysbinary) == (snap2 / "saida.json").read_bytes()
    # The municipality catalogue did not change: one copy on disk, hard-linked (the real one is 0.5 MB).
    cm = "mun-e006258-cm.json"
    assert (snap2 / cm).read_bytes() == (snap / cm).read_bytes()
    assert (snap2 / cm).stat().st_ino == (snap / cm).stat().st_ino
    out = saida(snap2)
    assert out["modelo"]["calibracao_sha256"] == load_calibration().sha256
    assert out["parcial"]["candidatos"] and out["forecast"]["candidatos"]


def test_unchanged_cycles_write_nothing_and_commit_nothing(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    dados.mkdir()
    subprocess.run(["git", "init", "-q", str(dados)], check=True)
    job = job_factory(job_config(replay.url, dados, PRESIDENT, git=True))
    [r] = job.ciclo()
    assert r.commit and not r.avisos
    before = tree(dados)
    log_before = subprocess.run(
        ["git", "-C", str(dados), "log", "--format=%H%n%B"], capture_output=True, text=True, check=True
    ).stdout
    for _ in range(2):
        [same] = job.ciclo()
        assert not same.alterado and same.commit is None
        assert same.nao_modificados == 29 and same.novos == 0  # conditional GETs answered 304
    assert tree(dados) == before
    log_after = subprocess.run(
        ["git", "-C", str(dados), "log", "--format=%H%n%B"], capture_output=True, text=True, check=True
    ).stdout
    assert log_after == log_before
    # A change: one new commit whose message names the model version and the calibration hash.
    replay.avancar()
    [changed] = job.ciclo()
    assert changed.alterado and changed.commit
    messages = subprocess.run(
        ["git", "-C", str(dados), "log", "--format=%s"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(messages) == 2
    cal = load_calibration()
    assert f"modelo {VERSION}" in messages[0] and cal.sha256 in messages[0]
    assert changed.captura is not None and changed.captura in messages[0]
    status = subprocess.run(
        ["git", "-C", str(dados), "status", "--porcelain"], capture_output=True, text=True, check=True
    ).stdout
    assert status == ""  # snapshot and `latest` are both committed


def test_restart_resumes_from_latest_with_conditional_gets(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    config = job_config(replay.url, dados, PRESIDENT)
    job_factory(config).ciclo()
    fresh = job_factory(config)  # a new process: state rebuilt from `latest`
    [r] = fresh.ciclo()
    assert not r.alterado and r.nao_modificados == 29 and r.publicavel is True


def test_repository_that_is_not_a_repo_root_is_not_committed_to(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # enclosing repository
    dados = tmp_path / "data"
    [r] = job_factory(job_config(replay.url, dados, PRESIDENT, git=True)).ciclo()
    assert r.alterado and r.commit is None
    assert any("não é a raiz de um repositório git" in a for a in r.avisos)
    log = subprocess.run(["git", "-C", str(tmp_path), "log"], capture_output=True, text=True, check=False)
    assert log.returncode != 0  # still no commit in the enclosing repository


def test_municipal_mode_fetches_only_parts_whose_coverage_moved(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, GOVERNOR_AC))
    [r] = job.ciclo()
    assert r.alterado and r.erro is None
    snap = snapshots(dados / "tse" / "6260" / "governador-ac")[-1]
    assert (snap / "ac-e006260-ab.json").is_file()  # coverage kept for the audit
    assert len(list(snap.glob("ac?????-c0003-e006260-u.json"))) == 22
    assert (
        projetar_bytes([str(snap), "--cargo", "governador", "--uf", "ac"], capsysbinary)
        == (snap / "saida.json").read_bytes()
    )
    replay.avancar()
    assert job.ciclo()[0].novos == 23  # 30 % → 95 %: every municipality moved, and the UF file
    caps = sorted((synthetic_night / "capturas").iterdir())
    # Every file is regenerated at every capture (new hg, idg); the data moved in some only.
    changed = {
        p.name
        for p in caps[2].glob("ac?????-c0003-e006260-u.json")
        if data_key(p.name, p.read_bytes()) != data_key(p.name, (caps[1] / p.name).read_bytes())
    }
    assert 0 < len(changed) < 22  # some municipalities were already complete at 95 %
    before = replay.estado()["pedidos_por_arquivo"]
    replay.avancar()
    [r2] = job.ciclo()
    after = replay.estado()["pedidos_por_arquivo"]
    asked = {n for n, c in after.items() if c > before.get(n, 0) and n.startswith("ac") and "-c0003-" in n}
    assert asked == changed | {"ac-c0003-e006260-u.json"}
    assert r2.alterado and r2.novos == len(changed) + 1


def test_calibration_pin_mismatch_refuses_to_run(
    synthetic_night: Path, replay_factory: Callable[[Path], Replay], tmp_path: Path
) -> None:
    replay = replay_factory(synthetic_night)
    dados = tmp_path / "data"
    wrong = job_config(replay.url, dados, PRESIDENT, calibracao_sha256="0" * 64)
    with pytest.raises(TseError, match="calibração do modelo não é a fixada"):
        PollState.criar(wrong)
    # A job started with the right pin stops writing as soon as the pin and the file disagree.
    state = PollState.criar(job_config(replay.url, dados, PRESIDENT))
    try:
        res = run_cycle(wrong, state)
    finally:
        state.fechar()
    assert res.erro is not None and "calibracao_sha256" in res.erro
    assert not dados.exists()
    assert res.linhas() == [f"ciclo não executado: {res.erro}"]


def test_catalogue_unavailable_fetches_nothing(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    replay.falhas(ausente=["ele-c.json"])
    dados = tmp_path / "data"
    [r] = job_factory(job_config(replay.url, dados, PRESIDENT)).ciclo()
    assert r.erro is not None and "ele-c.json" in r.erro and not r.alterado
    files = replay.estado()["pedidos_por_arquivo"]
    assert set(files) == {"ele-c.json"}  # no URL guessed without the catalogue
    assert "ERRO" in r.linha()


def test_election_missing_from_catalogue_is_not_guessed(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    from jobs.tse.config import Corrida

    replay = replay_factory(synthetic_night)
    ghost = Corrida("presidente", "9999", "br", "uf")
    [r] = job_factory(job_config(replay.url, tmp_path / "data", ghost)).ciclo()
    assert r.erro == "eleição 9999 não está no catálogo do TSE (ele-c.json)"
    assert set(replay.estado()["pedidos_por_arquivo"]) == {"ele-c.json"}


def test_log_line_says_what_happened(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    replay = replay_factory(synthetic_night)
    job = job_factory(job_config(replay.url, tmp_path / "data", PRESIDENT))
    [r] = job.ciclo()
    line = r.linha()
    assert line.startswith("presidente 6258: 60 pedidos, 29 alterados, 0 não modificados (304), 0 erros")
    [snap] = snapshots(tmp_path / "data" / "tse" / "6258" / "presidente")
    # Named by the night's clock (the replay's `Date`: 20:30:00 at the step, then real time runs).
    assert re.fullmatch(r"2026-10-25T20-30-\d\dZ", snap.name), snap.name
    assert f"snapshot {snap.name}" in line and "% apurado" in line and line.endswith("publicável")
    replay.falhas(erro_5xx=["sp-c0001-e006258-u"])
    replay.avancar()
    [r2] = job.ciclo()
    assert "1 erros" in r2.linha() and "1 leituras preservadas" in r2.linha()
    assert "não publicável (eleitorado_leitura_preservada" in r2.linha()
    # The preserved reading is 10 minutes older than the others: the time criteria fail too.
    assert r2.nao_atendidos[0] == "eleitorado_leitura_preservada"


def test_part_is_rechecked_when_its_coverage_moved_before_its_file(
    synthetic_night: Path,
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
) -> None:
    """The coverage row can move before the `-u` file does (TSE-FORMAT.md §10): the job keeps
    asking for that part for a few cycles instead of waiting for the next coverage change."""
    from jobs.tse.night import Noite, write_capture, write_meta

    source = Noite.abrir(synthetic_night)
    caps = source.capturas
    ac = {n: p.read_bytes() for n, p in caps[0].arquivos.items() if "-e006260-" in n}
    ac_next = {n: p.read_bytes() for n, p in caps[1].arquivos.items() if "-e006260-" in n}
    coverage_next = source.cobertura(1, "ac", "6260")
    assert coverage_next is not None
    night = tmp_path / "noite"
    write_meta(night, "cobertura antes do arquivo")
    write_capture(night, caps[0].instante, ac)  # coverage generated from these files
    write_capture(night, caps[1].instante, {"ac-e006260-ab.json": coverage_next})  # files not yet
    write_capture(night, caps[2].instante, ac_next)  # the files arrive; coverage unchanged
    replay = replay_factory(night)
    dados = tmp_path / "data"
    job = job_factory(job_config(replay.url, dados, GOVERNOR_AC, reconferir_ciclos=3))
    job.ciclo()
    replay.avancar()
    [r1] = job.ciclo()
    # 22 + UF: the TSE regenerated them (new hg) with nothing new, and the reading stays fresh.
    assert r1.pedidos == 24 and r1.regenerados == 23 and r1.novos == 0
    assert not r1.alterado and r1.publicavel is True
    replay.avancar()
    [r2] = job.ciclo()
    assert r2.alterado and r2.novos == 23  # rechecked although the coverage did not move again
    snap = snapshots(dados / "tse" / "6260" / "governador-ac")[-1]
    for name, raw in ac_next.items():
        if name.endswith("-u.json"):
            assert (snap / name).read_bytes() == raw


def test_df_governor_by_zone(
    replay_factory: Callable[[Path], Replay],
    job_factory: Callable[..., Job],
    tmp_path: Path,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    from jobs.tse.config import Corrida
    from jobs.tse.synthetic import Totais, schedule, write_night
    from tests.tse.conftest import START

    zonas = [f"{z:04d}" for z in range(1, 22) if z not in (7, 12)]
    partes = [
        Totais(
            f"df97012-z{z}",
            100_000 + i,
            79_000,
            1_000,
            2_000,
            ((10, 40_000 + 100 * i), (20, 36_000 - 100 * i)),
        )
        for i, z in enumerate(zonas)
    ]
    night = tmp_path / "noite"
    write_night(night, partes, schedule(START, [0.4]), eleicao="6260", cargo=3, agregado="df")
    replay = replay_factory(night)
    dados = tmp_path / "data"
    df = Corrida("governador", "6260", "df", "zona")
    [r] = job_factory(job_config(replay.url, dados, df)).ciclo()
    assert (
        r.alterado and r.erro is None and r.pedidos == 2 + 20 + 20
    )  # catalogue, config, every twin (none), files
    snap = snapshots(dados / "tse" / "6260" / "governador-df")[-1]
    assert len(list(snap.glob("df97012-z*-c0003-e006260-u.json"))) == 19
    out = saida(snap)
    assert out["modo"] == "governador_zona" and len(out["estratos"]) == 19
    assert captura(snap)["projetar"] == ["--cargo", "governador", "--uf", "df"]
    assert (
        projetar_bytes([str(snap), "--cargo", "governador", "--uf", "df"], capsysbinary)
        == (snap / "saida.json").read_bytes()
    )
