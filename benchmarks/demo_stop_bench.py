"""Demo stop benchmark: how long `eleicoes demo` takes to exit after Ctrl+C while real faster-whisper
(base) transcribes the generated audio debate (issue 17: within 5 s).

Each round starts the demo as a user does (audio on, site served, a fresh workspace), with the night
stepped once per poll (`--passos`), so every segment of the debate is out at once: a backlog the
audio job would otherwise work through before stopping. When the log says transcription started, the
benchmark sends SIGINT and times until the process has exited. One more round sends a second SIGINT
as soon as the first is acknowledged and times that one.

    python benchmarks/demo_stop_bench.py [--rodadas 3] [--sem-registro]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import median, write_section  # noqa: E402

TARGET_S = 5.0
TRANSCRIBING = "transcrição iniciada"  # the scheduler's line once the Whisper model is loaded
ACKNOWLEDGED = "sinal SIGINT recebido"
DEMO = ["demo", "--porta", "0", "--passos", "100"]


@dataclass(frozen=True)
class Stop:
    """One measured stop: seconds from the (last) SIGINT to the process's exit, and what it left."""

    seconds: float
    status: int
    processed: int  # segments transcribed before the stop
    segments: int  # segments the recorder released


def _read_until(proc: subprocess.Popen[str], text: str) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        if text in line:
            return
    raise RuntimeError(f"a demo terminou sem escrever {text!r} (status {proc.wait()})")


def measure(workspace: Path, second: bool) -> Stop:
    """Start the demo, interrupt it while transcribing (twice with `second`), time the exit."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "eleicoes", *DEMO, "--pasta", str(workspace)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        _read_until(proc, TRANSCRIBING)
        start = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        if second:
            _read_until(proc, ACKNOWLEDGED)
            start = time.perf_counter()
            proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=600)
        seconds = time.perf_counter() - start
    finally:
        proc.kill()
        proc.wait()
    state_path = workspace / "raiz" / "data" / "debates" / "demo-audio" / "audio" / "estado.json"
    state = json.loads(state_path.read_text(encoding="utf-8")) if state_path.is_file() else {}
    processed = list(state.get("seqs", {}).values()).count("processado")
    segments = len(list((workspace / "segmentos-gerados").glob("*.wav")))
    return Stop(seconds, proc.returncode, processed, segments)


def _row(name: str, stops: Sequence[Stop]) -> str:
    seconds = [s.seconds for s in stops]
    statuses = ", ".join(str(s.status) for s in stops)
    left = ", ".join(f"{s.processed}/{s.segments}" for s in stops)
    return (
        f"| {name} | {len(stops)} | {median(seconds):.2f} s | {max(seconds):.2f} s | {statuses} | {left} "
        f"| ≤ {TARGET_S:g} s |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the rounds, print the table and record it in docs/PERFORMANCE.md."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rodadas", type=int, default=3, help="rodadas com um Ctrl+C (mediana)")
    parser.add_argument("--sem-registro", action="store_true", help="não grava docs/PERFORMANCE.md")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()  # the machine may be shared: the figures depend on what else runs
    with tempfile.TemporaryDirectory(prefix="demo-stop-bench-") as tmp:
        first = [measure(Path(tmp) / f"demo-{i}", second=False) for i in range(args.rodadas)]
        second = [measure(Path(tmp) / "demo-segundo", second=True)]
    load_after = os.getloadavg()
    body = (
        f"`eleicoes {' '.join(DEMO)}` (audio on: the generated debate, real faster-whisper base; the "
        "night stepped once per poll, so every segment is out at once and the audio job has a backlog); "
        f"SIGINT sent when the log says `{TRANSCRIBING}`. Time from the SIGINT (for the "
        "second Ctrl+C: from the second SIGINT, sent once the first was acknowledged) to the "
        f"process's exit. Load average (1 min / 5 min) {load_before[0]:.1f} / {load_before[1]:.1f} "
        f"before, {load_after[0]:.1f} / {load_after[1]:.1f} after.\n\n"
        "| Stop | Runs | Median | Max | Exit status | Segments transcribed / released | Target |\n"
        "|---|---|---|---|---|---|---|\n"
        f"{_row('Ctrl+C while transcribing', first)}\n"
        f"{_row('second Ctrl+C while transcribing', second)}\n\n"
        "Status 0: every job ended on its own (the audio job after the window in hand); 3: a job "
        "outlasted the 4 s grace period and was abandoned; 130: the second Ctrl+C.\n"
    )
    print(body)
    if not args.sem_registro:
        write_section(
            "Demo: Ctrl+C during transcription",
            f"python benchmarks/demo_stop_bench.py --rodadas {args.rodadas}",
            body,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
