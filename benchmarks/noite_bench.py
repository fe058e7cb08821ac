"""End-to-end benchmark: from a new TSE reading to the changed objects in the bucket.

The real chain on loopback: the replay server (in this process) steps to the next capture of a
synthetic runoff night; the polling job fetches the president's 28 parts plus a governor runoff by
municipality, writes the snapshot and runs the model; the incremental build renders the affected
pages; the publisher uploads what changed to moto's S3 server (its own process). The first
capture is a warm-up (it publishes the whole site); the figures are the following captures.

    python benchmarks/noite_bench.py [--sem-registro]
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.publish_bench import free_port, start_moto  # noqa: E402
from benchmarks.report import write_section  # noqa: E402
from jobs.publish.config import PublishConfig  # noqa: E402
from jobs.publish.publisher import publicar  # noqa: E402
from jobs.publish.targets import boto3_client, open_target  # noqa: E402
from jobs.tse.config import config_tse  # noqa: E402
from jobs.tse.cycle import PollState, run_cycle  # noqa: E402
from jobs.tse.replay import make_server  # noqa: E402
from jobs.tse.synthetic import make_synthetic_night  # noqa: E402
from site_builder.build import build_site  # noqa: E402

TARGET_S = 3.0
LEVELS = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def prepare(root: Path) -> Path:
    """A project root linked to this checkout's content and templates, and a synthetic night."""
    site = root / "raiz"
    (site / "data" / "tse").mkdir(parents=True)
    for name in ("content", "templates"):
        (site / name).symlink_to(REPO / name, target_is_directory=True)
    night = root / "noite"
    make_synthetic_night(night, dt.datetime(2026, 10, 25, 20, 30, tzinfo=dt.UTC), LEVELS, 10.0, ("es",))
    return night


def main() -> None:
    """Run the chain over a night and record the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sem-registro", action="store_true", help="não grava docs/PERFORMANCE.md")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    port = free_port()
    moto = start_moto(port)
    rows: list[tuple[float, float, float, float, int]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            night = prepare(Path(tmp))
            site = Path(tmp) / "raiz"
            replay = make_server(night)
            replay.iniciar()
            raw = {
                "url_base": replay.url_base,
                "relogio": "servidor",
                "git": False,
                "requisicoes_por_segundo": 50,
                "rajada": 40,
                "corridas": [
                    {"cargo": "presidente", "eleicao": "6258", "nivel": "uf"},
                    {"cargo": "governador", "eleicao": "6260", "ufs": ["es"], "nivel": "municipio"},
                ],
            }
            config = config_tse(raw, site)
            state = PollState.criar(config)
            publish = PublishConfig(
                destino="s3", endpoint=f"http://127.0.0.1:{port}", bucket="noite", estado=Path(tmp) / "pub"
            )
            boto3_client("s3", publish, publish.endpoint).create_bucket(Bucket="noite")
            target = open_target(publish)
            try:
                for step in range(len(LEVELS)):
                    if step:
                        replay.estado.avancar()
                    t0 = time.perf_counter()
                    cycle = run_cycle(config, state)
                    t1 = time.perf_counter()
                    build_site(site, site / "public")
                    t2 = time.perf_counter()
                    report = publicar(publish, site / "public", destino=target)
                    t3 = time.perf_counter()
                    assert cycle.alterado, cycle.linhas()
                    if step:  # the first capture publishes the whole site: a warm-up
                        rows.append((t1 - t0, t2 - t1, t3 - t2, t3 - t0, len(report.enviados)))
            finally:
                replay.parar()
    finally:
        moto.terminate()
        moto.wait(10)

    def med(i: int) -> float:
        return statistics.median(r[i] for r in rows)

    worst = max(r[3] for r in rows)
    body = "\n".join(
        [
            f"Synthetic runoff night, {len(rows)} captures after a warm-up: president by UF (28 parts) and "
            "ES governor by municipality (78 parts) from the replay server; snapshot + model; incremental "
            "build of the real content; publish to moto's S3 server (own process) on 127.0.0.1. "
            f"1-minute load average at the end: {os.getloadavg()[0]:.1f}.",
            "",
            "| Step (median) | Time |",
            "|---|---|",
            f"| Poll + snapshot + model | {med(0):.3f} s |",
            f"| Incremental build | {med(1):.3f} s |",
            f"| Publish (changed objects only, median {statistics.median(r[4] for r in rows):.0f}) "
            f"| {med(2):.3f} s |",
            f"| **New reading to bucket** | **{med(3):.3f} s** "
            f"(worst {worst:.3f} s; target < {TARGET_S:g} s) |",
        ]
    )
    print(body)
    if not args.sem_registro:
        write_section("Election night end to end", "python benchmarks/noite_bench.py", body)


if __name__ == "__main__":
    main()
