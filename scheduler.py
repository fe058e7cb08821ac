"""APScheduler entry point: which job runs when, in one process, until SIGTERM/SIGINT.

    python scheduler.py [--raiz .] [--cadencia tse=5] [--parar-apos tse=10] [--duracao-s 60]

Input jobs (TSE poll, debate segments, fact-check content, social feeds) run on their cadence
from `[agendador]`; each answers "did I change the site's inputs?". Any change triggers the
`site` job (rebuild + publish under the project lock), which also runs at start and every `site_s`
as a safety net.
Every job: one instance at a time, missed runs coalesced, an explicit misfire grace time; one log
line per run and a JSON health file with each job's last run, outcome and duration. On
SIGTERM/SIGINT nothing new starts and the job in flight gets `espera_encerramento_s` to finish; a job
still running then (a stuck request, a hung build) is abandoned and the process exits with status 3,
so a stop never takes longer than that grace period.

One scheduler per data folder: a lock (`data/.agendador.lock`) is taken at start and a second
scheduler exits at once with a Portuguese message. The TSE job holds the TSE poller's lock (the one
`eleicoes tse poll` takes) for as long as it keeps its polling state.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import functools
import importlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apscheduler.events import EVENT_JOB_MAX_INSTANCES, EVENT_JOB_MISSED, JobEvent
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from jobs.configuracao import CONFIG_FILE, ConfigSectionError
from jobs.publish.config import load_publish_config, read_section
from jobs.publish.targets import is_hidden
from model.ptbr_cli import ArgumentParser, run_reporting_errors
from site_builder.lock import HeldLock, LockBusyError, project_lock, take_lock

log = logging.getLogger("eleicoes.agendador")

SITE = "site"
INPUT_JOBS = ("tse", "debate", "checagens", "redes")
BUSY_RETRY_S = 5.0  # a site run that found the lock taken tries again this soon
INSTANCE_LOCK = Path("data") / ".agendador.lock"  # one scheduler per data folder
EXIT_ABANDONED = 3  # a job did not finish within the grace period after SIGTERM/SIGINT
SIGNAL_REASON = "sinal"  # why a run stopped when SIGINT/SIGTERM asked it to
SKIPPED_NOTICE_S = 60.0  # "a run was skipped, the previous one still runs": at most once per job per this


@dataclass(frozen=True)
class SchedulerConfig:
    """`[agendador]`: cadences (seconds) and how the site job behaves."""

    tse_s: float = 30.0
    debate_s: float = 5.0
    checagens_s: float = 300.0
    redes_s: float = 900.0  # public feeds of the candidates (RSS/Atom): new posts are captured
    site_s: float = 600.0  # rebuild + publish even when no job reported a change (hand edits)
    tarefas: tuple[str, ...] = INPUT_JOBS  # input jobs to run
    tolerancia_atraso_s: int = 30  # misfire grace time: a run this late still happens, later ones coalesce
    espera_trava_s: float = 30.0  # how long the site job waits for a manual build/publish
    espera_encerramento_s: float = 8.0  # after SIGTERM, how long a job in flight may take to finish
    publicar: bool = True  # False: rebuild only
    saida: Path = Path("public")
    saude: Path = Path(".cache/agendador-saude.json")
    conteudo_repositorio: str = ""  # git checkout the checagens job pulls ("" = no pull)
    debate_fontes: tuple[str, ...] = ()  # "<debate id>=<segment folder | audio file | .m3u8 URL>"

    def __post_init__(self) -> None:
        problems = [
            f"'{name}' deve ser positivo"
            for name in ("tse_s", "debate_s", "checagens_s", "redes_s", "site_s", "tolerancia_atraso_s")
            if getattr(self, name) <= 0
        ]
        problems += [
            f"tarefa desconhecida '{t}' (use {', '.join(INPUT_JOBS)})"
            for t in self.tarefas
            if t not in INPUT_JOBS
        ]
        problems += [f"debate_fontes: '{f}' deve ser ID=FONTE" for f in self.debate_fontes if "=" not in f]
        if self.espera_trava_s < 0:
            problems.append("'espera_trava_s' não pode ser negativo")
        if self.espera_encerramento_s < 0:
            problems.append("'espera_encerramento_s' não pode ser negativo")
        if problems:
            raise ConfigSectionError("[agendador]: " + "; ".join(problems))

    def cadence(self, name: str) -> float:
        """Seconds between runs of job `name`."""
        value: float = getattr(self, f"{name}_s")
        return value


def load_scheduler_config(root: Path, path: Path | None = None) -> SchedulerConfig:
    """`[agendador]` of `root/eleicoes.toml` (or `path`); defaults when absent."""
    cfg = read_section(path or root / CONFIG_FILE, "agendador", SchedulerConfig)
    return dataclasses.replace(cfg, saida=root / cfg.saida, saude=root / cfg.saude)


@dataclass(frozen=True)
class Outcome:
    """What a job may return instead of a bare bool: `done` removes it from the schedule."""

    changed: bool
    done: bool = False
    detail: str = ""


JobResult = bool | Outcome


@dataclass(frozen=True)
class Job:
    """One scheduled job: a callable answering whether it changed the site's inputs."""

    name: str
    every_s: float
    run: Callable[[], JobResult]


class JobUnavailableError(RuntimeError):
    """The job's code is not in this checkout (yet): reported as `indisponivel`, not as a crash."""


@dataclass
class JobHealth:
    """The health file entry of one job."""

    cadencia_s: float
    execucoes: int = 0
    falhas: int = 0
    ultima_execucao: str | None = None
    resultado: str | None = None  # mudou | sem_mudanca | erro | ocupado | indisponivel | concluida
    duracao_s: float | None = None
    erro: str | None = None
    detalhe: str = ""
    ultimo_sucesso: str | None = None


def _iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat(timespec="seconds")


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON atomically (temp file + rename), so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        temp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        temp.replace(path)
    finally:
        temp.unlink(missing_ok=True)


@dataclass
class Runner:
    """Runs the input jobs and the site job in one APScheduler, and keeps the health file."""

    jobs: list[Job]
    site: Job | None
    health_path: Path
    misfire_grace_s: int = 30
    stop_after: dict[str, int] = field(default_factory=dict)  # job -> runs, then stop
    stop_when_done: frozenset[str] = frozenset()  # stop once all these jobs reported done
    busy_retry_s: float = BUSY_RETRY_S
    grace_s: float = 8.0  # after a signal, how long the jobs in flight may take before being abandoned
    clock: Callable[[], float] = time.time
    # Set by `stop`; jobs given the same event (`default_jobs`) end a long run early when it is set.
    stopping: threading.Event = field(default_factory=threading.Event)
    _scheduler: BackgroundScheduler = field(init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    _health: dict[str, JobHealth] = field(default_factory=dict, init=False)
    _state: str = field(default="parado", init=False)
    _stop_reason: str = field(default="", init=False)
    _wanted: int = field(default=0, init=False)  # input changes seen
    _built: int = field(default=0, init=False)  # input changes the site reflects
    _site_running: bool = field(default=False, init=False)
    _done: set[str] = field(default_factory=set, init=False)
    _started_at: float = field(default=0.0, init=False)
    _running: set[str] = field(default_factory=set, init=False)
    _idle: threading.Condition = field(init=False)
    abandoned: tuple[str, ...] = field(default=(), init=False)  # jobs still running when the grace ended
    _skipped_notice: dict[str, float] = field(default_factory=dict, init=False)  # job -> last notice

    def __post_init__(self) -> None:
        every = self._all_jobs()
        self._scheduler = BackgroundScheduler(
            timezone="UTC", executors={"default": ThreadPoolExecutor(max_workers=len(every) + 1)}
        )
        self._health = {job.name: JobHealth(job.every_s) for job in every}
        self._idle = threading.Condition(self._lock)

    def _all_jobs(self) -> list[Job]:
        return [*self.jobs, *([self.site] if self.site is not None else [])]

    # --- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Schedule every job (first runs now) and start the scheduler thread."""
        now = dt.datetime.now(dt.UTC)
        for job in self.jobs:
            self._add(job, self._run_input, now)
        if self.site is not None:
            self._add(self.site, self._run_site, now)
        self._started_at = self.clock()
        self._state = "rodando"
        self._write_health()
        # APScheduler's own English warning for these is quieted (`quiet_apscheduler`): ours instead.
        self._scheduler.add_listener(self._on_skipped, EVENT_JOB_MAX_INSTANCES | EVENT_JOB_MISSED)
        self._scheduler.start()
        log.info(
            "agendador iniciado, a cada: %s", ", ".join(f"{j.name} {j.every_s:g} s" for j in self._all_jobs())
        )

    def _add(self, job: Job, target: Callable[[Job], None], now: dt.datetime) -> None:
        self._scheduler.add_job(
            target,
            "interval",
            args=[job],
            seconds=job.every_s,
            id=job.name,
            name=job.name,
            max_instances=1,
            coalesce=True,
            misfire_grace_time=self.misfire_grace_s,
            next_run_time=now,
        )

    def _on_skipped(self, event: JobEvent) -> None:
        """A run not started because the previous one still runs (a job outlasted its cadence) or
        because it came too late: one Portuguese line, at most once per job per minute."""
        now = self.clock()
        with self._lock:
            last = self._skipped_notice.get(event.job_id)
            if last is not None and now - last < SKIPPED_NOTICE_S:
                return
            self._skipped_notice[event.job_id] = now
        why = (
            "a anterior ainda está em andamento"
            if event.code == EVENT_JOB_MAX_INSTANCES
            else "atrasou além da tolerância"
        )
        log.info(
            "%s: execução pulada (%s); aviso repetido no máximo a cada %g s",
            event.job_id,
            why,
            SKIPPED_NOTICE_S,
        )

    def stop(self, reason: str = "pedido") -> None:
        """Ask the runner to stop (thread- and signal-safe); `wait` does the stopping."""
        if not self.stopping.is_set():
            self._stop_reason = reason
            self.stopping.set()

    def wait(self, duration_s: float | None = None) -> str:
        """Block until `stop` (or `duration_s`), let the jobs in flight finish, shut down.

        When the stop was not a signal, changes not yet on the site get one last rebuild + publish.
        Returns the reason of the stop.
        """
        deadline = None if duration_s is None else time.monotonic() + duration_s
        while not self.stopping.wait(0.2):
            if deadline is not None and time.monotonic() >= deadline:
                self.stop("duracao")
        self._state = "encerrando"
        self._write_health()
        if self._stop_reason == SIGNAL_REASON:
            # A signal must end the process: the jobs in flight get the grace period, no more.
            log.info("agendador: encerrando (sinal); até %g s para as tarefas em andamento", self.grace_s)
            self._scheduler.shutdown(wait=False)
            if not self._wait_idle(self.grace_s):
                with self._lock:
                    self.abandoned = tuple(sorted(self._running))
                log.warning(
                    "agendador: %s não terminou em %g s; tarefa abandonada, saída com status %d",
                    ", ".join(self.abandoned),
                    self.grace_s,
                    EXIT_ABANDONED,
                )
                self._state = "abandonado"
                self._write_health()
                return self._stop_reason
        else:
            log.info("agendador: encerrando (%s); esperando as tarefas em andamento", self._stop_reason)
            self._scheduler.shutdown(wait=True)
        if self._stop_reason != SIGNAL_REASON and self.site is not None and self._wanted > self._built:
            self._run_site(self.site)  # the last inputs reach the site before the process ends
        self._state = "encerrado"
        self._write_health()
        log.info("agendador encerrado")
        return self._stop_reason

    def _wait_idle(self, timeout_s: float) -> bool:
        """Wait until no job is running, at most `timeout_s`; whether none is."""
        deadline = time.monotonic() + timeout_s
        with self._idle:
            while self._running:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    # --- runs ------------------------------------------------------------------------------

    def _execute(self, job: Job) -> tuple[str, JobResult | None]:
        """Run a job, never raising: returns (outcome, result)."""
        started = self.clock()
        t0 = time.perf_counter()
        result: JobResult | None = None
        error: str | None = None
        with self._lock:
            self._running.add(job.name)
        try:
            result = job.run()
            outcome = _outcome_of(result)
        except JobUnavailableError as exc:
            outcome, error = "indisponivel", str(exc)
        except LockBusyError as exc:
            outcome, error = "ocupado", str(exc)
        except Exception as exc:
            outcome, error = "erro", f"{type(exc).__name__}: {exc}"
            log.debug("tarefa %s falhou", job.name, exc_info=True)
        # Idle only once its health is written: a stop waiting for it writes the final state after.
        try:
            self._record(job.name, started, time.perf_counter() - t0, outcome, error, result)
        finally:
            with self._lock:
                self._running.discard(job.name)
                self._idle.notify_all()
        return outcome, result

    def _record(
        self,
        name: str,
        started: float,
        elapsed: float,
        outcome: str,
        error: str | None,
        result: JobResult | None,
    ) -> None:
        """Log one run and write it to the health file."""
        detail = result.detail if isinstance(result, Outcome) else ""
        with self._lock:
            health = self._health[name]
            health.execucoes += 1
            health.ultima_execucao = _iso(started)
            health.resultado, health.duracao_s, health.erro = outcome, round(elapsed, 3), error
            health.detalhe = detail
            if error is None:
                health.ultimo_sucesso = _iso(started)
            else:
                health.falhas += 1
        line = f"{name}: {outcome} em {elapsed:.2f} s"
        if error or detail:
            line += f": {error or detail}"
        # One line per meaningful change: an idle run (every few seconds per job) is debug detail.
        level = {"erro": logging.WARNING, "ocupado": logging.WARNING, "sem_mudanca": logging.DEBUG}
        log.log(level.get(outcome, logging.INFO), line)
        self._write_health()

    def _run_input(self, job: Job) -> None:
        if self.stopping.is_set():
            return  # nothing new starts once a stop was asked (a run due at once after a limit)
        outcome, result = self._execute(job)
        if outcome == "mudou":
            with self._lock:
                self._wanted += 1
            self._request_site()
        if isinstance(result, Outcome) and result.done:
            self._finish(job.name)
        self._check_limits(job.name)

    def _run_site(self, job: Job) -> None:
        with self._lock:
            self._site_running = True
            target = self._wanted
        outcome, _ = self._execute(job)  # never raises
        with self._lock:
            self._site_running = False
            if outcome != "ocupado":  # a failed build is not retried in a loop: the next change retries
                self._built = max(self._built, target)
            again = self._wanted > self._built
        if outcome == "ocupado":
            self._reschedule(SITE, self.busy_retry_s)
        elif again:
            self._request_site()  # inputs changed while the site was being built
        self._check_limits(job.name)

    def _request_site(self) -> None:
        with self._lock:
            if self._site_running or self.site is None:
                return  # the run in flight reschedules itself when it ends
        self._reschedule(SITE, 0.0)

    def _reschedule(self, name: str, delay_s: float) -> None:
        if self.stopping.is_set():
            return
        when = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=delay_s)
        try:
            self._scheduler.modify_job(name, next_run_time=when)
        except Exception:  # the job was removed or the scheduler is stopping
            log.debug("não foi possível reagendar %s", name, exc_info=True)

    def _finish(self, name: str) -> None:
        with self._lock:
            self._done.add(name)
            self._health[name].resultado = "concluida"
            all_done = bool(self.stop_when_done) and self.stop_when_done <= self._done
        try:
            self._scheduler.remove_job(name)
        except Exception:
            log.debug("tarefa %s já removida", name, exc_info=True)
        log.info("%s: concluída, sai da agenda", name)
        if all_done:
            self.stop("concluido")

    def _check_limits(self, name: str) -> None:
        if not self.stop_after:
            return
        with self._lock:
            runs = {n: h.execucoes for n, h in self._health.items()}
        if all(runs.get(n, 0) >= k for n, k in self.stop_after.items()):
            self.stop("limite")

    # --- health ----------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """The health document (what the health file holds)."""
        with self._lock:
            return {
                "estado": self._state,
                "pid": os.getpid(),
                "iniciado_em": _iso(self._started_at) if self._started_at else None,
                "atualizado_em": _iso(self.clock()),
                "alteracoes_pendentes": self._wanted > self._built,
                "tarefas": {name: dataclasses.asdict(h) for name, h in sorted(self._health.items())},
            }

    def _write_health(self) -> None:
        try:
            write_json_atomic(self.health_path, self.health())
        except OSError as exc:
            log.error("não foi possível gravar o arquivo de saúde %s: %s", self.health_path, exc)


def _outcome_of(result: JobResult) -> str:
    changed = result.changed if isinstance(result, Outcome) else bool(result)
    return "mudou" if changed else "sem_mudanca"


# --- the real jobs, wired lazily by import path ---------------------------------------------


def _import(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            raise JobUnavailableError(f"{module} não existe neste checkout") from exc
        raise


@dataclass
class TsePoll:
    """`jobs.tse.cycle.run_cycle`: one polling cycle over every configured race."""

    config_path: Path
    _config: Any = None
    _state: Any = None
    _lock: HeldLock | None = None
    ultimo: Any = None  # the last cycle's jobs.tse.cycle.CycleResult (for shorter messages: the demo)

    def __call__(self) -> JobResult:
        cycle = _import("jobs.tse.cycle")
        if self._state is None:
            self._config = _import("jobs.tse.config").carregar_config_tse(self.config_path)
            state = cycle.PollState.criar(self._config)
            if self._lock is None:
                # Held for the life of the polling state (LockBusyError = "ocupado", retried next run).
                try:
                    self._lock = _import("jobs.tse.store").take_poll_lock(
                        self._config.dados, "agendador: tse"
                    )
                except BaseException:
                    state.fechar()
                    raise
            self._state = state
        try:
            result = cycle.run_cycle(self._config, self._state)
        except Exception:
            # The cycle crashed: no race keeps showing its last reading as current (the held
            # readings are re-evaluated at the current clock; docs/NOITE.md), then the error
            # reaches the health file.
            cycle.withhold_after_crash(self._config, self._state)
            raise
        self.ultimo = result
        detail = " | ".join(result.linhas())[:500]
        if result.erro or (result.corridas and all(r.erro for r in result.corridas)):
            raise RuntimeError(result.erro or detail)  # nothing could be read: the health file says erro
        return Outcome(bool(result.alterado), detail=detail)


def _stat_signature(paths: Sequence[Path]) -> tuple[tuple[str, int, int], ...]:
    out = []
    for path in paths:
        try:
            st = path.stat()
        except FileNotFoundError:
            continue
        out.append((str(path), st.st_size, st.st_mtime_ns))
    return tuple(out)


@dataclass
class DebateSegments:
    """Live debates: new audio segments (the audio job) and the engine's `atualizar` on every debate
    whose transcript, rundown or editor file changed.

    A backlog of segments can take minutes to transcribe: once `stopping` is set the audio job ends
    after the window in hand (its words and state saved; the next run resumes there) and the engine
    pass is left to the next run.

    `clock` stamps the scoreboards (`atualizado_em`): the demo gives its night's clock, so its
    debate airs on the same clock as its site server's `Date`. None (production): the engine's
    default (the broadcast's clock when debate.toml has `inicio`, else the machine's)."""

    root: Path
    config_path: Path
    sources: tuple[str, ...]
    stopping: threading.Event = field(default_factory=threading.Event)
    clock: Callable[[], dt.datetime] | None = None
    _seen: dict[Path, Any] = field(default_factory=dict)
    _processors: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    _engine_config: Any = None

    def __call__(self) -> JobResult:
        pipeline = _import("jobs.debate.pipeline")
        if self._engine_config is None:
            self._engine_config = _import("jobs.debate.config").carregar(self.config_path)
        changed = False
        for source in self.sources:
            if self.stopping.is_set():
                break
            debate_id, _, where = source.partition("=")
            processor, segments = self._processor(debate_id.strip(), where.strip())
            summary = processor.rodar(segments, seguir=False, parar=self.stopping)
            changed = changed or summary.falas > 0  # new utterances, already scored by the engine
            if summary.interrompido:
                log.info("debate %s: %s", debate_id.strip(), summary.texto())
        folder = self.root / "data" / "debates"
        for debate_dir in sorted(p.parent for p in folder.glob("*/debate.toml")):
            if self.stopping.is_set():
                break
            names = ("debate.toml", "transcricao.jsonl", "edicoes.toml")
            signature = _stat_signature([debate_dir / n for n in names])
            if self._seen.get(debate_dir) == signature:
                continue
            first = debate_dir not in self._seen
            updated = bool(pipeline.atualizar(debate_dir, self._engine_config, relogio=self.clock))
            self._seen[debate_dir] = _stat_signature([debate_dir / n for n in names])
            changed = changed or updated or not first
        return changed

    def _processor(self, debate_id: str, where: str) -> tuple[Any, Any]:
        if debate_id not in self._processors:
            processing = _import("jobs.debate.processar")
            audio_cfg = _import("jobs.debate.config_audio").carregar_config_audio(self.config_path)
            sources = _import("jobs.debate.segmentos")
            segments = sources.abrir_fonte(where, estavel_s=audio_cfg.audio_estavel_s)
            motor, _ = processing.motor_padrao(self.config_path, relogio=self.clock)
            processor = processing.Processador(
                self.root / "data" / "debates" / debate_id,
                audio_cfg,
                modelo=functools.partial(self._load_model, debate_id, audio_cfg),
                motor=motor,
                avisar=log.warning,
            )
            processor.carregar(where)
            self._processors[debate_id] = (processor, segments)
        return self._processors[debate_id]

    @staticmethod
    def _load_model(debate_id: str, audio_cfg: Any) -> Any:
        """The Whisper model, loaded once, when the first window with speech is transcribed."""
        model = _import("jobs.debate.cli_audio").fabrica_modelo(audio_cfg)
        log.info("debate %s: modelo de transcrição carregado; transcrição iniciada", debate_id)
        return model


@dataclass
class FactCheckContent:
    """The fact-check desk: `git pull` of the content repository, then `validar` when it changed."""

    root: Path
    repository: str
    _signature: Any = None

    def __call__(self) -> JobResult:
        detail = ""
        if self.repository:
            repo = self.root / self.repository
            before = _git(repo, "rev-parse", "HEAD")
            _git(repo, "pull", "--ff-only", "--quiet")
            after = _git(repo, "rev-parse", "HEAD")
            if before != after:
                detail = f"git pull: {before[:10]} -> {after[:10]}"
        content = self.root / "content"
        files = [
            p for p in content.rglob("*") if p.is_file() and not is_hidden(p.relative_to(content).as_posix())
        ]
        signature = _stat_signature(sorted(files))  # .git changes at every pull: not content
        changed = self._signature is not None and signature != self._signature
        self._signature = signature
        if changed:
            result = _import("jobs.checagens.validar").validar(self.root)
            if result.problemas:
                detail += f" {len(result.problemas)} problema(s) de validação; o build recusa os inválidos"
        return Outcome(changed, detail=detail.strip())


@dataclass
class SocialFeeds:
    """The desk's collectors: new posts on the candidates' public feeds are captured (raw page,
    WARC, claims) for triage; the site does not change, the queue does."""

    root: Path
    config_path: Path

    def __call__(self) -> JobResult:
        result = _import("jobs.checagens.coletores").coletar_do_projeto(self.root, self.config_path)
        if result.erros and not result.capturas:
            raise RuntimeError("; ".join(result.erros)[:500])
        return Outcome(False, detail=result.resumo())


def _git(repo: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=120, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} falhou: {result.stderr.strip()[:300]}")
    return result.stdout.strip()


@dataclass
class SiteJob:
    """Rebuild (incremental) and publish, under the project lock shared with the CLIs."""

    root: Path
    out: Path
    config_path: Path
    publish: bool
    lock_wait_s: float
    _target: Any = None

    def __call__(self) -> JobResult:
        build = _import("site_builder.build")
        publisher = _import("jobs.publish.publisher")
        with project_lock(self.root, "agendador: build + publicação", timeout_s=self.lock_wait_s):
            report = build.build_site(self.root, self.out)
            detail = f"build: {report.resumo()}"
            if not self.publish:
                return Outcome(bool(report.escritos or report.removidos), detail=detail)
            cfg = load_publish_config(self.root, self.config_path)
            if self._target is None:
                self._target = publisher.open_target(cfg)  # one client for the whole night
            published = publisher.publicar(cfg, self.out, destino=self._target)
        return Outcome(published.mudou, detail=f"{detail}; publicação: {published.resumo()}")


def default_jobs(
    root: Path,
    cfg: SchedulerConfig,
    config_path: Path,
    stopping: threading.Event | None = None,
    clock: Callable[[], dt.datetime] | None = None,
) -> list[Job]:
    """The input jobs of this project, by name, with their cadence; `stopping` is the runner's
    event (`Runner.stopping`), which lets a long run end early when the scheduler stops; `clock`
    stamps the debates' scoreboards (see `DebateSegments`; None: the engine's default)."""
    stopping = stopping or threading.Event()
    factories: dict[str, Callable[[], Callable[[], JobResult]]] = {
        "tse": lambda: TsePoll(config_path),
        "debate": lambda: DebateSegments(root, config_path, cfg.debate_fontes, stopping, clock),
        "checagens": lambda: FactCheckContent(root, cfg.conteudo_repositorio),
        "redes": lambda: SocialFeeds(root, config_path),
    }
    return [Job(name, cfg.cadence(name), factories[name]()) for name in cfg.tarefas]


def site_job(root: Path, cfg: SchedulerConfig, config_path: Path) -> Job:
    """The rebuild + publish job."""
    return Job(SITE, cfg.site_s, SiteJob(root, cfg.saida, config_path, cfg.publicar, cfg.espera_trava_s))


# --- command line -----------------------------------------------------------------------------


def _pairs(values: Sequence[str], kind: Callable[[str], Any], option: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for value in values:
        name, sep, number = value.partition("=")
        try:
            if not sep:
                raise ValueError(value)
            out[name.strip()] = kind(number)
        except ValueError as exc:
            raise SystemExit(f"erro: {option} espera NOME=VALOR (veio {value!r})") from exc
    return out


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python scheduler.py` (texts in Portuguese, like `eleicoes`)."""
    parser = ArgumentParser(
        prog="scheduler.py",
        description="Agendador: roda as tarefas (TSE, debates, checagens) e refaz + publica o site quando "
        "algo muda, até receber SIGTERM/SIGINT.",
    )
    parser.add_argument("--raiz", type=Path, default=Path(), help="pasta do projeto (padrão: a atual)")
    parser.add_argument("--config", type=Path, default=None, help="arquivo de configuração (eleicoes.toml)")
    parser.add_argument(
        "--tarefas", default=None, help="tarefas a rodar, separadas por vírgula (padrão: [agendador] tarefas)"
    )
    parser.add_argument(
        "--cadencia", action="append", default=[], metavar="NOME=S", help="substitui a cadência (ex.: tse=2)"
    )
    parser.add_argument(
        "--parar-apos",
        action="append",
        default=[],
        metavar="NOME=N",
        help="para depois de N execuções da tarefa (ex.: tse=10); o site é refeito uma última vez",
    )
    parser.add_argument(
        "--parar-quando-concluir",
        default="",
        metavar="NOMES",
        help="para quando estas tarefas disserem que terminaram (ex.: tse)",
    )
    parser.add_argument("--duracao-s", type=float, default=None, help="para depois de tantos segundos")
    parser.add_argument("--sem-publicar", action="store_true", help="só refaz o site, sem publicar")
    return parser


def config_from_args(args: argparse.Namespace) -> tuple[Path, Path, SchedulerConfig]:
    """Project root, configuration file and the `[agendador]` section with the overrides applied."""
    root: Path = args.raiz.resolve()
    config_path: Path = args.config or root / CONFIG_FILE
    cfg = load_scheduler_config(root, config_path)
    changes: dict[str, Any] = {f"{k}_s": v for k, v in _pairs(args.cadencia, float, "--cadencia").items()}
    unknown = [k for k in changes if k.removesuffix("_s") not in (*INPUT_JOBS, SITE)]
    if unknown:
        raise ConfigSectionError(f"--cadencia: tarefa desconhecida {unknown[0].removesuffix('_s')!r}")
    if args.tarefas is not None:
        changes["tarefas"] = tuple(t.strip() for t in args.tarefas.split(",") if t.strip())
    if args.sem_publicar:
        changes["publicar"] = False
    return root, config_path, dataclasses.replace(cfg, **changes)


def log_from_signal_handler(logger: logging.Logger, message: str, *args: object) -> None:
    """Log an INFO record from a signal handler without re-entering a logging stream.

    Python runs a handler in the main thread between two bytecodes, possibly in the middle of a
    handler's write or flush to a buffered file: logging there re-enters that stream ("reentrant
    call inside <_io.BufferedWriter>", a traceback on the operator's terminal and a lost line). A
    short thread logs instead; it waits on the handler's lock until the main thread lets go.
    """
    threading.Thread(target=logger.info, args=(message, *args), name="sinal-log", daemon=True).start()


def install_signal_handlers(runner: Runner) -> None:
    """SIGTERM and SIGINT ask the runner to stop: the job in flight finishes, nothing new starts."""

    def on_signal(signum: int, frame: object) -> None:
        del frame
        log_from_signal_handler(log, "sinal %s recebido", signal.Signals(signum).name)
        runner.stop(SIGNAL_REASON)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the scheduler until a signal, a limit or `--duracao-s`; returns the exit status."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    quiet_apscheduler()
    try:
        root, config_path, cfg = config_from_args(args)
        load_publish_config(root, config_path)  # a bad [publicar] fails now, not at the first publish
    except ConfigSectionError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2
    stop_after = _pairs(args.parar_apos, int, "--parar-apos")
    known = (*cfg.tarefas, SITE)
    unknown = [n for n in stop_after if n not in known]
    if unknown:
        print(
            f"erro: --parar-apos: tarefa {unknown[0]!r} não está na agenda ({', '.join(known)})",
            file=sys.stderr,
        )
        return 2
    try:
        instance = take_lock(
            root / INSTANCE_LOCK,
            "agendador",
            f"outro agendador já está rodando com a pasta de dados {root / INSTANCE_LOCK.parent}",
        )
    except LockBusyError as exc:
        print(f"erro: {exc}. Encerre-o antes de iniciar outro.", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"erro: não foi possível abrir a trava do agendador: {exc.strerror or exc}", file=sys.stderr)
        return 2
    with instance:
        stopping = threading.Event()
        runner = Runner(
            default_jobs(root, cfg, config_path, stopping),
            site_job(root, cfg, config_path),
            cfg.saude,
            misfire_grace_s=cfg.tolerancia_atraso_s,
            stop_after=stop_after,
            stop_when_done=frozenset(n.strip() for n in args.parar_quando_concluir.split(",") if n.strip()),
            grace_s=cfg.espera_encerramento_s,
            stopping=stopping,
        )
        install_signal_handlers(runner)
        runner.start()
        reason = runner.wait(args.duracao_s)
        if runner.abandoned:
            print(f"{abandoned_message(runner, reason)}; saúde em {cfg.saude}", flush=True)
            return EXIT_ABANDONED
        print(f"agendador encerrado ({reason}); saúde em {cfg.saude}", flush=True)
    return 0


def quiet_apscheduler() -> None:
    """APScheduler's own log lines are English; the runner logs its own line per run and for a
    skipped run (`Runner._on_skipped`), so only its errors are kept."""
    logging.getLogger("apscheduler").setLevel(logging.ERROR)


def abandoned_message(runner: Runner, reason: str) -> str:
    """The line printed when a stop abandoned jobs still running after the grace period (the demo
    prints where the health file is in its summary; `main` after this line)."""
    return (
        f"agendador encerrado ({reason}) sem esperar {', '.join(runner.abandoned)}, que não "
        f"terminou em {runner.grace_s:g} s"
    )


def exit_process(status: int) -> None:
    """End the process with `status`. After an abandoned job its thread cannot be joined (the
    interpreter would wait for it at exit), so the process ends without the exit handlers."""
    if status != EXIT_ABANDONED:
        sys.exit(status)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    exit_process(run_reporting_errors("scheduler.py", main))
