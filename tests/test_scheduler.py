"""The scheduler: fast-clock runs, one instance per job, failures survived, rebuild on change,
the project lock, the health file and a clean stop on SIGTERM."""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import scheduler
from jobs.configuracao import ConfigSectionError
from scheduler import Job, Outcome, Runner, SchedulerConfig, SiteJob
from site_builder.lock import LockBusyError, project_lock
from tests.support.sinais import arquivo_interrompido

REPO = Path(__file__).resolve().parents[1]
FIXTURE_CONTENT = REPO / "tests" / "fixtures" / "site_minimo" / "content"


def until(predicate: Callable[[], bool], timeout_s: float = 60.0) -> None:
    """Wait for `predicate` (polling); fail the test only after a limit no loaded machine reaches."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condição não atingida a tempo")
        time.sleep(0.01)


class Counter:
    """A job body that counts its runs and how many run at once."""

    def __init__(
        self,
        sleep_s: float = 0.0,
        changes: Callable[[int], bool] = lambda n: False,
        hold: Callable[[int], None] = lambda n: None,
    ) -> None:
        self.sleep_s, self.changes, self.hold = sleep_s, changes, hold
        self.runs = 0
        self.active = 0
        self.max_active = 0
        self._lock = threading.Lock()

    def __call__(self) -> bool:
        with self._lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)
            self.runs += 1
            n = self.runs
        time.sleep(self.sleep_s)
        self.hold(n)
        with self._lock:
            self.active -= 1
        return self.changes(n)


def runner(tmp_path: Path, jobs: list[Job], site: Job | None = None, **options: Any) -> Runner:
    return Runner(jobs, site, tmp_path / "saude.json", misfire_grace_s=1, **options)


def health(tmp_path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((tmp_path / "saude.json").read_text(encoding="utf-8"))
    return data


def test_jobs_run_on_their_cadence_and_never_overlap(tmp_path: Path) -> None:
    slow = Counter(sleep_s=0.12)  # much longer than its cadence
    fast = Counter()
    r = runner(tmp_path, [Job("tse", 0.02, slow), Job("debate", 0.02, fast)])
    r.start()
    until(lambda: slow.runs >= 4 and fast.runs >= 10)
    r.stop()
    r.wait()
    assert slow.max_active == 1 and fast.max_active == 1
    job = health(tmp_path)["tarefas"]["tse"]
    assert job["execucoes"] == slow.runs and job["resultado"] == "sem_mudanca"


def test_nothing_new_starts_once_a_stop_was_asked(tmp_path: Path) -> None:
    """A limit reached while the next run is already due (the job outlasted its cadence) must not
    start it: the demo's `--passos N` read N + 1 captures on a loaded machine."""
    counted = Counter()
    job = Job("tse", 0.02, counted)
    r = runner(tmp_path, [job], stop_after={"tse": 1})
    r._run_input(job)  # the scheduler's entry point for an input job's run
    assert r.stopping.is_set() and counted.runs == 1
    r._run_input(job)  # due at once: the stop was asked, so it does not run
    assert counted.runs == 1 and health(tmp_path)["tarefas"]["tse"]["execucoes"] == 1


def test_a_raising_job_is_recorded_and_the_others_go_on(tmp_path: Path) -> None:
    def broken() -> bool:
        raise ValueError("arquivo do TSE truncado")

    fine = Counter()
    r = runner(tmp_path, [Job("tse", 0.02, broken), Job("checagens", 0.02, fine)])
    r.start()
    until(lambda: r.health()["tarefas"]["tse"]["falhas"] >= 3 and fine.runs >= 3)
    r.stop()
    r.wait()
    job = health(tmp_path)["tarefas"]["tse"]
    assert job["resultado"] == "erro"
    assert job["erro"] == "ValueError: arquivo do TSE truncado"
    assert job["ultimo_sucesso"] is None
    assert health(tmp_path)["tarefas"]["checagens"]["falhas"] == 0


def test_a_change_triggers_the_site_job_and_no_change_does_not(tmp_path: Path) -> None:
    tse = Counter(changes=lambda n: n == 3)
    site = Counter()
    r = runner(tmp_path, [Job("tse", 0.03, tse)], Job("site", 3600, site))
    r.start()
    until(lambda: site.runs == 2)  # the run at start, then the one the change asked for
    until(lambda: tse.runs >= 8)
    r.stop()
    r.wait()
    assert site.runs == 2
    assert health(tmp_path)["alteracoes_pendentes"] is False


def test_changes_during_a_build_get_another_build_and_never_an_overlap(tmp_path: Path) -> None:
    tse = Counter(changes=lambda n: True)
    # The first two builds last until the TSE job has reported changes during them (not a sleep
    # that assumes how fast the other thread runs): each must be followed by another build.
    site = Counter(hold=lambda n: until(lambda: tse.runs >= 5 * n) if n <= 2 else None)
    r = runner(tmp_path, [Job("tse", 0.01, tse)], Job("site", 3600, site), stop_after={"tse": 25})
    r.start()
    assert r.wait(duration_s=30) == "limite"
    assert site.max_active == 1
    assert site.runs >= 3
    assert health(tmp_path)["alteracoes_pendentes"] is False  # the last change reached the site


def test_a_job_that_says_it_is_done_leaves_the_schedule_and_can_end_the_run(tmp_path: Path) -> None:
    calls = Counter()

    def night() -> Outcome:
        n = calls()
        return Outcome(changed=True, done=calls.runs == 3, detail=f"leitura {n}")

    site = Counter()
    r = runner(
        tmp_path, [Job("tse", 0.02, night)], Job("site", 3600, site), stop_when_done=frozenset({"tse"})
    )
    r.start()
    assert r.wait(duration_s=30) == "concluido"
    time.sleep(0.1)
    assert calls.runs == 3
    data = health(tmp_path)
    assert data["estado"] == "encerrado"
    assert data["tarefas"]["tse"]["resultado"] == "concluida"
    assert site.runs >= 2 and data["alteracoes_pendentes"] is False


def test_health_file_describes_every_job(tmp_path: Path) -> None:
    r = runner(tmp_path, [Job("tse", 0.05, Counter(changes=lambda n: True))], Job("site", 60, Counter()))
    r.start()
    until(lambda: (tmp_path / "saude.json").is_file() and health(tmp_path)["estado"] == "rodando")
    until(lambda: health(tmp_path)["tarefas"]["tse"]["execucoes"] >= 2)
    running = health(tmp_path)
    r.stop()
    r.wait()
    assert set(running) == {
        "estado",
        "pid",
        "iniciado_em",
        "atualizado_em",
        "alteracoes_pendentes",
        "tarefas",
    }
    tse = running["tarefas"]["tse"]
    assert tse["cadencia_s"] == 0.05 and tse["resultado"] == "mudou"
    assert tse["ultima_execucao"].endswith("+00:00") and isinstance(tse["duracao_s"], float)
    assert running["tarefas"]["site"]["cadencia_s"] == 60
    assert health(tmp_path)["estado"] == "encerrado"


def test_unavailable_job_code_is_reported_not_crashed(tmp_path: Path) -> None:
    def missing() -> bool:
        scheduler._import("jobs.nao_existe.ainda")
        return True

    r = runner(tmp_path, [Job("debate", 0.02, missing)])
    r.start()
    until(lambda: r.health()["tarefas"]["debate"]["execucoes"] >= 2)
    r.stop()
    r.wait()
    job = health(tmp_path)["tarefas"]["debate"]
    assert job["resultado"] == "indisponivel" and "jobs.nao_existe.ainda não existe" in job["erro"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "projeto"
    shutil.copytree(FIXTURE_CONTENT, root / "content")
    shutil.copytree(REPO / "templates", root / "templates")
    (root / "eleicoes.toml").write_text("[publicar]\n\n[agendador]\ntarefas = []\n", encoding="utf-8")
    return root


def test_site_job_builds_and_publishes_then_has_nothing_to_do(project: Path) -> None:
    job = SiteJob(project, project / "public", project / "eleicoes.toml", publish=True, lock_wait_s=1)
    first = job()
    assert isinstance(first, Outcome) and first.changed
    published = project / ".cache" / "publicado" / "index.html"
    assert published.read_bytes() == (project / "public" / "index.html").read_bytes()
    again = job()
    assert isinstance(again, Outcome) and not again.changed
    assert "0 enviados" in again.detail


def test_site_job_waits_for_the_project_lock_and_reports_busy(project: Path, tmp_path: Path) -> None:
    site = SiteJob(project, project / "public", project / "eleicoes.toml", publish=True, lock_wait_s=0.2)
    r = runner(tmp_path, [], Job("site", 3600, site), busy_retry_s=0.2)
    with project_lock(project, "eleicoes build (manual)"):
        r.start()
        until(lambda: r.health()["tarefas"]["site"]["execucoes"] >= 1)
        assert not (project / "public" / "index.html").exists()  # nothing built while the CLI held it
        job = r.health()["tarefas"]["site"]
        assert job["resultado"] == "ocupado" and "eleicoes build (manual)" in job["erro"]
    until(lambda: r.health()["tarefas"]["site"]["resultado"] == "mudou", timeout_s=30)
    r.stop()
    r.wait()
    assert (project / ".cache" / "publicado" / "index.html").is_file()


def test_failed_build_is_logged_and_keeps_the_site(
    project: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (project / "content" / "site.toml").write_text("titulo = [", encoding="utf-8")
    (project / "public").mkdir()
    (project / "public" / "index.html").write_text("site anterior", encoding="utf-8")
    site = SiteJob(project, project / "public", project / "eleicoes.toml", publish=True, lock_wait_s=1)
    r = runner(tmp_path, [], Job("site", 3600, site))
    r.start()
    until(lambda: r.health()["tarefas"]["site"]["execucoes"] >= 1, timeout_s=30)
    r.stop()
    r.wait()
    job = health(tmp_path)["tarefas"]["site"]
    assert job["resultado"] == "erro" and "site.toml" in job["erro"]
    assert "site: erro" in caplog.text
    assert (project / "public" / "index.html").read_text(encoding="utf-8") == "site anterior"
    assert not (project / ".cache" / "publicado").exists()


def test_config_section_and_command_line_overrides(project: Path) -> None:
    (project / "eleicoes.toml").write_text(
        '[agendador]\ntse_s = 10\ntarefas = ["tse"]\ndebate_fontes = ["d1=data/seg"]\n', encoding="utf-8"
    )
    args = scheduler.build_parser().parse_args(
        ["--raiz", str(project), "--cadencia", "tse=0.5", "--cadencia", "site=2", "--sem-publicar"]
    )
    root, _, cfg = scheduler.config_from_args(args)
    assert (cfg.tse_s, cfg.site_s, cfg.publicar, cfg.tarefas) == (0.5, 2.0, False, ("tse",))
    assert cfg.debate_fontes == ("d1=data/seg",)
    assert cfg.saude == root / ".cache" / "agendador-saude.json"
    jobs = scheduler.default_jobs(root, cfg, root / "eleicoes.toml")
    assert [(j.name, j.every_s) for j in jobs] == [("tse", 0.5)]
    with pytest.raises(ConfigSectionError, match="tarefa desconhecida 'tv'"):
        SchedulerConfig(tarefas=("tv",))
    (project / "eleicoes.toml").write_text("[agendador]\ntse_s = 0\n", encoding="utf-8")
    with pytest.raises(ConfigSectionError, match="'tse_s' deve ser positivo"):
        scheduler.load_scheduler_config(project)
    default = SchedulerConfig()
    assert (default.tse_s, default.debate_s, default.checagens_s) == (30.0, 5.0, 300.0)


def _git(repo: Path, *args: str) -> str:
    result = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_fact_check_job_pulls_the_content_repository(project: Path, tmp_path: Path) -> None:
    origin = tmp_path / "origem"
    shutil.copytree(project / "content", origin)
    _git(origin, "init", "-q", "-b", "main")
    _git(origin, "-c", "user.name=Redação", "-c", "user.email=r@example.org", "add", ".")
    _git(origin, "-c", "user.name=Redação", "-c", "user.email=r@example.org", "commit", "-q", "-m", "início")
    shutil.rmtree(project / "content")
    subprocess.run(["git", "clone", "-q", str(origin), str(project / "content")], check=True)
    job = scheduler.FactCheckContent(project, "content")
    first = job()
    assert isinstance(first, Outcome) and not first.changed  # the first run only takes the baseline
    page = origin / "metodologia" / "nova.md"
    page.write_text('+++\ntitulo = "Nova"\n+++\n\nTexto.\n', encoding="utf-8")
    _git(origin, "-c", "user.name=Redação", "-c", "user.email=r@example.org", "add", ".")
    _git(origin, "-c", "user.name=Redação", "-c", "user.email=r@example.org", "commit", "-q", "-m", "nova")
    second = job()
    assert isinstance(second, Outcome) and second.changed
    assert second.detail.startswith("git pull: ")
    assert (project / "content" / "metodologia" / "nova.md").is_file()
    third = job()
    assert isinstance(third, Outcome) and not third.changed


def test_tse_job_calls_the_polling_cycle_and_reports_an_unreachable_tse(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed once the block ends: nothing listens there
    config = tmp_path / "eleicoes.toml"
    config.write_text(
        f'[tse]\nurl_base = "http://127.0.0.1:{port}"\ntentativas = 1\ntempo_limite_s = 1.0\ngit = false\n'
        '[[tse.corridas]]\ncargo = "presidente"\neleicao = "6258"\nnivel = "uf"\n',
        encoding="utf-8",
    )
    with pytest.raises(RuntimeError, match=r"ele-c\.json"):
        scheduler.TsePoll(config)()


def test_debate_job_runs_the_engine_when_a_transcript_grows(tmp_path: Path) -> None:
    root = tmp_path / "projeto"
    shutil.copytree(REPO / "content", root / "content")
    sample = REPO / "data" / "debates" / "demo-governo-2026-10-15"
    debate = root / "data" / "debates" / "teste"
    debate.mkdir(parents=True)
    shutil.copy(sample / "debate.toml", debate / "debate.toml")
    lines = (sample / "transcricao.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (debate / "transcricao.jsonl").write_text("".join(lines[:12]), encoding="utf-8")
    job = scheduler.DebateSegments(root, root / "eleicoes.toml", ())
    assert job() is True and (debate / "placar.json").is_file()
    assert job() is False  # nothing new: the engine is not even called
    (debate / "transcricao.jsonl").write_text("".join(lines), encoding="utf-8")
    assert job() is True


def test_a_debate_job_given_a_clock_stamps_the_scoreboard_with_it(tmp_path: Path) -> None:
    """The demo's debate airs inside the replayed night: the clock it is given (the night's, the
    site server's Date) stamps `atualizado_em`, in the engine pass and in the engine the audio job
    calls after each window, and wins over the broadcast's clock of debate.toml's `inicio`."""
    from jobs.debate import processar

    root = tmp_path / "projeto"
    shutil.copytree(REPO / "content", root / "content")
    sample = REPO / "data" / "debates" / "demo-governo-2026-10-15"
    debate = root / "data" / "debates" / "teste"
    debate.mkdir(parents=True)
    toml = (sample / "debate.toml").read_text(encoding="utf-8")
    assert "\ndata = 2026-10-15\n" in toml
    toml = toml.replace("\ndata = 2026-10-15\n", "\ndata = 2026-10-15\ninicio = 2026-10-15T21:00:00-03:00\n")
    (debate / "debate.toml").write_text(toml, encoding="utf-8")
    lines = (sample / "transcricao.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (debate / "transcricao.jsonl").write_text("".join(lines[:12]), encoding="utf-8")

    night = dt.datetime(2026, 10, 25, 21, 5, 7, tzinfo=dt.UTC)
    config = root / "eleicoes.toml"
    jobs = scheduler.default_jobs(root, SchedulerConfig(tarefas=("debate",)), config, clock=lambda: night)
    assert jobs[0].run() is True
    placar = json.loads((debate / "placar.json").read_text(encoding="utf-8"))
    assert dt.datetime.fromisoformat(placar["atualizado_em"]) == night

    later = night + dt.timedelta(minutes=3)
    motor, aviso = processar.motor_padrao(config, relogio=lambda: later)
    assert motor is not None and aviso == ""
    (debate / "transcricao.jsonl").write_text("".join(lines), encoding="utf-8")
    motor(debate)
    placar = json.loads((debate / "placar.json").read_text(encoding="utf-8"))
    assert dt.datetime.fromisoformat(placar["atualizado_em"]) == later


class StopOnLogLine(logging.Handler):
    """Sets `stopping` when the scheduler logs `text` (from the thread that logs it)."""

    def __init__(self, text: str, stopping: threading.Event) -> None:
        super().__init__()
        self.text, self.stopping = text, stopping

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.stopping.set()


def test_the_debate_job_leaves_a_transcription_backlog_once_the_scheduler_stops(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 17: the runner's stop reaches the audio job (real faster-whisper base), which saves the
    window in hand and returns instead of transcribing every segment still waiting."""
    from jobs.debate.demo_audio import preparar_demo

    root = tmp_path / "projeto"
    shutil.copytree(REPO / "content", root / "content")
    made = preparar_demo(root / "data" / "debates" / "ao-vivo", tmp_path / "segmentos", 4.0)
    config = root / "eleicoes.toml"
    config.write_text(
        f'[debate]\nwhisper_cache = "{REPO / ".cache" / "whisper-base"}"\nwhisper_threads = 2\n'
        "audio_estavel_s = 0\n",  # the segments are complete already
        encoding="utf-8",
    )
    stopping = threading.Event()
    job = scheduler.DebateSegments(root, config, (f"ao-vivo={tmp_path / 'segmentos'}",), stopping)
    probe = StopOnLogLine("transcrição iniciada", stopping)  # logged just before the first window
    logging.getLogger("eleicoes.agendador").addHandler(probe)
    try:
        with caplog.at_level(logging.INFO, logger="eleicoes.agendador"):
            changed = job()
    finally:
        logging.getLogger("eleicoes.agendador").removeHandler(probe)
    assert stopping.is_set()
    state = json.loads((root / "data" / "debates" / "ao-vivo" / "audio" / "estado.json").read_text())
    processed = list(state["seqs"].values()).count("processado")
    assert 0 < processed < len(made)  # the window in flight finished; the backlog waits
    assert "debate ao-vivo: " in caplog.text and "transcrição interrompida pelo encerramento" in caplog.text
    assert changed is True  # its words went to the transcript and the engine
    assert not (root / "data" / "debates" / "ao-vivo" / "gravacao.json").exists()


SLOW_JOB_SCRIPT = """
import sys, time
from pathlib import Path
import scheduler
from scheduler import Job, Runner

marks = Path(sys.argv[1])
saude = marks.with_name("saude.json")

def slow() -> bool:
    with marks.open("a") as f:
        f.write("inicio\\n")
    limite = time.monotonic() + 60  # the test signals as soon as it reads "inicio"
    while '"encerrando"' not in saude.read_text() and time.monotonic() < limite:
        time.sleep(0.01)  # finish only once the stop is under way: no second run can start
    with marks.open("a") as f:
        f.write("fim\\n")
    return False

runner = Runner([Job("tse", 0.05, slow)], None, saude, misfire_grace_s=1)
scheduler.install_signal_handlers(runner)
runner.start()
print("razao:", runner.wait(), flush=True)
"""


def test_a_signal_arriving_inside_a_log_flush_stops_without_a_logging_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runner = Runner([], None, tmp_path / "saude.json")
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        scheduler.install_signal_handlers(runner)
        on_signal = signal.getsignal(signal.SIGTERM)
        assert callable(on_signal)
        with arquivo_interrompido("eleicoes.agendador", lambda: on_signal(signal.SIGTERM, None)) as arquivo:
            logging.getLogger("eleicoes.agendador").info("linha que estava sendo gravada")
            until(lambda: "sinal SIGTERM recebido" in arquivo.texto())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    assert runner.stopping.is_set()
    assert "Logging error" not in capsys.readouterr().err


def test_sigterm_lets_the_job_in_flight_finish_then_stops(tmp_path: Path) -> None:
    marks = tmp_path / "marcas.txt"
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(SLOW_JOB_SCRIPT), str(marks)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        until(lambda: marks.is_file() and "inicio" in marks.read_text())
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "razao: sinal" in out
    assert marks.read_text().splitlines() == ["inicio", "fim"]  # finished, and nothing new started
    assert health(tmp_path)["estado"] == "encerrado"


def test_real_entry_point_builds_publishes_and_stops_on_sigterm(project: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "scheduler.py"), "--raiz", str(project)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    saude = project / ".cache" / "agendador-saude.json"
    try:
        until(
            lambda: saude.is_file() and json.loads(saude.read_text())["tarefas"]["site"]["execucoes"] >= 1,
            timeout_s=60,
        )
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "agendador encerrado (sinal)" in out
    assert "site: mudou em" in err  # one log line per run
    assert json.loads(saude.read_text())["estado"] == "encerrado"
    assert (project / ".cache" / "publicado" / "index.html").is_file()


def test_run_limit_gives_a_last_publish_and_exits(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert scheduler.main(["--raiz", str(project), "--parar-apos", "site=1", "--cadencia", "site=0.1"]) == 0
    assert "agendador encerrado (limite)" in capsys.readouterr().out
    assert (project / ".cache" / "publicado" / "index.html").is_file()
    assert scheduler.main(["--raiz", str(project), "--parar-apos", "tv=1"]) == 2


def test_feeds_job_reads_the_configured_feeds_and_never_rebuilds(tmp_path: Path) -> None:
    config = tmp_path / "eleicoes.toml"
    config.write_text("[checagens]\n", encoding="utf-8")
    result = scheduler.SocialFeeds(tmp_path, config)()
    assert isinstance(result, Outcome) and not result.changed
    assert "0 captura(s) nova(s)" in result.detail
    config.write_text("[checagens]\nchave_inexistente = 1\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="configuração inválida"):
        scheduler.SocialFeeds(tmp_path, config)()


def test_idle_runs_log_no_line_and_changes_do(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """One log line per meaningful change, not one per idle run of every job."""
    idle = Counter()
    busy = Counter(changes=lambda n: n == 3)
    r = runner(tmp_path, [Job("tse", 0.02, busy), Job("debate", 0.02, idle)])
    with caplog.at_level("INFO", logger="eleicoes.agendador"):
        r.start()
        until(lambda: idle.runs >= 10 and busy.runs >= 5)
        r.stop()
        r.wait()
    run_line = re.compile(r"^(tse|debate): \w+ em ")
    runs = [rec.getMessage() for rec in caplog.records if run_line.match(rec.getMessage())]
    assert len(runs) == 1 and runs[0].startswith("tse: mudou em ")  # the one change, nothing idle


def _start(project: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(REPO / "scheduler.py"), "--raiz", str(project), "--sem-publicar", *extra],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_second_scheduler_on_the_same_data_folder_exits_with_a_clear_message(project: Path) -> None:
    first = _start(project)
    saude = project / ".cache" / "agendador-saude.json"
    try:
        until(lambda: saude.is_file() and json.loads(saude.read_text())["estado"] == "rodando", timeout_s=60)
        second = _start(project, "--duracao-s", "20")  # without the lock it would run for 20 s, then exit 0
        out, err = second.communicate(timeout=60)
        assert second.returncode == 2, (out, err)
        assert err.startswith("erro: outro agendador já está rodando com a pasta de dados")
        assert f"pid {first.pid} agendador" in err and "Traceback" not in err
        assert first.poll() is None  # the first one goes on
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    finally:
        first.kill()
    assert first.returncode == 0
    # The lock went with the process: a new scheduler starts.
    assert scheduler.main(["--raiz", str(project), "--parar-apos", "site=1", "--sem-publicar"]) == 0


def test_tse_poll_and_the_scheduler_tse_job_share_one_lock(tmp_path: Path) -> None:
    from eleicoes import main as cli_main
    from jobs.tse.store import take_poll_lock

    dados = tmp_path / "dados"
    config = tmp_path / "eleicoes.toml"
    config.write_text(
        f'[tse]\nurl_base = "http://127.0.0.1:9"\ntentativas = 1\ngit = false\npasta_dados = "{dados}"\n',
        encoding="utf-8",
    )
    job = scheduler.TsePoll(config)
    with pytest.raises(RuntimeError):
        job()  # nothing answers on port 9, but the job now holds the poller's lock
    assert cli_main(["tse", "poll", "--once", "--config", str(config)]) == 2
    with pytest.raises(LockBusyError, match="outra coleta do TSE já está gravando"):
        take_poll_lock(dados, "teste")
    # The other way round: a manual poll holds it, the scheduler's job reports "ocupado".
    assert job._lock is not None
    job._lock.release()
    with take_poll_lock(dados, "eleicoes tse poll"):
        r = runner(tmp_path, [Job("tse", 3600, scheduler.TsePoll(config))])
        r.start()
        until(lambda: r.health()["tarefas"]["tse"]["execucoes"] >= 1)
        r.stop()
        r.wait()
    assert health(tmp_path)["tarefas"]["tse"]["resultado"] == "ocupado"


def test_sigterm_ends_the_process_even_with_a_stuck_job(project: Path, tmp_path: Path) -> None:
    """The TSE never answers (and the request deadlines are longer than the test): SIGTERM still ends
    the process after the grace period, with status 3 and the stuck job named."""
    from jobs.tse.replay import Falhas, make_server
    from jobs.tse.synthetic import schedule, totals_from_baseline, write_night
    from model.baselines import load_baselines
    from model.calibration import load_calibration
    from tests.tse.conftest import START

    night = tmp_path / "noite"
    totals = totals_from_baseline(load_baselines()["6258-presidente-br-uf"])
    write_night(night, totals, schedule(START, [0.3]), eleicao="6258")
    server = make_server(night, 0, None, Falhas(tempo_esgotado=["*-u"], espera_s=600))
    server.iniciar()
    (project / "eleicoes.toml").write_text(
        '[publicar]\n\n[agendador]\ntarefas = ["tse"]\nespera_encerramento_s = 1.0\n\n'
        f'[tse]\nurl_base = "{server.url_base}"\ntentativas = 1\ntempo_limite_s = 600.0\n'
        f'prazo_total_s = 900.0\nprazo_ciclo_s = 900.0\ngit = false\npasta_dados = "{tmp_path / "dados"}"\n'
        f'calibracao_sha256 = "{load_calibration().sha256}"\n'
        '[[tse.corridas]]\ncargo = "presidente"\neleicao = "6258"\nnivel = "uf"\n',
        encoding="utf-8",
    )
    proc = _start(project)
    try:
        until(lambda: server.estado.estado()["pedidos_por_arquivo"].get("mun-e006258-cm.json", 0) >= 1, 60)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        server.parar()
    assert proc.returncode == scheduler.EXIT_ABANDONED, (out, err)
    assert "tse" in out.partition("sem esperar")[2] and "tarefa abandonada" in err
    saude = json.loads((project / ".cache" / "agendador-saude.json").read_text())
    assert saude["estado"] == "abandonado"
