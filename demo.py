"""`eleicoes demo` and `eleicoes servir`.

The demo runs the real main job on embedded defaults, in a workspace of its own (`.cache/demo/` by
default, never the tracked `data/`): the TSE replay server steps through a synthetic runoff night
(fictional candidates), the scheduler polls it, the debate job transcribes a generated debate as
its segments arrive, the fact-check desk is the sample content, and every change is rebuilt and
published to a local folder served on http://127.0.0.1:8000. It stops when the night ends.

It orchestrates the scheduler, so it sits beside `scheduler.py`, above `jobs/`. The scheduler and the
builder are imported when the demo runs, so `eleicoes servir` (a static server) does not pay for them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from jobs.serve import DEFAULT_HOST, DEFAULT_PORT, make_server
from model.ptbr_cli import INTERRUPTED_STATUS

log = logging.getLogger("eleicoes.demo")
detail_log = logging.getLogger("eleicoes.demo.detalhe")  # the jobs' full lines: the log file only

NIGHT_START = dt.datetime(2026, 10, 25, 20, 30, tzinfo=dt.UTC)  # 17:30 in Brasília, the runoff night
# The night's level at each capture (`jobs.tse.synthetic`): each UF is counted up to 10 points ahead
# of or behind it, so at 1.1 every UF is complete. From 1.02 (98.4% of the electorate totalized) the
# leader's advantage exceeds the electorate not yet totalized: "definido matematicamente" is reached
# two readings before the end, and the night ends at 100%.
NIGHT_LEVELS = (0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 1.02, 1.06, 1.1)
NIGHT_STEP_MIN = 10.0  # minutes of the night between two captures
DEMO_GOVERNORS = ("es",)  # one governor runoff by municipality beside the president
AUDIO_DEBATE = "demo-audio"
SEGMENT_S = 4.0
MAX_DEBATE_LAG_S = 300.0  # safety: the demo stops even if the debate never reports its end
PREVIOUS_SUFFIX = ".anterior"
STOP_GRACE_S = 4.0  # after Ctrl+C, jobs still running after this long are abandoned (the scheduler's
# `espera_encerramento_s`, written in the demo's configuration)
WATCHDOG_MARGIN_S = 1.0  # the runner's own stop, then this long for the servers, before a forced exit


@dataclass(frozen=True)
class DemoOptions:
    """What `eleicoes demo` was asked for."""

    workspace: Path = Path(".cache/demo")
    port: int = DEFAULT_PORT
    step_s: float = 15.0  # seconds of real time per capture of the night
    steps: int | None = None  # step the night once per poll, this many polls (tests, CI)
    audio: bool = True  # the generated debate, transcribed live
    serve: bool = True


@dataclass
class NightPoll:
    """The TSE job of the demo: the real polling job, told when the replayed night is over. On the
    terminal, one short line per race it read, counting the readings ("leitura 3/9 · presidente:
    40,3% apurado, publicável"); the job's full line goes to the log file."""

    poll: Callable[[], Any]
    replay: Any  # jobs.tse.replay.EstadoReplay
    step_each_poll: bool
    outcome: Callable[..., Any]

    def __call__(self) -> Any:
        reading, total = self.replay.indice + 1, len(self.replay.noite.capturas)
        at_end = reading >= total
        result = self.poll()
        if self.step_each_poll and not at_end:
            self.replay.avancar()
        detail_log.info("tse, leitura %d/%d: %s", reading, total, result.detail)
        for line in reading_lines(reading, total, getattr(self.poll, "ultimo", None)):
            log.info("%s", line)
        return self.outcome(result.changed, done=at_end, detail=f"leitura {reading}/{total}")


def reading_lines(reading: int, total: int, cycle: Any) -> list[str]:
    """`leitura 3/9 · presidente: 30,3% apurado, publicável`, one line per race a cycle's result
    (jobs.tse.cycle.CycleResult) changed or failed, plus its warnings; none when there is no result."""
    if cycle is None:
        return []
    head = f"leitura {reading}/{total} ·"
    if cycle.erro:
        return [f"{head} ciclo não executado: {cycle.erro}"]
    lines = []
    for race in cycle.corridas:
        name = race.corrida.rotulo.rsplit(" ", 1)[0]  # "presidente 6258" -> "presidente"
        if race.erro:
            lines.append(f"{head} {name}: erro: {race.erro}")
        elif not race.alterado or race.apurado_pct is None:
            pass  # nothing new for this race: the terminal stays quiet, as the scheduler's line does
        else:
            pct = f"{race.apurado_pct:.1f}".replace(".", ",")
            ok = "publicável" if race.publicavel else "não publicável (" + ", ".join(race.nao_atendidos) + ")"
            lines.append(f"{head} {name}: {pct}% apurado, {ok}")
        lines += [f"{head} {name}: aviso: {warning}" for warning in race.avisos]
    return lines


@dataclass
class ShortSite:
    """The site job of the demo: its terminal line says what changed in few words; the full line
    (build and publication figures, the folder) goes to the log file."""

    run: Callable[[], Any]
    outcome: Callable[..., Any]

    def __call__(self) -> Any:
        result = self.run()
        detail_log.info("site: %s", result.detail)
        built = re.search(r"(\d+) gravados, (\d+) removidos, (\d+) avisos", result.detail)
        sent = re.search(r"publicação: .*?(\d+) enviados, (\d+) removidos", result.detail)
        if built is None or sent is None:
            return result
        short = f"{built[1]} arquivos refeitos, {built[3]} avisos; {sent[1]} publicados, {sent[2]} removidos"
        return self.outcome(result.changed, done=result.done, detail=short)


@dataclass
class RecordedDebate:
    """The debate job of the demo: the real one, done once the recording ended and nothing changed."""

    run: Callable[[], Any]
    mark: Path  # the audio job's end-of-recording mark (`gravacao.json`)
    outcome: Callable[..., Any]

    def __call__(self) -> Any:
        result = self.run()
        changed = result.changed if hasattr(result, "changed") else bool(result)
        if self.mark.exists() and not changed:
            return self.outcome(False, done=True)
        return result


@dataclass
class Demo:
    """The demo's workspace, servers and scheduler; `start`, then `wait`, then `close`."""

    repo: Path
    options: DemoOptions
    root: Path = field(init=False)
    published: Path = field(init=False)
    _closers: list[Callable[[], None]] = field(default_factory=list, init=False)
    _runner: Any = field(default=None, init=False)
    _night: Path = field(init=False)
    _git: bool = field(default=False, init=False)  # the data folder is a git repository
    site_server: ThreadingHTTPServer | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        workspace = self.options.workspace
        workspace = workspace if workspace.is_absolute() else self.repo / workspace
        self.root = workspace / "raiz"
        self.published = workspace / "publicado"

    # --- preparation -------------------------------------------------------------------------

    def prepare(self) -> Path | None:
        """A fresh workspace: links to the content and templates, a copy of the sample data (with
        the archived copies of captured posts, linked from check pages as in a normal build), the
        synthetic night, the debate's segments and the configuration of every job.

        The previous run's workspace is kept beside it (`<pasta>.anterior`, replacing the one kept
        before); returns where it went, or None on a first run."""
        from jobs.tse.synthetic import make_synthetic_night
        from site_builder.conteudo.regras import PASTA_COPIAS

        workspace = self.root.parent
        kept = None
        if workspace.exists():
            kept = workspace.with_name(workspace.name + PREVIOUS_SUFFIX)
            if kept.exists():
                shutil.rmtree(kept)
            workspace.rename(kept)
        self.root.mkdir(parents=True)
        (self.root / "templates").symlink_to(self.repo / "templates", target_is_directory=True)
        # A copy of the content: the demo's site.toml names the address it is served at (the audit
        # commands download from it) and this checkout as the code repository.
        shutil.copytree(self.repo / "content", self.root / "content")
        debates = self.repo / "data" / "debates"
        if debates.is_dir():
            shutil.copytree(
                debates, self.root / "data" / "debates", ignore=shutil.ignore_patterns(AUDIO_DEBATE)
            )
        if (copies := self.repo / PASTA_COPIAS).is_dir():  # a copy: the social-feeds job writes there
            shutil.copytree(copies, self.root / PASTA_COPIAS)
        (self.root / "data" / "tse").mkdir(parents=True)
        self._git = init_data_repository(self.root / "data")
        night = workspace / "noite"
        make_synthetic_night(night, NIGHT_START, NIGHT_LEVELS, NIGHT_STEP_MIN, DEMO_GOVERNORS)
        self._night = night
        return kept

    def _write_config(self, replay_url: str, segments: Path | None) -> Path:
        governors = ", ".join(f'"{uf}"' for uf in DEMO_GOVERNORS)
        sources = f'["{AUDIO_DEBATE}={segments}"]' if segments else "[]"
        text = f"""# Written by `eleicoes demo`: the real jobs on embedded defaults, on loopback.
[tse]
url_base = "{replay_url}"
relogio = "servidor"
git = {"true" if self._git else "false"}
repositorio_git = "data"
requisicoes_por_segundo = 50
rajada = 40
intervalo_s = 1.0

[[tse.corridas]]
cargo = "presidente"
eleicao = "6258"
nivel = "uf"

[[tse.corridas]]
cargo = "governador"
eleicao = "6260"
ufs = [{governors}]
nivel = "municipio"

[agendador]
tse_s = 2.0
debate_s = 2.0
checagens_s = 30.0
site_s = 600.0
espera_encerramento_s = {STOP_GRACE_S}
saude = ".cache/agendador-saude.json"
debate_fontes = {sources}

[publicar]
destino = "pasta"
pasta = "{self.published}"
"""
        path = self.root / "eleicoes.toml"
        path.write_text(text, encoding="utf-8")
        return path

    def _write_site_config(self) -> None:
        """The demo's `content/site.toml`: the repository's, with the address the site is served at
        and this checkout as the code repository, so the printed audit commands work as written."""
        path = self.root / "content" / "site.toml"
        port = self.site_server.server_address[1] if self.site_server else self.options.port
        lines = [
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if not line.startswith(("url_base", "repositorio"))
        ]
        lines += [f'url_base = "http://{DEFAULT_HOST}:{port}"', f'repositorio = "{self.repo.resolve()}"']
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def _start_recorder(self) -> Path | None:
        """Release the generated debate's segments one by one, like a live recorder."""
        from jobs.debate.demo_audio import preparar_demo, simular_gravador

        if not self.options.audio:
            return None
        debate_dir = self.root / "data" / "debates" / AUDIO_DEBATE
        made = preparar_demo(debate_dir, self.root.parent / "segmentos-gerados", SEGMENT_S)
        live = self.root.parent / "segmentos"
        stop = threading.Event()
        interval = 0.0 if self.options.steps is not None else SEGMENT_S
        thread = threading.Thread(
            target=simular_gravador, args=(made, live, interval, stop), name="gravador", daemon=True
        )
        thread.start()
        self._closers.append(stop.set)
        return live

    # --- running ---------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the replay server, the debate recorder, the site server and the scheduler."""
        import scheduler
        from jobs.debate.pipeline import ARQ_GRAVACAO
        from jobs.tse.replay import make_server as make_replay

        clocked = self.options.steps is None
        replay = make_replay(self._night, 0, self.options.step_s if clocked else None)
        replay.iniciar()
        self._closers.append(replay.parar)
        config_path = self._write_config(replay.url_base, self._start_recorder())

        cfg = scheduler.load_scheduler_config(self.root, config_path)
        stopping = threading.Event()  # the runner's: a transcription backlog ends early at Ctrl+C
        # The debate airs inside the night: its scoreboard is stamped on the night's clock, the one the
        # site server sends as Date, so the debate page's age line stays fresh while it airs.
        jobs = scheduler.default_jobs(self.root, cfg, config_path, stopping, clock=replay.estado.agora)
        wrapped: dict[str, Callable[[Callable[[], Any]], Callable[[], Any]]] = {
            "tse": lambda run: NightPoll(run, replay.estado, not clocked, scheduler.Outcome),
        }
        done_when = {"tse"}
        if self.options.audio:  # the night ends when both the count and the debate are over
            mark = self.root / "data" / "debates" / AUDIO_DEBATE / ARQ_GRAVACAO
            wrapped["debate"] = lambda run: RecordedDebate(run, mark, scheduler.Outcome)
            done_when.add("debate")
        jobs = [
            scheduler.Job(job.name, job.every_s, wrapped[job.name](job.run)) if job.name in wrapped else job
            for job in jobs
        ]
        self.published.mkdir(parents=True, exist_ok=True)
        if self.options.serve:
            # The night's clock in the Date header: the live pages' "há N min" compares with the night.
            self.site_server = make_server(
                self.published, DEFAULT_HOST, self.options.port, clock=replay.estado.agora
            )
            threading.Thread(target=self.site_server.serve_forever, name="site", daemon=True).start()
            self._closers.append(self._close_site)
        self._write_site_config()
        stop_after = {"tse": self.options.steps} if self.options.steps is not None else {}
        self._runner = scheduler.Runner(
            jobs,
            self._site_job(scheduler.site_job(self.root, cfg, config_path)),
            cfg.saude,
            misfire_grace_s=cfg.tolerancia_atraso_s,
            stop_after=stop_after,
            stop_when_done=frozenset(done_when),
            grace_s=cfg.espera_encerramento_s,
            stopping=stopping,
        )
        self._runner.start()

    @staticmethod
    def _site_job(job: Any) -> Any:
        import scheduler

        return scheduler.Job(job.name, job.every_s, ShortSite(job.run, scheduler.Outcome))

    def stop(self) -> None:
        """Ask the night to stop (the scheduler lets the jobs in flight finish)."""
        import scheduler

        if self._runner is not None:
            self._runner.stop(scheduler.SIGNAL_REASON)

    def wait(self) -> str:
        """Block until the night ends, the step limit, a signal or a safety limit; the reason."""
        limit_s = len(NIGHT_LEVELS) * self.options.step_s + MAX_DEBATE_LAG_S
        reason: str = self._runner.wait(None if self.options.steps is not None else limit_s)
        return reason

    def abandoned_message(self, reason: str) -> str | None:
        """The scheduler's line naming the jobs a stop abandoned after its grace period, or None."""
        import scheduler

        return scheduler.abandoned_message(self._runner, reason) if self._runner.abandoned else None

    @property
    def url(self) -> str:
        """Where the published site is served."""
        assert self.site_server is not None
        return f"http://{DEFAULT_HOST}:{self.site_server.server_address[1]}"

    def _close_site(self) -> None:
        assert self.site_server is not None
        self.site_server.shutdown()
        self.site_server.server_close()

    def close(self, *, keep_site: bool = False) -> None:
        """Stop the servers and the recorder (all but the site server with `keep_site`)."""
        for closer in reversed(self._closers):
            if not (keep_site and closer == self._close_site):
                closer()
        self._closers = [c for c in self._closers if keep_site and c == self._close_site]


def init_data_repository(folder: Path) -> bool:
    """`git init` the demo's data folder (the TSE job commits one snapshot per reading there, as in
    production), with a local author so commits and a user's own `git` work on any machine.
    Without a working `git`, says so and returns False (the night runs without the history)."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for args in (
            ("-c", "init.defaultBranch=principal", "init", "-q"),
            ("config", "user.name", "demo eleicoes"),
            ("config", "user.email", "demo@eleicoes.invalid"),
            ("config", "commit.gpgsign", "false"),
        ):
            subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("git indisponível (%s): as leituras não terão histórico git", type(exc).__name__)
        return False
    # Not the night's readings: the copied sample debates, the feeds' captures, the poller's lock.
    (folder / ".git" / "info" / "exclude").write_text("/debates/\n/redes/\n*.lock\n", encoding="utf-8")
    return True


TERMINAL_WIDTH = 120  # the demo's terminal lines are cut here (the log file keeps them whole)
TERMINAL_LOGGERS = ("eleicoes.demo", "eleicoes.agendador", "eleicoes.debate")  # their INFO lines
LOG_FILE = "demo.log"


class TerminalFilter(logging.Filter):
    """Our own Portuguese lines on the terminal: the demo's, the scheduler's and the debate's, and
    any warning of the project's; third-party lines (APScheduler, faster-whisper, urllib3) and the
    jobs' full lines go to the log file only."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether the record is shown on the terminal."""
        name = record.name
        if name == detail_log.name or not name.startswith("eleicoes"):
            return False
        return record.levelno >= logging.WARNING or name.startswith(TERMINAL_LOGGERS)


class TerminalFormatter(logging.Formatter):
    """`HH:MM:SS message`, one line of at most TERMINAL_WIDTH characters, never a traceback."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(message)s", datefmt="%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        """The record's first line, cut to the width."""
        plain = logging.makeLogRecord(
            {**record.__dict__, "exc_info": None, "exc_text": None, "stack_info": None}
        )
        line = super().format(plain).splitlines()[0] if record.getMessage() else ""
        return line if len(line) <= TERMINAL_WIDTH else line[: TERMINAL_WIDTH - 1] + "…"


def setup_logging() -> None:
    """The terminal handler (short Portuguese lines only); `log_to_file` adds the whole log."""
    import scheduler

    terminal = logging.StreamHandler(sys.stderr)
    terminal.addFilter(TerminalFilter())
    terminal.setFormatter(TerminalFormatter())
    root = logging.getLogger()
    root.handlers[:] = [terminal]
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)  # Python warnings (third-party libraries) are log records: the file
    scheduler.quiet_apscheduler()


def log_to_file(path: Path) -> None:
    """Every record, third-party ones included, whole, in `path`."""
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    logging.getLogger().addHandler(handler)


def _write_past_buffers(text: str) -> None:
    """Write to the terminal from a signal handler: straight to stderr's descriptor, as the main
    thread may be inside a write to sys.stderr's buffer (a print there would re-enter it)."""
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # a stream with no descriptor (captured)
        print(text, end="", file=sys.stderr, flush=True)
        return
    os.write(fd, text.encode())


@dataclass
class StopOnSignal:
    """Ctrl+C / SIGTERM handler: the first asks everything to stop and arms a watchdog that ends the
    process with `too_slow_status` if stopping takes longer than `grace_s` (the scheduler abandons a
    job in flight after its own grace period; the watchdog covers the rest); a second one ends the
    process at once."""

    on_first: Callable[[], None]
    grace_s: float = STOP_GRACE_S + WATCHDOG_MARGIN_S
    force_exit: Callable[[int], None] = os._exit
    too_slow_status: int = INTERRUPTED_STATUS
    # What the operator must still be told when the watchdog ends the process (the demo's summary of
    # where the snapshots, debates and site are): an abandoned job must not cost them that.
    last_words: Callable[[], str] | None = None
    asked: threading.Event = field(default_factory=threading.Event)

    def __call__(self, signum: int, frame: object) -> None:
        del frame
        import scheduler

        if self.asked.is_set():
            _write_past_buffers("\nsegundo Ctrl+C: encerrando agora.\n")
            self.force_exit(INTERRUPTED_STATUS)
            return
        self.asked.set()
        scheduler.log_from_signal_handler(
            log, "sinal %s recebido: encerrando (Ctrl+C de novo para sair já)", signal.Signals(signum).name
        )
        watchdog = threading.Timer(self.grace_s, self._too_slow)
        watchdog.daemon = True
        watchdog.start()
        self.on_first()

    def _too_slow(self) -> None:
        print(
            f"tarefas ainda em andamento após {self.grace_s:g} s: encerrando sem esperar por elas.",
            file=sys.stderr,
            flush=True,
        )
        if self.last_words is not None:
            try:
                print(self.last_words(), flush=True)
            except Exception:  # the exit must happen whatever the summary meets
                log.debug("resumo final não pôde ser escrito", exc_info=True)
        self.force_exit(self.too_slow_status)

    def install(self) -> None:
        """Handle SIGINT and SIGTERM with this object."""
        signal.signal(signal.SIGINT, self)
        signal.signal(signal.SIGTERM, self)


def register(sub: Any) -> None:
    """Add `demo` and `servir` to the `eleicoes` parser."""
    demo = sub.add_parser(
        "demo",
        help="roda a noite de demonstração (apuração, debate, checagens) em http://127.0.0.1:8000",
        description="Roda o job principal com os padrões embutidos: servidor de reprodução do TSE com "
        "uma noite sintética de 2º turno (candidatos fictícios), o agendador, um debate gerado "
        "transcrito ao vivo e a mesa de checagem de exemplo; o site é refeito e publicado numa pasta "
        "local a cada mudança. Para sozinha quando a noite acaba (ou com Ctrl+C).",
    )
    demo.add_argument("--porta", type=int, default=DEFAULT_PORT, help="porta do servidor (padrão: 8000)")
    demo.add_argument(
        "--pasta", type=Path, default=Path(".cache/demo"), help="pasta de trabalho (padrão: .cache/demo)"
    )
    demo.add_argument(
        "--passo-s", type=float, default=15.0, help="segundos reais por captura da noite (padrão: 15)"
    )
    demo.add_argument(
        "--passos", type=int, default=None, help="avança uma captura por ciclo e para após N ciclos"
    )
    demo.add_argument("--sem-audio", action="store_true", help="sem o debate gerado (transcrição)")
    demo.add_argument("--sem-servidor", action="store_true", help="não serve o site durante a noite")
    demo.set_defaults(func=run_demo)
    serve = sub.add_parser(
        "servir",
        help="serve uma pasta já gerada em http://127.0.0.1:8000",
        description="Servidor estático local (só loopback) com a página 404 do site.",
    )
    serve.add_argument("--porta", type=int, default=DEFAULT_PORT, help="porta do servidor (padrão: 8000)")
    serve.add_argument("--saida", type=Path, default=Path("public"), help="pasta do site (padrão: public/)")
    serve.set_defaults(func=run_serve)


def run_demo(args: argparse.Namespace) -> int:
    """Check the content builds strictly, then run the night until it ends. A job still running
    after the stop's grace period is abandoned: the process ends with the scheduler's status 3."""
    import scheduler
    from site_builder.build import build_site  # the builder, like the scheduler, only for the demo
    from site_builder.errors import BuildError
    from site_builder.lock import print_waiting, project_lock

    setup_logging()
    repo = Path.cwd()
    try:  # the sample content must pass strict mode before the night starts
        # Under the project lock, as `eleicoes build`: another build of the checkout's public/ (a
        # second demo, an editor's build) would otherwise remove this one's staging under it.
        with project_lock(repo, "eleicoes demo: build de verificação", on_wait=print_waiting):
            build_site(repo, repo / "public", strict=True)
    except BuildError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return exc.exit_code
    options = DemoOptions(
        workspace=args.pasta,
        port=args.porta,
        step_s=args.passo_s,
        steps=args.passos,
        audio=not args.sem_audio,
        serve=not args.sem_servidor,
    )
    demo = Demo(repo, options)
    kept = demo.prepare()
    log_to_file(demo.root.parent / LOG_FILE)
    if kept is not None:
        print(f"a execução anterior foi guardada em {kept}", flush=True)
    stopper = StopOnSignal(
        demo.stop,
        too_slow_status=scheduler.EXIT_ABANDONED,
        last_words=lambda: end_summary(demo, scheduler.SIGNAL_REASON),
    )
    stopper.install()
    try:
        demo.start()
        if options.serve:
            print(f"site em {demo.url}/ (Ctrl+C para parar)", flush=True)
        reason = demo.wait()
        demo.close(keep_site=True)
        if options.serve and not stopper.asked.is_set():
            print(f"noite encerrada ({reason}); o site continua em {demo.url}/", flush=True)
            print("Ctrl+C para parar.", flush=True)
            while not stopper.asked.wait(0.5):  # a timed wait keeps the main thread responsive to signals
                pass
    finally:
        demo.close()
    abandoned = demo.abandoned_message(reason)
    if abandoned:
        print(abandoned, flush=True)
    print(end_summary(demo, reason), flush=True)
    if abandoned:
        scheduler.exit_process(scheduler.EXIT_ABANDONED)  # the abandoned job's thread cannot be joined
    return 0


def end_summary(demo: Demo, reason: str) -> str:
    """Where everything is, and the audit commands the site prints, to run in the demo's folder."""
    race = demo.root / "data" / "tse" / "6258" / "presidente"
    latest = race / "latest"
    capture = latest.read_text(encoding="utf-8").strip() if latest.is_file() else "<captura>"
    return "\n".join(
        (
            f"demo encerrada ({reason}).",
            "  site publicado (para servir de novo: eleicoes servir --saida <esta pasta>):",
            f"    {demo.published}",
            "  pasta da demo (snapshots do TSE em data/tse, um repositório git; debates em data/debates):",
            f"    {demo.root}",
            "  auditar uma leitura como o site mostra, nessa pasta:",
            f"    cd {demo.root}",
            f"    eleicoes auditar data/tse/6258/presidente/{capture}",
            "    git -C data log --oneline        (um commit por leitura)",
            "    git -C data diff HEAD~2 HEAD --stat   (o que a última leitura de cada corrida trouxe)",
            "  log completo e saúde das tarefas:",
            f"    {demo.root.parent / LOG_FILE}",
            f"    {demo.root / '.cache' / 'agendador-saude.json'}",
        )
    )


def run_serve(args: argparse.Namespace) -> int:
    """Serve the output folder on loopback until Ctrl+C."""
    if not (args.saida / "index.html").is_file():
        print(f"erro: {args.saida}/index.html não existe; rode 'eleicoes build' antes.", file=sys.stderr)
        return 1
    server = make_server(args.saida, DEFAULT_HOST, args.porta)
    print(f"site em http://{DEFAULT_HOST}:{server.server_address[1]}/ (Ctrl+C para parar)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("servidor encerrado.")
    finally:
        server.server_close()
    return 0
