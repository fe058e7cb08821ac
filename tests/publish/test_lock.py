"""The project lock: a manual build/publish and a scheduled one never overlap."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from site_builder import lock as lock_module
from site_builder.lock import LockBusyError, holder, project_lock

REPO = Path(__file__).resolve().parents[2]


def test_second_holder_waits_until_the_first_releases(tmp_path: Path) -> None:
    events: list[str] = []
    inside, release = threading.Event(), threading.Event()

    def first() -> None:
        with project_lock(tmp_path, "primeiro"):
            events.append("primeiro entrou")
            inside.set()
            release.wait(10)
            time.sleep(0.05)
            events.append("primeiro saiu")

    thread = threading.Thread(target=first)
    thread.start()
    inside.wait(10)
    waited: list[str] = []

    def on_wait(holder: str) -> None:
        waited.append(holder)
        release.set()

    with project_lock(tmp_path, "segundo", on_wait=on_wait):
        events.append("segundo entrou")
    thread.join()
    assert events == ["primeiro entrou", "primeiro saiu", "segundo entrou"]
    assert waited == [f"pid {os.getpid()} primeiro"]


class FakeTime:
    """Stands in for the lock module's `time`: sleeping advances a clock that nothing else moves."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_timeout_gives_up_with_a_portuguese_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from site_builder.lock import project_lock
        with project_lock(Path({str(tmp_path)!r}), "build agendado"):
            print("pronto", flush=True)
            time.sleep(30)
        """
    )
    other = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "pronto"
        clock = FakeTime()
        with monkeypatch.context() as patched:
            patched.setattr(lock_module, "time", clock)
            with pytest.raises(LockBusyError, match="build agendado"), project_lock(tmp_path, timeout_s=0.3):
                pass
        # It kept trying until the deadline, then gave up: 0.3 s of polls (to one poll's rounding).
        assert sum(clock.sleeps) == pytest.approx(0.3, abs=lock_module.POLL_S)
        assert holder(tmp_path).endswith("build agendado")
    finally:
        other.kill()
        other.wait()
    with project_lock(tmp_path, timeout_s=2):  # a killed holder never leaves the lock stuck
        pass
