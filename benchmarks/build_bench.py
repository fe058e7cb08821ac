"""Site build benchmark: a synthetic site of 10,000 Markdown pages (fact-checks).

Measures a cold build, a rebuild with nothing changed and a rebuild with one page changed
(median of several runs each) and records them in docs/PERFORMANCE.md.

    python benchmarks/build_bench.py [--paginas 10000] [--rodadas 3]

With `--memoria`, measures instead the peak memory of cold builds of 16,000 pages, each in a
process of its own (`ru_maxrss` of the build process and of its largest worker), and its speed;
`--antes REV` runs the same builds with the builder of git revision REV, side by side:

    python benchmarks/build_bench.py --memoria [--paginas 16000] [--antes REV]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import median, write_section  # noqa: E402
from site_builder.build import build_site  # noqa: E402

VERDICTS = ("verdadeiro", "impreciso", "enganoso", "falso", "sem_dados")
BODY = """## O que foi dito

A candidata fictícia número {i} afirmou em vídeo que o indicador {i} cresceu {pct}% no último ano,
citando dados oficiais. A publicação teve grande alcance e foi compartilhada por apoiadores.

## O que os dados mostram

| Ano | Valor | Variação |
|---|---|---|
| 2024 | {a} | — |
| 2025 | {b} | {pct}% |

Os números conferem em parte: *o aumento existe*, mas a comparação usa uma base diferente da
citada. Veja a [metodologia](/metodologia/) e a lista de [checagens](/checagens/).

- Fonte 1: painel público do órgão responsável, consultado em outubro de 2026.
- Fonte 2: relatório anual publicado pelo mesmo órgão.

## Conclusão

A afirmação {i} recebeu o veredito indicado acima depois de revisão por duas pessoas da redação.
"""


def make_site(root: Path, pages: int) -> float:
    """A project with the repository's templates and content plus `pages` synthetic checks;
    returns the mean size in bytes of a synthetic page file."""
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "content", root / "content")
    checks = root / "content" / "checagens"
    total = 0
    for i in range(pages):
        day = 1 + i % 28
        text = (
            "+++\n"
            f'id = "bench-{i:05d}"\nslug = "bench-{i:05d}"\n'
            f'afirmacao = "Afirmação sintética número {i} sobre um indicador público."\n'
            f'veredito = "{VERDICTS[i % 5]}"\ncandidato = "{("helena-prado", "rui-amaral")[i % 2]}"\n'
            'status = "publicada"\nautor = "fernanda-lima"\nrevisor = "carla-menezes"\n'
            f"publicado_em = 2026-10-{day:02d}T{i % 24:02d}:{i % 60:02d}:00-03:00\ndemonstracao = true\n"
            '\n[[fontes]]\nurl = "https://www.ibge.gov.br/"\ntitulo = "IBGE"\nacessado_em = 2026-09-30\n'
            f'\n[[ocorrencias]]\nurl = "https://redes.example/p/{i}"\nplataforma = "instagram"\n'
            f'data = 2026-09-30T12:00:00-03:00\narquivo = "data/redes/bench/{i}.warc.gz"\nalcance = {i}\n'
            '\n[[historico]]\ntipo = "enviada"\ndata = 2026-09-30T13:00:00-03:00\npessoa = "fernanda-lima"\n'
            '\n[[historico]]\ntipo = "aprovada"\ndata = 2026-09-30T14:00:00-03:00\npessoa = "carla-menezes"\n'
            "+++\n\n" + BODY.format(i=i, pct=i % 40, a=1000 + i, b=1000 + i + i % 40)
        )
        total += (checks / f"bench-{i:05d}.md").write_bytes(text.encode("utf-8"))
    return total / max(pages, 1)


def timed(root: Path, out: Path) -> tuple[float, int]:
    """Seconds of one build and the number of outputs it rendered."""
    started = time.perf_counter()
    report = build_site(root, out)
    seconds = time.perf_counter() - started
    refused = [a for a in report.avisos if "bench-" in a]
    if refused:  # a figure for a site whose synthetic pages were refused would measure the wrong thing
        raise SystemExit(f"build_bench: {len(refused)} páginas sintéticas recusadas: {refused[0]}")
    return seconds, len(report.renderizados)


# Run in a fresh interpreter: the builder of `repo`, one cold build, figures as JSON on stdout.
CHILD = """
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from site_builder.build import build_site
started = time.perf_counter()
report = build_site(Path(sys.argv[2]), Path(sys.argv[3]))
seconds = time.perf_counter() - started
own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "segundos": seconds,
    "renderizados": len(report.renderizados),
    "rss_kib": own.ru_maxrss,
    "rss_worker_kib": workers.ru_maxrss,
    "cpu_s": own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime,
}))
"""


def measured_build(repo: Path, root: Path, out: Path) -> dict[str, float]:
    """One cold build of `root` by the builder in `repo`, in a process of its own."""
    shutil.rmtree(root / ".cache", ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(repo), str(root), str(out)],
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def builder_at(revision: str, folder: Path) -> Path:
    """The repository as of git `revision` (the builder and what it imports), unpacked into `folder`."""
    command = ["git", "-C", str(REPO), "archive", "--format=tar", revision]
    tar = subprocess.run(command, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(folder, filter="data")
    return folder


def memory(args: argparse.Namespace) -> None:
    """Peak memory and speed of cold builds, each in a fresh process (and before/after a change)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site"
        mean_size = make_site(root, args.paginas)
        builders = [("atual", REPO)]
        if args.antes:
            builders.insert(0, (f"antes ({args.antes})", builder_at(args.antes, Path(tmp) / "antes")))
        runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in builders}
        for _ in range(args.rodadas):  # alternated, so a change in the machine's load hits both alike
            for name, repo in builders:
                runs[name].append(measured_build(repo, root, Path(tmp) / "public"))
    load = os.getloadavg()[0]
    lines = [
        f"Cold builds of a synthetic site of {args.paginas:,} Markdown fact-check pages "
        f"({mean_size / 1024:.1f} KiB each on average) plus the repository's own content; each build in "
        f"a fresh process running `build_site` (2 Markdown workers); {args.rodadas} runs per builder, "
        "alternated; peak resident memory (`ru_maxrss`) is the largest of the runs, time the median. "
        "CPU = user + system seconds of the build process and its workers, less sensitive to the "
        f"machine's load than the wall time. 1-minute load average at the end: {load:.1f}.",
        "",
        "| Builder | Outputs | Peak RSS, build process | Peak RSS, largest worker | Wall time | Pages/s "
        "| CPU | Target |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, figures in runs.items():
        seconds = median([f["segundos"] for f in figures])
        rendered = int(figures[-1]["renderizados"])
        lines.append(
            f"| {name} | {rendered:,} | {max(f['rss_kib'] for f in figures) / 1024:.0f} MiB "
            f"| {max(f['rss_worker_kib'] for f in figures) / 1024:.0f} MiB | {seconds:.1f} s "
            f"| {rendered / seconds:,.0f} | {median([f['cpu_s'] for f in figures]):.1f} s | ≤ 250 MB |"
        )
    body = "\n".join(lines)
    print(body)
    if not args.sem_registro:
        write_section("Site build: peak memory", "python benchmarks/build_bench.py --memoria", body)


def main() -> None:
    """Run the benchmark and record the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--paginas", type=int, default=None, help="10.000 (16.000 com --memoria)")
    parser.add_argument("--rodadas", type=int, default=3)
    parser.add_argument("--memoria", action="store_true", help="pico de memória de builds a frio")
    parser.add_argument("--antes", help="revisão git do construtor a comparar (com --memoria)")
    parser.add_argument("--sem-registro", action="store_true", help="não grava docs/PERFORMANCE.md")
    args = parser.parse_args()
    if args.memoria:
        args.paginas = args.paginas or 16_000
        memory(args)
        return
    args.paginas = args.paginas or 10_000
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site"
        mean_size = make_site(root, args.paginas)
        cold: list[float] = []
        rendered = 0
        for run in range(args.rodadas):
            seconds, rendered = timed(root, Path(tmp) / f"public-{run}")
            cold.append(seconds)
        out = Path(tmp) / "public-0"
        noop = [timed(root, out) for _ in range(args.rodadas + 2)]
        one: list[tuple[float, int]] = []
        page = root / "content" / "checagens" / "bench-00042.md"
        for run in range(args.rodadas + 2):
            page.write_text(page.read_text(encoding="utf-8") + f"\nAtualização {run}.\n", encoding="utf-8")
            one.append(timed(root, out))
    cold_s = median(cold)
    rows = [
        ("Cold build", cold_s, rendered, f"{rendered / cold_s:,.0f} pages/s", "≥ 500 pages/s"),
        ("Rebuild, nothing changed", median([s for s, _ in noop]), noop[-1][1], "", "≤ 1.5 s"),
        ("Rebuild, one page changed", median([s for s, _ in one]), one[-1][1], "", "≤ 0.5 s"),
    ]
    lines = [
        f"Synthetic site: {args.paginas:,} Markdown fact-check pages ({mean_size / 1024:.1f} KiB each on "
        "average, front matter included) plus the "
        f"repository's own content; median of {args.rodadas} cold builds and {args.rodadas + 2} rebuilds.",
        "",
        "| Case | Median time | Outputs rendered | Throughput | Target |",
        "|---|---|---|---|---|",
        *(f"| {name} | {sec:.3f} s | {n:,} | {rate} | {target} |" for name, sec, n, rate, target in rows),
    ]
    body = "\n".join(lines)
    print(body)
    if not args.sem_registro:
        write_section("Site build", "python benchmarks/build_bench.py", body)


if __name__ == "__main__":
    main()
