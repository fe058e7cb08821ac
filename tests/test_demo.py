"""The demo runs headless for a fixed number of steps (the real scheduler, replay server, TSE job,
debate engine, sample desk, build and publish), and the served pages are checked over HTTP and in
a real browser at phone and desktop widths."""

from __future__ import annotations

import datetime as dt
import email.utils
import json
import logging
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import extruct
import pytest

import scheduler
from demo import (
    NIGHT_LEVELS,
    NIGHT_START,
    NIGHT_STEP_MIN,
    STOP_GRACE_S,
    TERMINAL_WIDTH,
    Demo,
    DemoOptions,
    StopOnSignal,
)
from model.ptbr_cli import INTERRUPTED_STATUS
from site_builder import copia_arquivada
from site_builder.conteudo.frontmatter import parse_front_matter
from site_builder.conteudo.regras import PASTA_COPIAS
from site_builder.lock import project_lock
from tests.support.navegador import CHROMIUM, Navegador, salvar
from tests.support.sinais import arquivo_interrompido

REPO = Path(__file__).resolve().parent.parent
STEPS = 4
# No module-wide xdist group: `eleicoes demo` (the subprocess tests) first builds the checkout's own
# content strictly into the checkout's public/ and .cache/ (demo.py, run_demo) under the project
# lock, so two demos in two workers take turns for that build and each runs its night in its own
# folder. The tests sharing a demo run (module fixtures) are grouped by tests/conftest.py.


# Deep links a reader may open before the first publish (issue 21): all get the "preparando" page.
DEEP_LINKS = ("/projecao/6258-presidente/", "/api/projecao/6258-presidente.json", "/debates/")


@dataclass(frozen=True)
class DemoRun:
    """The demo run once for the module, and what its site answered before the first publish."""

    demo: Demo
    before_publish: dict[str, tuple[int, str, str]]  # path -> status, Retry-After, body


def _answer(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:  # loopback only
            return answer.status, answer.headers.get("Retry-After", ""), answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After", ""), error.read().decode("utf-8")


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoRun]:
    workspace = tmp_path_factory.mktemp("demo")
    running = Demo(REPO, DemoOptions(workspace=workspace, port=0, steps=STEPS, audio=False))
    running.prepare()
    try:
        # Holding the project lock keeps the site job from publishing: the site is not there yet.
        with project_lock(running.root, "teste: antes da primeira publicação"):
            running.start()
            before = {path: _answer(running.url + path) for path in DEEP_LINKS}
        assert running.wait() == "limite"
        yield DemoRun(running, before)
    finally:
        running.close()


@pytest.fixture(scope="module")
def demo(demo_run: DemoRun) -> Demo:
    return demo_run.demo


def get(demo: Demo, path: str) -> str:
    with urllib.request.urlopen(demo.url + path, timeout=60) as answer:  # loopback only
        assert answer.status == 200
        body: bytes = answer.read()
    return body.decode("utf-8")


def latest_output(demo: Demo, race: str) -> bytes:
    folder = demo.root / "data" / "tse" / race
    capture = (folder / "latest").read_text(encoding="utf-8").strip()
    return (folder / capture / "saida.json").read_bytes()


def br_pct(value: float) -> str:
    return f"{value:.1f}".replace(".", ",")


def test_the_night_moved_and_the_projection_page_shows_the_last_reading(demo: Demo) -> None:
    race = demo.root / "data" / "tse" / "6258" / "presidente"
    captures = [p for p in race.iterdir() if p.is_dir() and not p.name.startswith(".")]
    assert len(captures) == STEPS  # one snapshot per step of the replayed night
    saida = latest_output(demo, "6258/presidente")
    output = json.loads(saida)
    api = json.loads(get(demo, "/api/projecao/6258-presidente.json"))
    api.pop("ultima_publicavel")  # issue 21: the last publishable reading, beside the model's keys
    assert api == output
    page = get(demo, "/projecao/6258-presidente/")
    assert output["publicavel"] is True
    for candidate in output["forecast"]["candidatos"]:
        assert candidate["nome"].title() in page  # as the candidate file writes it, not in TSE capitals
        assert br_pct(candidate["pct"]) in page
    assert "não é o resultado oficial" in page.lower()
    assert "Esta apuração é simulada, com candidatos fictícios" in page  # the demo says so


def test_the_debate_page_shows_evaluated_turns(demo: Demo) -> None:
    index = get(demo, "/debates/")
    link = re.search(r'href="(/debates/[^"/]+/)"', index)
    assert link is not None
    page = get(demo, link.group(1))
    assert page.count('class="turno"') >= 3
    assert "demonstração" in page.lower()


def test_a_check_page_carries_one_valid_claimreview(demo: Demo) -> None:
    index = get(demo, "/checagens/")
    link = re.search(r'href="(/checagens/demo-[^"/]+/)"', index)
    assert link is not None
    page = get(demo, link.group(1))
    data = extruct.extract(page, base_url=demo.url + link.group(1), syntaxes=["json-ld"])
    reviews = [
        item
        for block in data["json-ld"]
        for item in ([block] if "@type" in block else block.get("@graph", []))
        if item.get("@type") == "ClaimReview"
    ]
    assert len(reviews) == 1
    rating = reviews[0]["reviewRating"]
    assert rating["bestRating"] == 5 and rating["worstRating"] == 1
    assert reviews[0]["itemReviewed"]["@type"] == "Claim"


def test_a_check_page_links_the_archived_copy_of_its_captured_post(demo: Demo) -> None:
    """As in a normal build: the demo's workspace carries the sample content's archived copies."""
    linked = 0
    for path in sorted((demo.root / "content" / "checagens").glob("*.md")):
        meta = parse_front_matter(path.read_text(encoding="utf-8"), str(path))
        copies = [o["arquivo"] for o in meta.get("ocorrencias", []) if "arquivo" in o]
        if meta["status"] != "publicada" or not copies:
            continue
        page = get(demo, f"/checagens/{meta.get('slug', path.stem)}/")
        for copy in copies:
            address = "/arquivo/" + copy.removeprefix(PASTA_COPIAS)
            readable = copia_arquivada.url_da_pagina(address[1:])
            assert f'<a href="{readable}">cópia arquivada</a> (<a href="{address}">WARC</a>)' in page, (
                path.name,
                address,
            )
            assert "Cópia arquivada" in get(demo, readable)  # the readable view a reader can open
            with urllib.request.urlopen(demo.url + address, timeout=60) as answer:  # loopback only
                assert answer.read() == (REPO / copy).read_bytes()
            linked += 1
    assert linked > 0  # the sample desk has checks with captured posts
    assert (REPO / PASTA_COPIAS).is_dir()


@pytest.mark.skipif(CHROMIUM is None, reason="chromium (pacote Debian) não está instalado")
@pytest.mark.parametrize(("largura", "altura", "mobile"), [(390, 844, True), (1280, 900, False)])
def test_pages_load_in_a_browser_without_console_errors(
    demo: Demo, tmp_path: Path, largura: int, altura: int, mobile: bool
) -> None:
    debate = re.search(r'href="(/debates/[^"/]+/)"', get(demo, "/debates/"))
    check = re.search(r'href="(/checagens/demo-[^"/]+/)"', get(demo, "/checagens/"))
    assert debate is not None and check is not None
    paths = {
        "inicio": "/",
        "projecao": "/projecao/6258-presidente/",
        "debate": debate.group(1),
        "checagem": check.group(1),
    }
    with Navegador() as browser:
        for name, path in paths.items():
            page = browser.abrir(demo.url + path, largura, altura, mobile)
            salvar(page, tmp_path / f"{name}-{largura}.png")
            assert page.erros == [], f"{path}: {page.erros}"
            assert page.png.startswith(b"\x89PNG")
            assert "<main" in page.dom


def test_the_demo_debate_is_done_once_the_recording_ended_and_nothing_changed(tmp_path: Path) -> None:
    from demo import RecordedDebate
    from scheduler import Outcome

    results = iter([True, False, True, False])
    mark = tmp_path / "gravacao.json"
    job = RecordedDebate(lambda: next(results), mark, Outcome)
    assert job() is True  # still transcribing: the real job's answer passes through
    assert job() is False  # quiet, but the recording has not ended
    mark.write_text('{"encerrada": true}', encoding="utf-8")
    assert job() is True  # the last segments are still being processed
    assert job() == Outcome(False, done=True)


def test_audit_commands_printed_by_the_demo_work_as_written(demo: Demo, tmp_path: Path) -> None:
    """Issue 17: from a fresh folder, the commands a capture page prints download the reading and
    the previous one from the served demo, verify them, fetch the model's code at the recorded
    commit and rerun it with a bare Python to the same bytes."""
    from jobs.tse.gitlog import model_commit
    from tests.projecao.test_auditoria import commands, stdlib_python

    if model_commit(REPO) is None:
        pytest.skip("model/ tem mudanças não commitadas: nenhum commit guarda o código desta demo")
    race = demo.root / "data" / "tse" / "6258" / "presidente"
    latest = (race / "latest").read_text(encoding="utf-8").strip()
    previous = sorted(p.name for p in race.iterdir() if p.is_dir() and p.name < latest)[-1]
    page = get(demo, f"/projecao/6258-presidente/capturas/{latest}/")
    _, download, code, rerun = commands(page)
    assert f"curl -sfO {demo.url}/projecao/6258-presidente/capturas/{previous}/SHA256SUMS" in download
    assert "example.org" not in download and download.count("sha256sum -c") == 2
    clone = f"git clone -q {REPO.resolve()} eleicoes-codigo"
    assert code == f"{clone} && git -C eleicoes-codigo checkout -q {model_commit(REPO)}"
    work = tmp_path / "auditor"
    work.mkdir()
    env = {**os.environ, "PATH": f"{stdlib_python(tmp_path)}{os.pathsep}{os.environ['PATH']}"}
    for command in (download, code):
        subprocess.run(
            ["bash", "-c", command], cwd=work, env=env, check=True, capture_output=True, timeout=300
        )
    for name in (previous, latest):
        served = demo.published / "projecao" / "6258-presidente" / "capturas" / name
        got = sorted(p.name for p in (work / name).iterdir())
        assert got == sorted(p.name for p in served.iterdir() if p.name != "index.html")
        assert all(
            (work / name / n).read_bytes() == (race / name / n).read_bytes() for n in got if n != "SHA256SUMS"
        )
    done = subprocess.run(
        ["bash", "-c", rerun], cwd=work, env=env, capture_output=True, text=True, check=True, timeout=300
    )
    assert done.stdout.strip() == "idênticos"


def test_deep_links_before_the_first_publish_get_the_preparing_page(demo_run: DemoRun) -> None:
    """Issue 21: not Python's English "Error response 404", which never refreshed."""
    for path, (status, retry, body) in demo_run.before_publish.items():
        assert status == 503 and retry, path
        assert "Preparando o site" in body and 'http-equiv="refresh"' in body, path
        assert "Error response" not in body
    assert get(demo_run.demo, DEEP_LINKS[0])  # published since


def test_the_site_is_served_on_the_nights_clock(demo: Demo) -> None:
    """Issue 21: the Date header (what the live pages take as "now") is the replayed night's, not
    today's, so a publishable reading is not shown as 53,117 minutes late."""
    with urllib.request.urlopen(demo.url + "/api/projecao/6258-presidente.json", timeout=60) as answer:
        served_at = email.utils.parsedate_to_datetime(answer.headers["Date"])
        assert answer.headers["ETag"] and answer.headers["Cache-Control"] == "no-cache"
    night_end = NIGHT_START + dt.timedelta(minutes=NIGHT_STEP_MIN * len(NIGHT_LEVELS))
    assert NIGHT_START <= served_at < night_end + dt.timedelta(hours=1)  # the step in hand, plus real time


def test_the_printed_audit_command_works_in_the_demo_folder(demo: Demo) -> None:
    """Issue 21: the capture page's `eleicoes auditar ...` runs as printed in the demo's folder, whose
    data/ is a git repository with one commit per reading (`git log`, `git diff` between two)."""
    from tests.projecao.test_auditoria import commands

    race = demo.root / "data" / "tse" / "6258" / "presidente"
    latest = (race / "latest").read_text(encoding="utf-8").strip()
    printed = commands(get(demo, f"/projecao/6258-presidente/capturas/{latest}/"))[0]
    assert printed == f"eleicoes auditar data/tse/6258/presidente/{latest}"
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    done = subprocess.run(
        ["bash", "-c", printed], cwd=demo.root, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"ok: data/tse/6258/presidente/{latest} reproduzido byte a byte")
    git = ["git", "-C", str(demo.root / "data")]
    log = subprocess.run([*git, "log", "--format=%H %s"], capture_output=True, text=True, check=True).stdout
    readings = [line.split()[0] for line in log.splitlines() if " presidente " in line]
    assert len(readings) == STEPS  # one commit per reading of the race
    second, first = readings[-2], readings[-1]  # git log lists the newest first
    diff = subprocess.run(
        [*git, "diff", "--name-only", first, second], capture_output=True, text=True, check=True
    )
    captures = sorted(p.name for p in race.iterdir() if p.is_dir() and not p.name.startswith("."))
    assert f"tse/6258/presidente/{captures[1]}/saida.json" in diff.stdout
    assert subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True).stdout == ""


def test_a_rerun_keeps_the_previous_runs_folder(tmp_path: Path) -> None:
    workspace = tmp_path / "demo"
    first = Demo(REPO, DemoOptions(workspace=workspace, port=0, steps=1, audio=False))
    assert first.prepare() is None
    (workspace / "marca-1").write_text("1", encoding="utf-8")
    assert Demo(REPO, first.options).prepare() == tmp_path / "demo.anterior"
    assert (tmp_path / "demo.anterior" / "marca-1").is_file() and not (workspace / "marca-1").exists()
    (workspace / "marca-2").write_text("2", encoding="utf-8")
    Demo(REPO, first.options).prepare()  # the folder kept is the run just before, and only that one
    assert (tmp_path / "demo.anterior" / "marca-2").is_file()
    assert not (tmp_path / "demo.anterior" / "marca-1").exists()


def test_a_signal_arriving_inside_a_log_flush_is_logged_without_a_logging_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CI saw Ctrl+C land while the demo's log file was being flushed: the handler's own log line
    re-entered the buffered file ("--- Logging error ---", a traceback on the terminal)."""
    stops: list[str] = []
    handler = StopOnSignal(lambda: stops.append("parar"), grace_s=600, force_exit=lambda status: None)
    with arquivo_interrompido("eleicoes.demo", lambda: handler(signal.SIGINT, None)) as arquivo:
        logging.getLogger("eleicoes.demo").info("linha que estava sendo gravada")
        for thread in threading.enumerate():  # the line is written once the main thread lets go
            if thread.name == "sinal-log":
                thread.join(60)
    assert stops == ["parar"]
    assert "linha que estava sendo gravada" in arquivo.texto()
    assert "sinal SIGINT recebido: encerrando (Ctrl+C de novo para sair já)" in arquivo.texto()
    assert "Logging error" not in capsys.readouterr().err


def test_first_signal_stops_and_arms_a_watchdog_second_exits_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stops: list[str] = []
    exits: list[int] = []
    exited = threading.Event()

    def force_exit(status: int) -> None:
        exits.append(status)
        exited.set()

    handler = StopOnSignal(
        lambda: stops.append("parar"),
        grace_s=0.05,
        force_exit=force_exit,
        last_words=lambda: "demo encerrada (sinal).\n  pasta da demo: ...",
    )
    handler(signal.SIGINT, None)
    assert stops == ["parar"] and handler.asked.is_set()
    assert exited.wait(60)  # stopping never finished here: the watchdog ends the process
    assert exits == [130]
    # ... and still tells the operator where everything is (issue 25: the documented end).
    out = capsys.readouterr()
    assert "encerrando sem esperar por elas." in out.err
    assert "demo encerrada (sinal)." in out.out
    handler(signal.SIGINT, None)  # a second Ctrl+C is not ignored
    assert stops == ["parar"] and exits == [130, 130]


def _start_demo(tmp_path: Path, *options: str) -> subprocess.Popen[str]:
    """`eleicoes demo` as a user runs it; its log (stderr) comes with its output."""
    return subprocess.Popen(
        [sys.executable, "-m", "eleicoes", "demo", "--pasta", str(tmp_path / "demo"), "--porta", "0",
         *options],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def _read_until(proc: subprocess.Popen[str], text: str) -> str:
    """Everything the process wrote up to and including the first line with `text`."""
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if text in line:
            return "".join(lines)
    raise AssertionError(f"a demo terminou sem escrever {text!r}:\n{''.join(lines)}")


@dataclass(frozen=True)
class NightRun:
    """`eleicoes demo` run as a user runs it, over the whole night, then stopped with Ctrl+C."""

    workspace: Path
    out: str  # its terminal (stdout and stderr)
    returncode: int
    served: tuple[int, str]  # what its site answered once the night had ended


@pytest.fixture(scope="module")
def night_run(tmp_path_factory: pytest.TempPathFactory) -> NightRun:
    tmp_path = tmp_path_factory.mktemp("noite")
    proc = _start_demo(tmp_path, "--sem-audio", "--passos", str(len(NIGHT_LEVELS)))
    try:
        before = _read_until(proc, "o site continua em")
        url = re.search(r"http://127\.0\.0\.1:\d+/", before.splitlines()[-1])
        assert url is not None
        with urllib.request.urlopen(url.group(0), timeout=30) as answer:
            served = answer.status, answer.read().decode("utf-8")
        proc.send_signal(signal.SIGINT)
        after = proc.communicate(timeout=120)[0]
    finally:
        proc.kill()
        proc.wait()
    return NightRun(tmp_path / "demo", before + after, proc.returncode, served)


def test_the_site_stays_served_after_the_night_until_ctrl_c(night_run: NightRun) -> None:
    status, body = night_run.served
    assert status == 200 and "<main" in body
    assert "demo encerrada (concluido)" in night_run.out  # the night ended by itself
    assert night_run.returncode == 0


# English a terminal line must not carry (third-party loggers, Python's own messages).
ENGLISH = re.compile(
    r"Traceback| the | of | is |running|instances|Error response|Execution of job|skipped|Processing audio|"
    r"VAD filter|INFO:|WARNING:|ERROR:|DEBUG:|Exception|Warning|apscheduler|faster_whisper|urllib3",
)


def _portuguese_terminal(out: str) -> list[str]:
    """Every line is ours: Portuguese (no English pattern) and at most TERMINAL_WIDTH characters.

    The width is the demo's text's, not the machine's: the summary names folders under the system's
    temporary folder, so that folder counts as "/tmp" whatever TMPDIR a runner sets."""
    lines = out.splitlines()
    assert lines
    temporaria = tempfile.gettempdir()
    for line in lines:
        assert not ENGLISH.search(line), line
        assert len(line.replace(temporaria, "/tmp")) <= TERMINAL_WIDTH, line
    return lines


def test_the_demos_terminal_is_portuguese_narrow_and_counts_the_readings(night_run: NightRun) -> None:
    """Issue 21: no APScheduler/faster-whisper line, no 400-character line, a reading counter."""
    lines = _portuguese_terminal(night_run.out)
    total = len(NIGHT_LEVELS)
    for reading in (1, 3, total):
        assert any(f"leitura {reading}/{total} · presidente: " in line for line in lines), reading
    assert (night_run.workspace / "demo.log").read_text(encoding="utf-8")  # the whole log is kept


def test_the_end_summary_says_where_to_run_the_audit_commands(night_run: NightRun) -> None:
    root = night_run.workspace / "raiz"
    latest = (root / "data" / "tse" / "6258" / "presidente" / "latest").read_text(encoding="utf-8").strip()
    summary = night_run.out.partition("demo encerrada")[2]
    assert f"cd {root}\n" in summary
    assert f"eleicoes auditar data/tse/6258/presidente/{latest}\n" in summary
    assert "git -C data log" in summary


def _night_outputs(night_run: NightRun) -> list[dict[str, object]]:
    race = night_run.workspace / "raiz" / "data" / "tse" / "6258" / "presidente"
    captures = sorted(p for p in race.iterdir() if p.is_dir() and not p.name.startswith("."))
    assert len(captures) == len(NIGHT_LEVELS)  # the whole night, one snapshot per capture
    return [json.loads((p / "saida.json").read_text(encoding="utf-8")) for p in captures]


def test_the_night_is_decided_mathematically_before_its_end(night_run: NightRun) -> None:
    """Issue 21: the leader's advantage exceeds the electorate not yet totalized at a reading
    before the last one, and the night ends with everything counted."""
    outputs = _night_outputs(night_run)
    decided = [bool(o["forecast"]["definido_matematicamente"]) for o in outputs]  # type: ignore[index]
    assert any(decided[:-1]) and decided[-1]
    assert not decided[0]
    assert outputs[-1]["apurado_pct"] == 100.0


def test_the_night_ends_with_a_publishable_projection(night_run: NightRun) -> None:
    outputs = _night_outputs(night_run)
    assert outputs[-1]["publicavel"] is True, outputs[-1]["criterios_nao_atendidos"]


# `python -m eleicoes demo` with one more job in the scheduler's list, one that never ends (a
# transcription or a request that hangs): the stop must abandon it, as the scheduler does.
STUCK_DEMO = """
import runpy, sys, threading
import scheduler

real_jobs = scheduler.default_jobs

def stuck() -> None:
    print("tarefa presa começou", flush=True)
    threading.Event().wait()

def with_stuck(*args, **kwargs):
    return [*real_jobs(*args, **kwargs), scheduler.Job("presa", 3600.0, stuck)]

scheduler.default_jobs = with_stuck
sys.argv = ["eleicoes", *sys.argv[1:]]
runpy.run_module("eleicoes", run_name="__main__")
"""


def test_a_job_stuck_at_ctrl_c_is_abandoned_with_the_schedulers_status(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", STUCK_DEMO, "demo", "--pasta", str(tmp_path / "demo"), "--porta", "0",
         "--sem-audio", "--passo-s", "600"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        _read_until(proc, "tarefa presa começou")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == scheduler.EXIT_ABANDONED
        assert proc.stdout is not None
        out = proc.stdout.read()
    finally:
        proc.kill()
        proc.wait()
    grace = scheduler.load_scheduler_config(tmp_path / "demo" / "raiz").espera_encerramento_s
    assert grace == STOP_GRACE_S  # the demo's configuration, which its runner was given
    assert "demo encerrada (sinal)." in out and "Traceback" not in out, out  # the documented end
    abandoned = re.search(rf"sem esperar (.+), que não terminou em {grace:g} s", out)
    saude = json.loads((tmp_path / "demo" / "raiz" / ".cache" / "agendador-saude.json").read_text())
    if abandoned is None:
        # So loaded a machine that the demo's own watchdog (the runner's grace plus a margin) ended
        # the process before the runner had said which job it abandoned: same status, same summary.
        assert "encerrando sem esperar por elas." in out, out
        assert saude["estado"] in ("abandonado", "encerrando"), saude
        return
    assert "presa" in abandoned.group(1).split(", "), out
    assert saude["estado"] == "abandonado"


ANY_JOB = "*"  # the watchdog ended the process: which jobs were in flight is not said


def _abandoned_jobs(status: int, out: str) -> list[str]:
    """The documented end of a demo stopped by one Ctrl+C: the summary, no traceback, and status 0
    once every job ended on its own, or 3 with the line naming the jobs that outlasted the grace
    period (a first TSE poll or a Whisper window on a loaded machine); those jobs."""
    assert "Traceback" not in out, out
    assert "sinal SIGINT recebido: encerrando (Ctrl+C de novo para sair já)" in out
    assert "demo encerrada (sinal)." in out
    abandoned = re.search(rf"sem esperar (.+), que não terminou em {STOP_GRACE_S:g} s", out)
    # On a loaded machine the demo's own watchdog may end the process first (after the summary).
    watchdog = "encerrando sem esperar por elas." in out
    assert status == (scheduler.EXIT_ABANDONED if abandoned or watchdog else 0), out
    if abandoned:
        return abandoned.group(1).split(", ")
    return [ANY_JOB] if watchdog else []


def test_ctrl_c_during_the_night_stops_the_demo(tmp_path: Path) -> None:
    proc = _start_demo(tmp_path, "--sem-audio", "--passo-s", "600")  # a night of 90 minutes
    try:
        before = _read_until(proc, "Ctrl+C para parar")
        proc.send_signal(signal.SIGINT)
        after = proc.communicate(timeout=120)[0]
    finally:
        proc.kill()
        proc.wait()
    _abandoned_jobs(proc.returncode, before + after)


# The demo's default, audio on, with the night stepped once per poll: every segment of the generated
# debate is out at once, a backlog for real faster-whisper (base) to transcribe.
AUDIO_BACKLOG = ("--passos", "100")  # the night ends after its 9 captures, not by this limit
TRANSCRIBING = "transcrição iniciada"


def _debates_hold_valid_json(workspace: Path) -> Path:
    """Every JSON file of the demo's debates parses, and so does every transcript line; the folder."""
    debates = workspace / "raiz" / "data" / "debates"
    files = [*debates.rglob("*.json"), *debates.rglob("*.jsonl")]
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        for document in text.splitlines() if path.suffix == ".jsonl" else [text]:
            json.loads(document)
    return debates


def _interrupt_while_transcribing(tmp_path: Path, twice: bool) -> tuple[int, str, str]:
    """Run the audio demo with a backlog, Ctrl+C (twice: again once the first is acknowledged)
    as soon as Whisper starts; its exit status and output before and after the first signal."""
    proc = _start_demo(tmp_path, *AUDIO_BACKLOG)
    try:
        before = _read_until(proc, TRANSCRIBING)
        proc.send_signal(signal.SIGINT)
        if twice:
            # Once the first is handled (a second signal sent sooner could merge with it), while
            # Whisper is still on the window it had just started.
            before += _read_until(proc, "sinal SIGINT recebido")
            proc.send_signal(signal.SIGINT)
        after = proc.communicate(timeout=120)[0]
    finally:
        proc.kill()
        proc.wait()
    return proc.returncode, before, after


def test_ctrl_c_while_the_audio_debate_is_transcribed_stops_the_demo(tmp_path: Path) -> None:
    """Issue 17: Ctrl+C while real faster-whisper works through the debate's backlog. The
    transcription stops after the window in hand (what it transcribed is kept), the process exits
    with the documented status and message, and every debate file is whole. No clock: the timeout
    is a hang guard; benchmarks/demo_stop_bench.py measures the time."""
    returncode, before, after = _interrupt_while_transcribing(tmp_path, twice=False)
    out = before + after
    _portuguese_terminal(out)  # faster-whisper's and APScheduler's lines went to the log file
    abandoned = _abandoned_jobs(returncode, out)
    debates = _debates_hold_valid_json(tmp_path / "demo")
    # The debate airs inside the night: a scoreboard the engine wrote is stamped on the night's
    # clock (the site server's Date), never on today's.
    placar = debates / "demo-audio" / "placar.json"
    if placar.exists():
        stamped = dt.datetime.fromisoformat(json.loads(placar.read_bytes())["atualizado_em"])
        night_end = NIGHT_START + dt.timedelta(minutes=NIGHT_STEP_MIN * len(NIGHT_LEVELS))
        assert NIGHT_START <= stamped < night_end + dt.timedelta(hours=1)  # the step in hand, plus real time
    if {"debate", ANY_JOB} & set(abandoned):  # so loaded a machine that the window outlasted the grace
        return
    # The cooperative stop: the job ended on its own, after saving the window it had started.
    assert "debate demo-audio: " in after and "transcrição interrompida pelo encerramento" in after
    audio = debates / "demo-audio"
    state = json.loads((audio / "audio" / "estado.json").read_text(encoding="utf-8"))
    released = len(list((tmp_path / "demo" / "segmentos-gerados").glob("*.wav")))
    assert 0 < list(state["seqs"].values()).count("processado") < released
    assert (audio / "transcricao.jsonl").read_text(encoding="utf-8").strip()  # the window's words
    assert not list(debates.rglob("*.tmp"))  # every write finished (atomic: temp file, rename)
    assert (audio / "placar.json").is_file()  # the engine ran on the window's words


def test_a_second_ctrl_c_while_transcribing_exits_at_once(tmp_path: Path) -> None:
    """The second Ctrl+C does not wait for the window in hand: status 130, and the debate files
    are whole (each is written to a temporary file and renamed)."""
    returncode, before, after = _interrupt_while_transcribing(tmp_path, twice=True)
    out = before + after
    assert returncode == INTERRUPTED_STATUS, out
    assert "segundo Ctrl+C: encerrando agora." in after
    assert "Traceback" not in out
    _debates_hold_valid_json(tmp_path / "demo")
