"""Reading published -> visible on an open race page (issue 21), over a replayed night.

The real chain on loopback: the replay server steps through a synthetic runoff night; the polling
cycle stores the snapshot and runs the model; the incremental build writes the served folder (the
moment the reading is "published"); the project's static server serves it; headless chromium keeps
the race page open at 390×844 with the real default poll interval (`site_builder.ao_vivo.INTERVALO_S`),
never reloaded. For each reading the figure is the time from the end of the build to the moment the
page shows that reading. Before each step the benchmark waits a pseudo-random part of the interval
(fixed seed), so readings land at every phase of the page's poll, as on a real night.

    python benchmarks/ao_vivo_bench.py [--sem-registro]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import write_section  # noqa: E402
from jobs.tse.config import config_tse  # noqa: E402
from jobs.tse.cycle import PollState, run_cycle  # noqa: E402
from jobs.tse.replay import make_server  # noqa: E402
from jobs.tse.synthetic import make_synthetic_night  # noqa: E402
from site_builder.ao_vivo import INTERVALO_S  # noqa: E402
from site_builder.build import build_site  # noqa: E402
from tests.support.navegador import Navegador  # noqa: E402
from tests.support.site_local import servir  # noqa: E402

LEVELS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
PAGE = "/projecao/6258-presidente/"
RACE = Path("data") / "tse" / "6258" / "presidente"
TARGET_S = INTERVALO_S + 5.0


def prepare(root: Path) -> tuple[Path, Path]:
    """A project root linked to this checkout's content and templates, and a synthetic night."""
    site = root / "raiz"
    (site / RACE.parent).mkdir(parents=True)
    for name in ("content", "templates"):
        (site / name).symlink_to(REPO / name, target_is_directory=True)
    night = root / "noite"
    make_synthetic_night(night, dt.datetime(2026, 10, 25, 20, 30, tzinfo=dt.UTC), LEVELS, 10.0)
    return site, night


def main() -> None:
    """Run the night and record the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sem-registro", action="store_true", help="não grava docs/PERFORMANCE.md")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    rng = random.Random(21)
    delays: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        site, night = prepare(Path(tmp))
        replay = make_server(night)
        replay.iniciar()
        try:
            raw = {
                "url_base": replay.url_base,
                "relogio": "servidor",
                "git": False,
                "requisicoes_por_segundo": 50,
                "rajada": 40,
                "corridas": [{"cargo": "presidente", "eleicao": "6258", "nivel": "uf"}],
            }
            config = config_tse(raw, site)
            state = PollState.criar(config)
            public = site / "public"
            run_cycle(config, state)
            build_site(site, public)
            with (
                servir(public) as base,
                Navegador(timeout_s=120) as browser,
                browser.aba(base + PAGE, 390, 844, mobile=True) as aba,
            ):
                for _ in LEVELS[1:]:
                    time.sleep(rng.uniform(0, INTERVALO_S))  # a random phase of the page's poll
                    request = urllib.request.Request(replay.url_base + "/_replay/avancar", method="POST")
                    urllib.request.urlopen(request, timeout=10).close()
                    run_cycle(config, state)
                    build_site(site, public)
                    published = time.monotonic()
                    name = (site / RACE / "latest").read_text(encoding="utf-8").strip()
                    aba.esperar(
                        "document.querySelector('[data-campo=\"atualizado\"]').dataset.leitura"
                        f" === {json.dumps(name)}",
                        limite_s=INTERVALO_S * 4,
                    )
                    delays.append(time.monotonic() - published)
                    print(f"{name}: visível {delays[-1]:.2f} s depois de publicada", flush=True)
        finally:
            replay.parar()
    median, worst = statistics.median(delays), max(delays)
    body = "\n".join(
        [
            f"Synthetic runoff night, {len(delays)} readings after the first: poll + model + incremental "
            "build of the real content into the served folder, the project's static server, headless "
            "chromium at 390×844 with the page open all night, never reloaded, poll interval "
            f"{INTERVALO_S} s (the default). Each reading lands at a pseudo-random phase of the poll "
            "(seed 21). "
            f"1-minute load average at the end: {os.getloadavg()[0]:.1f}.",
            "",
            "| Reading published → visible on the open page | Time |",
            "|---|---|",
            f"| Median | **{median:.2f} s** (target ≤ {TARGET_S:g} s = poll interval + 5 s) |",
            f"| Worst | {worst:.2f} s |",
            f"| Best | {min(delays):.2f} s |",
        ]
    )
    print(body)
    if not args.sem_registro:
        write_section("Open race page follows the night", "python benchmarks/ao_vivo_bench.py", body)


if __name__ == "__main__":
    main()
