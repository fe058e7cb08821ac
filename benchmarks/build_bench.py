"""Site build benchmark: a synthetic site of 10,000 Markdown pages (fact-checks of ~600 words).

Measures, in CPU seconds of the build process and its workers (each build in a fresh process),
a cold build (no output, no build state, no cross-build cache), a cold output with warm caches
(output folder and build state dropped; `.cache/eleicoes-build/`'s conversions, checks as read,
rendered pages, listing rows, drawn images and compiled templates kept: a build after a crash, or a CI run
that restores only those caches) and Pelican's cold
build of the same pages, alternated round by round so that a change in the machine's load hits
all three alike; prints each with its ratio to Pelican's. Then the wall and CPU time of a rebuild
with nothing changed and with one page changed (median of several runs each, in this process,
with the load average after each case).
Records everything in docs/PERFORMANCE.md with the CPU model and the load.

    python benchmarks/build_bench.py [--paginas 10000] [--rodadas 3]

Pelican is a benchmark-only extra (`pip install -e '.[bench]'`); without it the peer column
stays empty. Pelican reads the same bodies with the same Markdown extensions as the site
(`site_builder.markdown_render.EXTENSIONS`; its `meta` extension reads the header) and renders
them with its default theme and settings (no pagination, its feeds), content cache off.

With `--memoria`, measures instead the peak memory of cold builds of 16,000 pages, each in a
process of its own (`ru_maxrss` of the build process and of its largest worker), and its speed;
`--antes REV` runs the same builds with the builder of git revision REV, side by side:

    python benchmarks/build_bench.py --memoria [--paginas 16000] [--antes REV]
"""

from __future__ import annotations

import argparse
import importlib.util
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

from benchmarks.report import filesystem, median, write_section  # noqa: E402
from site_builder import markdown_cache, unchanged  # noqa: E402
from site_builder.build import build_site, state_path  # noqa: E402
from site_builder.markdown_render import EXTENSIONS  # noqa: E402

VERDICTS = ("verdadeiro", "impreciso", "enganoso", "falso", "sem_dados")
BODY = """## O que foi dito

A candidata fictícia número {i} afirmou em vídeo que o indicador {i} cresceu {pct}% no último ano,
citando dados oficiais. A publicação teve grande alcance e foi compartilhada por apoiadores.
O trecho circulou em grupos de mensagens com uma imagem do gráfico original, sem a fonte, e
chegou à redação por três leitores diferentes, que pediram a verificação na mesma semana.

## O que os dados mostram

| Ano | Valor | Variação |
|---|---|---|
| 2024 | {a} | — |
| 2025 | {b} | {pct}% |

Os números conferem em parte: *o aumento existe*, mas a comparação usa uma base diferente da
citada. Veja a [metodologia](/metodologia/) e a lista de [checagens](/checagens/).

O painel público do órgão responsável mostra a série desde 2015, com revisões anuais feitas em
março. A última revisão mudou os valores de 2024 em menos de um ponto, e a variação citada
depende de qual das duas versões da série se usa. Com a versão revisada, o crescimento é menor
do que o afirmado; com a versão anterior, fica próximo do número do vídeo.

Os técnicos consultados explicaram que a diferença vem da mudança na forma de contar os
registros de municípios pequenos, que passaram a ser somados à média regional. A nota técnica
do órgão descreve a mudança e recomenda não comparar diretamente as duas séries.

- Fonte 1: painel público do órgão responsável, consultado em outubro de 2026.
- Fonte 2: relatório anual publicado pelo mesmo órgão.
- Fonte 3: nota técnica sobre a revisão da série, publicada em março.

## O contexto

O indicador é acompanhado por pesquisadores de universidades públicas e por organizações da
sociedade civil, que publicam análises trimestrais. Em todas as análises lidas pela redação, a
tendência de alta aparece, mas com intensidade menor do que a indicada na publicação. Os
especialistas ouvidos lembram que um único ano de dados não basta para afirmar uma tendência, e
que variações dessa ordem já ocorreram antes sem se manter nos anos seguintes.

A assessoria da candidata foi procurada por telefone e por mensagem, e respondeu que a fala se
baseou na versão anterior da série, então disponível no site do órgão. A resposta completa
está reproduzida abaixo, sem cortes, como prevê o método da redação.

A redação também comparou a fala com discursos anteriores da mesma candidata, em entrevistas e
debates do primeiro turno, e encontrou o mesmo número em duas ocasiões, sempre sem indicar a
fonte. Nas duas vezes a série revisada ainda não tinha sido publicada, o que ajuda a entender a
origem do dado, mas não muda o que a série oficial mostra hoje.

> A candidata usou os dados públicos disponíveis na data da gravação e reconhece que a série foi
> revisada depois. A campanha vai atualizar o material nas próximas publicações.

## Como checamos

1. Localizamos a publicação original e registramos uma cópia arquivada.
2. Baixamos as duas versões da série no painel do órgão e refizemos as contas.
3. Ouvimos dois especialistas sem vínculo com as campanhas.
4. Procuramos a assessoria da candidata e registramos a resposta.

Cada passo foi revisado por uma segunda pessoa da redação antes da publicação, e os arquivos
usados estão listados na seção de fontes desta página. Quem encontrar um erro pode pedir
correção pelo formulário indicado no rodapé.

## Conclusão

A afirmação {i} recebeu o veredito indicado acima depois de revisão por duas pessoas da redação.
O número citado existe em uma versão antiga dos dados, mas não na série oficial em vigor, e a
comparação feita no vídeo mistura bases diferentes. Por isso o veredito considera o contexto
da fala e não apenas o número isolado.
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


PELICAN_CONF = """
SITENAME = "Checagens (demonstração)"
SITEURL = ""
AUTHOR = "Redação"
TIMEZONE = "America/Sao_Paulo"
DEFAULT_LANG = "pt"
CACHE_CONTENT = False
LOAD_CONTENT_CACHE = False
MARKDOWN = {{
    "extension_configs": {{{extensions}, "markdown.extensions.meta": {{}}}},
    "output_format": "html",
}}
"""


def make_pelican_site(folder: Path, site: Path) -> None:
    """The synthetic checks of `site` as a Pelican project: the same body under a Markdown
    metadata header (title, date, slug, author, category), and a settings file."""
    content = folder / "content"
    content.mkdir(parents=True)
    extensions = ", ".join(f'"markdown.extensions.{name}": {{}}' for name in EXTENSIONS)
    (folder / "pelicanconf.py").write_text(PELICAN_CONF.format(extensions=extensions), encoding="utf-8")
    for path in sorted((site / "content" / "checagens").glob("bench-*.md")):
        text = path.read_text(encoding="utf-8")
        _start, header, body = text.split("+++\n", 2)
        meta = dict(line.split(" = ", 1) for line in header.split("[[", 1)[0].splitlines() if " = " in line)
        moment = meta["publicado_em"]
        (content / path.name).write_text(
            f"Title: {meta['afirmacao'].strip(chr(34))}\n"
            f"Date: {moment[:10]} {moment[11:16]}\n"
            f"Slug: {meta['slug'].strip(chr(34))}\n"
            f"Author: {meta['candidato'].strip(chr(34))}\n"
            "Category: checagens\n" + body,
            encoding="utf-8",
        )


# Run in a fresh interpreter: Pelican's own command line on one project, figures as JSON.
PELICAN_CHILD = """
import io, json, resource, sys, time
from contextlib import redirect_stdout
from pelican import main
started = time.perf_counter()
with redirect_stdout(io.StringIO()):
    main([sys.argv[1] + "/content", "-o", sys.argv[2], "-s", sys.argv[1] + "/pelicanconf.py", "-q"])
seconds = time.perf_counter() - started
own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "segundos": seconds,
    "rss_kib": own.ru_maxrss,
    "cpu_s": own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime,
}))
"""


def pelican_available() -> bool:
    """Whether the benchmark-only extra is installed."""
    return importlib.util.find_spec("pelican") is not None


def fresh_output(tmp: Path) -> Path:
    """A folder no build has written to, for one measured build's output.

    Nothing is deleted between measured builds (the folders go with `tmp` at the end): on an ext4
    without a journal, as this benchmark's machines have had, the kernel skips inodes freed in
    the last minute or more when it allocates one, looking each up in the buffer cache, so the
    thousands of files a build creates cost more system time right after thousands were deleted
    (`benchmarks/criacao_arquivos_bench.py` measures file creation on this machine). Deleting
    the last output just before each build would have charged that to the next builder."""
    parent = tmp / "saidas"
    parent.mkdir(exist_ok=True)
    return Path(tempfile.mkdtemp(dir=parent))


def _require_empty(out: Path) -> None:
    if any(out.iterdir()):  # a figure for a build into a used folder would measure the wrong thing
        raise SystemExit(f"build_bench: a saída {out} não está vazia")


def measured_pelican(project: Path, out: Path) -> dict[str, float]:
    """One cold Pelican build of `project` into `out` (a `fresh_output`), in a process of its own."""
    _require_empty(out)
    done = subprocess.run(
        [sys.executable, "-c", PELICAN_CHILD, str(project), str(out)],
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    figures["renderizados"] = sum(1 for p in out.rglob("*") if p.is_file())
    if not (
        out / "index.html"
    ).is_file():  # a figure for a site Pelican did not render would measure the wrong thing
        raise SystemExit(f"build_bench: o Pelican não gerou as páginas ({done.stderr[-500:]})")
    return figures


CPU_SECONDS: list[float] = []  # CPU time of each `timed` build, in order


SKIPPED: list[bool] = []  # whether each `timed` build found its inputs unchanged (`unchanged`)


def timed(root: Path, out: Path) -> tuple[float, int]:
    """Seconds of one build and the number of outputs it rendered."""
    started, cpu = time.perf_counter(), time.process_time()
    report = build_site(root, out)
    seconds = time.perf_counter() - started
    CPU_SECONDS.append(time.process_time() - cpu)  # this process's: a rebuild starts no worker
    SKIPPED.append(report.inalterado)
    refused = [a for a in [*report.avisos, *report.recusados] if "bench-" in a]
    if refused:  # a figure for a site whose synthetic pages were refused would measure the wrong thing
        raise SystemExit(f"build_bench: {len(refused)} páginas sintéticas recusadas: {refused[0]}")
    return seconds, len(report.renderizados)


# Run in a fresh interpreter: the builder of `repo`, one cold build, figures as JSON on stdout.
# The check cards are drawn in the build process: their CPU time is summed around the drawing
# function (where a cold build's time goes; Pelican draws none).
CHILD = """
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from site_builder.build import build_site
from site_builder import share_image
cards = [0.0, 0]
draw = getattr(share_image, "render_checagem_png", None)
def timed_draw(*args, **kwargs):
    started = time.process_time()
    try:
        return draw(*args, **kwargs)
    finally:
        cards[0] += time.process_time() - started
        cards[1] += 1
if draw is not None:
    share_image.render_checagem_png = timed_draw
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
    "cartoes_cpu_s": cards[0],
    "cartoes": cards[1],
}))
"""


def measured_build(repo: Path, root: Path, out: Path, *, warm_conversions: bool = False) -> dict[str, float]:
    """One build of `root` into `out` (a `fresh_output`: no output, and so no build state, which
    is kept per output folder) by the builder in `repo`, in a process of its own; with the
    cross-build caches of earlier builds if `warm_conversions`, else with none (a few pack files
    deleted)."""
    _require_empty(out)
    if warm_conversions:
        if not (state_path(root, out).parent / markdown_cache.FOLDER).is_dir():
            raise SystemExit("build_bench: não há cache de conversões para medir a saída fria com ele")
    else:
        shutil.rmtree(root / ".cache", ignore_errors=True)
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
    with tempfile.TemporaryDirectory(dir=args.pasta) as tmp:
        root = Path(tmp) / "site"
        mean_size = make_site(root, args.paginas)
        builders = [("atual", REPO)]
        if args.antes:
            builders.insert(0, (f"antes ({args.antes})", builder_at(args.antes, Path(tmp) / "antes")))
        runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in builders}
        for _ in range(args.rodadas):  # alternated, so a change in the machine's load hits both alike
            for name, repo in builders:
                runs[name].append(measured_build(repo, root, fresh_output(Path(tmp))))
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
        write_section("Site build: peak memory", command(args, 16_000, "--memoria"), body)


def main() -> None:
    """Run the benchmark and record the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--paginas", type=int, default=None, help="10.000 (16.000 com --memoria)")
    parser.add_argument("--rodadas", type=int, default=DEFAULT_ROUNDS)
    parser.add_argument("--memoria", action="store_true", help="pico de memória de builds a frio")
    parser.add_argument("--antes", help="revisão git do construtor a comparar (com --memoria)")
    parser.add_argument("--sem-registro", action="store_true", help="não grava docs/PERFORMANCE.md")
    parser.add_argument("--pasta", help="onde criar o site e as saídas (padrão: a pasta temporária)")
    parser.add_argument(
        "--reconstrucoes", action="store_true", help="só as reconstruções (sem builds a frio nem Pelican)"
    )
    args = parser.parse_args()
    if args.reconstrucoes:
        args.paginas = args.paginas or 10_000
        only_rebuilds(args)
        return
    if args.memoria:
        args.paginas = args.paginas or 16_000
        memory(args)
        return
    args.paginas = args.paginas or 10_000
    with tempfile.TemporaryDirectory(dir=args.pasta) as tmp:
        root = Path(tmp) / "site"
        mean_size = make_site(root, args.paginas)
        load_before = os.getloadavg()[0]
        peers = compare(root, Path(tmp), args.rodadas)
        rebuild_rows = rebuilds(root, fresh_output(Path(tmp)), args.rodadas + 2)
        where = f"{Path(tmp).parent} ({filesystem(Path(tmp))})"
    load_after = os.getloadavg()[0]
    body = "\n".join(
        [
            f"Synthetic site: {args.paginas:,} Markdown fact-check pages ({WORDS} words of body, "
            f"{mean_size / 1024:.1f} KiB per file with its front matter) plus the repository's own content, "
            f"site and outputs in {where}. "
            f"1-minute load average of the (shared, {os.cpu_count()}-core) machine: {load_before:.1f} at the "
            f"start, {load_after:.1f} at the end.",
            "",
            *peers,
            "",
            *rebuild_rows,
        ]
    )
    print(body)
    if not args.sem_registro:
        # A run in another folder (`--pasta`, say a tmpfs) is a section of its own beside the default's.
        name = "Site build" if args.pasta is None else f"Site build in {args.pasta}"
        write_section(name, command(args, 10_000), body)


def only_rebuilds(args: argparse.Namespace) -> None:
    """The rebuild figures alone, in a section of their own (a quick rerun after a change)."""
    with tempfile.TemporaryDirectory(dir=args.pasta) as tmp:
        root = Path(tmp) / "site"
        make_site(root, args.paginas)
        load_before = os.getloadavg()[0]
        rows = rebuilds(root, fresh_output(Path(tmp)), args.rodadas + 2)
    load_after = os.getloadavg()[0]
    body = "\n".join(
        [
            f"Synthetic site: {args.paginas:,} Markdown fact-check pages, as in the section above. "
            f"1-minute load average of the (shared, {os.cpu_count()}-core) machine: {load_before:.1f} "
            f"at the start, {load_after:.1f} at the end.",
            "",
            *rows,
        ]
    )
    print(body)
    if not args.sem_registro:
        write_section("Site build: rebuilds", command(args, 10_000, "--reconstrucoes"), body)


def command(args: argparse.Namespace, default_pages: int, *flags: str) -> str:
    """The command line that reproduces this run (its options that differ from the defaults)."""
    words = ["python benchmarks/build_bench.py", *flags]
    if args.paginas != default_pages:
        words.append(f"--paginas {args.paginas}")
    if args.rodadas != DEFAULT_ROUNDS:
        words.append(f"--rodadas {args.rodadas}")
    if args.pasta:
        words.append(f"--pasta {args.pasta}")
    return " ".join(words)


DEFAULT_ROUNDS = 3
WORDS = len(BODY.split())

# What each case drops before its build, in a process of its own.
COLD = "Cold build (no output, state or cross-build cache)"
WARM = "Cold output, warm caches (output and build state dropped, cross-build caches kept)"
PELICAN = "Pelican, cold build of the same pages"


def compare(root: Path, tmp: Path, rounds: int) -> list[str]:
    """CPU seconds of the cold cases and of Pelican, alternated round by round; the table."""
    pelican_project = tmp / "pelican"
    has_pelican = pelican_available()
    if has_pelican:
        make_pelican_site(pelican_project, root)
    runs: dict[str, list[dict[str, float]]] = {COLD: [], WARM: [], PELICAN: []}
    ratios: dict[str, list[float]] = {COLD: [], WARM: []}
    for number in range(rounds):
        order = [COLD, WARM, PELICAN] if number % 2 == 0 else [PELICAN, COLD, WARM]
        this_round: dict[str, dict[str, float]] = {}
        for case in order:
            if case == PELICAN:
                if has_pelican:
                    this_round[case] = measured_pelican(pelican_project, fresh_output(tmp))
            else:  # WARM always right after COLD: the conversion cache it finds is that build's
                warm = case == WARM
                this_round[case] = measured_build(REPO, root, fresh_output(tmp), warm_conversions=warm)
        for case, figures in this_round.items():
            runs[case].append(figures)
            print(f"rodada {number + 1}: {case}: {figures['cpu_s']:.2f} s de CPU", file=sys.stderr)
        if PELICAN in this_round:
            for case in ratios:
                ratios[case].append(this_round[case]["cpu_s"] / this_round[PELICAN]["cpu_s"])
    pages = len(list((root / "content" / "checagens").glob("bench-*.md")))
    lines = [
        f"Each build in a fresh process; CPU = user + system seconds of the process and its workers "
        f"(children); median of {rounds} rounds, the cases alternated within each round. Ratio = this "
        "case's CPU over Pelican's in the same round (median of the rounds"
        + ("" if has_pelican else "; Pelican not installed: `pip install -e '.[bench]'`")
        + ").",
        "",
        "| Case | Outputs | CPU | Pages per CPU-second | Wall time | Ratio to Pelican (CPU) | Target |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    targets = {COLD: "≤ 0.6×", WARM: "≤ 0.25×", PELICAN: ""}
    for case, measured in runs.items():
        if not measured:
            continue
        cpu = median([f["cpu_s"] for f in measured])
        outputs = int(measured[-1]["renderizados"])
        ratio = f"{median(ratios[case]):.2f}×" if ratios.get(case) else ("1" if case == PELICAN else "")
        wall = median([f["segundos"] for f in measured])
        line = (
            f"| {case} | {outputs:,} | {cpu:.1f} s | {pages / cpu:,.0f} | {wall:.1f} s | {ratio} "
            f"| {targets[case]} |"
        )
        lines.append(line)
        print(line, file=sys.stderr)
    cold = runs[COLD]
    cards = median([f["cartoes_cpu_s"] for f in cold])
    drawn = int(cold[-1]["cartoes"])
    lines += [
        "",
        f"What a check page costs includes its share image: the cold build drew {drawn:,} check cards "
        f"(1200×630 PNG), {cards:.1f} s of its CPU ({cards / median([f['cpu_s'] for f in cold]):.0%}; "
        f"{1000 * cards / max(drawn, 1):.1f} ms per card, timed around the drawing function in the "
        "build process). Pelican draws none. The cold output with a warm cache takes them from the "
        "builder's image cache.",
    ]
    pelican_rounds = list(zip(cold, runs[PELICAN], strict=False))  # the same rounds, in order
    if pelican_rounds:
        without = median([(c["cpu_s"] - c["cartoes_cpu_s"]) / p["cpu_s"] for c, p in pelican_rounds])
        lines.append(
            f"Without the card drawing (cold CPU less the cards' CPU, same rounds) the cold build is "
            f"{without:.2f}× Pelican's CPU."
        )
    return lines


def rebuilds(root: Path, out: Path, runs: int) -> list[str]:
    """Wall and CPU time of rebuilds after a cold build into `out`, in this process; the table."""
    shutil.rmtree(root / ".cache", ignore_errors=True)
    timed(root, out)
    noop = [timed(root, out) for _ in range(runs)]
    noop_cpu, noop_skipped = CPU_SECONDS[-runs:], sum(SKIPPED[-runs:])
    first_full = (
        " (the content was written just before the cold build, too recently to be trusted, `RACY_NS`: "
        "the first rebuild after it was a full pass)"
        if SKIPPED[-runs:] == [False] + [True] * (runs - 1)
        else ""
    )
    noop_load = os.getloadavg()[0]
    record = state_path(root, out) / unchanged.RECORD
    full: list[tuple[float, int]] = []
    for _ in range(runs):
        record.unlink(missing_ok=True)  # the cost when anything else changed (the live pages' data)
        full.append(timed(root, out))
    full_cpu = CPU_SECONDS[-runs:]
    full_load = os.getloadavg()[0]
    one: list[tuple[float, int]] = []
    page = root / "content" / "checagens" / "bench-00042.md"
    for run in range(runs):
        # An edit the site publishes: a changed explanation with its public correction (without
        # one the correction rule refuses the check, and its old page stays: nothing is rendered).
        head, body = page.read_text(encoding="utf-8").rsplit("+++\n", 1)
        correction = (
            f'[[correcoes]]\ndata = 2026-11-{run + 1:02d}T10:00:00-03:00\nexplicacao = "Atualização {run}."\n'
        )
        page.write_text(f"{head}{correction}+++\n{body}\nAtualização {run}.\n", encoding="utf-8")
        seconds, rendered = timed(root, out)
        if rendered == 0:  # a figure for an edit the build refused would measure the wrong thing
            raise SystemExit("build_bench: a página alterada não foi refeita")
        one.append((seconds, rendered))
    one_cpu = CPU_SECONDS[-runs:]
    one_load = os.getloadavg()[0]
    return [
        f"Rebuilds after a cold build, in this process: median wall time of {runs} runs each, and the "
        "median CPU time of this process (less sensitive to the machine's load than the wall time); "
        "load = 1-minute load average right after the case's runs. With nothing changed, a rebuild "
        "finds its inputs as the last clean build recorded them and reads nothing else "
        f"(`site_builder/unchanged.py`): {noop_skipped} of the {runs} runs did{first_full}. The full "
        "pass row drops that record before each run: the pass every rebuild makes when any input "
        "changed (the live pages' data, say), before it renders what changed.",
        "",
        "| Case | Median time | Median CPU | Load | Outputs rendered | Target |",
        "|---|---:|---:|---:|---:|---|",
        f"| Rebuild, nothing changed | {median([s for s, _ in noop]):.3f} s | {median(noop_cpu):.3f} s "
        f"| {noop_load:.1f} | {noop[-1][1]:,} | ≤ 0.4 s |",
        f"| Rebuild, nothing changed, full pass | {median([s for s, _ in full]):.3f} s "
        f"| {median(full_cpu):.3f} s | {full_load:.1f} | {full[-1][1]:,} | — |",
        f"| Rebuild, one page changed | {median([s for s, _ in one]):.3f} s | {median(one_cpu):.3f} s "
        f"| {one_load:.1f} | {one[-1][1]:,} | ≤ 0.4 s |",
    ]


if __name__ == "__main__":
    main()
