"""APScheduler entry point: which job runs when; nothing else.

`python scheduler.py` runs the jobs of this checkout in one process until SIGTERM/SIGINT.
"""

from __future__ import annotations

import logging
from pathlib import Path

from apscheduler.schedulers.blocking import BlockingScheduler

from site_builder.build import build_site
from site_builder.errors import BuildError

BUILD_EVERY_S = 60
log = logging.getLogger("eleicoes.scheduler")


def rebuild_site() -> None:
    """Incremental build of `public/`; a failed build keeps the last good site and is logged."""
    try:
        report = build_site(Path.cwd(), Path("public"))
    except BuildError as exc:
        log.error("build falhou, site anterior mantido: %s", exc)
        return
    log.info("build: %s", report.resumo())


def make_scheduler() -> BlockingScheduler:
    """The scheduler with every job and its cadence; one instance of each job at a time."""
    scheduler = BlockingScheduler(timezone="UTC")
    scheduler.add_job(
        rebuild_site,
        "interval",
        seconds=BUILD_EVERY_S,
        id="build",
        max_instances=1,
        coalesce=True,
        misfire_grace_time=BUILD_EVERY_S,
    )
    return scheduler


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    rebuild_site()
    make_scheduler().start()
