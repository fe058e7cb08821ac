"""Benchmark of a post capture (fact-check desk): a 5 MB post served on loopback, captured whole.

The test `tests/redes/test_captura.py::test_five_megabyte_post_is_captured_whole` proves the post
is kept byte for byte and its claims found; how long that takes is this figure (median of 3
captures, each into a fresh project with the repository's candidates and checks, the claim memory
built before timing). Run from the repo root: `python benchmarks/captura_bench.py`.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.report import median, write_section  # noqa: E402
from jobs.checagens.captura import capturar  # noqa: E402
from jobs.checagens.configuracao import ConfigChecagens  # noqa: E402
from jobs.checagens.memoria import memoria_do_projeto  # noqa: E402
from tests.support.paginas import ServidorPaginas  # noqa: E402

RUNS = 3
PHRASE = "A cidade registrou 312 homicídios em 2024, segundo a secretaria. "


def main() -> int:
    """Measure, print and record the figure."""
    text = PHRASE * (5_000_000 // len(PHRASE) + 1)
    html = f"<html><head><title>Longo</title></head><body><article><p>{text}</p></article></body></html>"
    size = len(html.encode("utf-8"))
    config = ConfigChecagens(transcrever_videos=False)
    seconds: list[float] = []
    claims = 0
    with ServidorPaginas() as server, tempfile.TemporaryDirectory() as tmp:
        url = server.rota("/longo", html)
        for run in range(RUNS):
            project = Path(tmp) / f"projeto-{run}"
            shutil.copytree(ROOT / "content", project / "content")
            memory, _ = memoria_do_projeto(project, config)
            started = time.perf_counter()
            result = capturar(url, config, project, candidato="helena-prado", memoria=memory)
            seconds.append(time.perf_counter() - started)
            claims = len(result.afirmacoes)
    body = "\n".join(
        [
            "| case | size | claims found | runs | median | min | max |",
            "|---|---:|---:|---:|---:|---:|---|",
            f"| one post page, captured whole (HTML, text, WARC, claims, memory lookup) | "
            f"{size / 1e6:.1f} MB | {claims:,} | {RUNS} | {median(seconds):.2f} s | {min(seconds):.2f} s "
            f"| {max(seconds):.2f} s |",
        ]
    )
    print(body)
    write_section("Post capture", "python benchmarks/captura_bench.py", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
