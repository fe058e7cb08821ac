"""The scheduler entry point: one instance of each job at a time, and a failed build never raises."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import scheduler


def test_build_job_is_single_instance_and_coalesced() -> None:
    sched = scheduler.make_scheduler()
    job = sched.get_job("build")
    assert job is not None
    assert job.max_instances == 1
    assert job.coalesce is True
    assert job.misfire_grace_time == scheduler.BUILD_EVERY_S


def test_failed_build_is_logged_and_keeps_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "site.toml").write_text("titulo = [", encoding="utf-8")
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / "index.html").write_text("site anterior", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.ERROR):
        scheduler.rebuild_site()
    assert "build falhou, site anterior mantido" in caplog.text
    assert (tmp_path / "public" / "index.html").read_text(encoding="utf-8") == "site anterior"
