"""Content-file bound benchmark (issue 22, item 6): what a pathological check body costs before
and after the linear pre-scan (`site_builder.conteudo.texto_seguro.conversao_excessiva`).

Measures, in this process: Python-Markdown converting a body of 8,500 unbalanced `[` with the
bound bypassed (the cause: quadratic link scans); `validar` of one check whose body is 8,500 and
30,000 `[` (refused by the bound); a cold `build` of the fixture site holding such a check, strict
(refused) and default (the check left out); and the slowest conversion of a body just under each
limit (the worst a body that passes can cost). Records the figures in docs/PERFORMANCE.md.

    python benchmarks/conteudo_bench.py [--sem-antes]
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import write_section  # noqa: E402
from jobs.checagens.validar import validar  # noqa: E402
from site_builder import markdown_render  # noqa: E402
from site_builder.build import build_site  # noqa: E402
from site_builder.conteudo import texto_seguro  # noqa: E402
from site_builder.conteudo.frontmatter import split_front_matter  # noqa: E402
from site_builder.errors import BuildError  # noqa: E402

FIXTURE = REPO / "tests/fixtures/site_minimo"
VALIDA = REPO / "tests/fixtures/checagens/valida.md"
REL = "content/checagens/valida.md"
SIZES = (8_500, 30_000)
# Shapes that cost the most per character: link scans, then block splits.
SHAPES = ("[", "![", "[a](b", "[`]`", "\\[[", "# a\n", "a\n=\n", "a\n-\n", "***\n")


def _seconds(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def _project(base: Path, body: str) -> Path:
    root = base / "projeto"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(FIXTURE / "content", root / "content")
    shutil.copytree(FIXTURE / "data", root / "data")
    shutil.copytree(REPO / "templates", root / "templates")
    text = VALIDA.read_text(encoding="utf-8")
    head = text[: text.index("+++", 3) + 3]
    (root / REL).write_text(f"{head}\n\n{body}\n", encoding="utf-8")
    return root


def _largest_passing(unit: str) -> str:
    low, high = 1, texto_seguro.MAX_CORPO // len(unit)
    while low < high:
        middle = (low + high + 1) // 2
        if texto_seguro.conversao_excessiva(unit * middle) is None:
            low = middle
        else:
            high = middle - 1
    return unit * low


def _sample_costs() -> tuple[int, int]:
    """The largest link and block bounds among the bodies of the repository's content."""
    links = blocks = 0
    for path in sorted((REPO / "content").rglob("*.md")):
        body = split_front_matter(path.read_text(encoding="utf-8"), str(path))[1]
        cost = texto_seguro.custo_de_conversao(body)
        links, blocks = max(links, cost[0]), max(blocks, cost[1])
    return links, blocks


def _validate_refused(root: Path) -> None:
    problems = validar(root, [root / REL]).problemas
    assert any("colchetes" in p.mensagem for p in problems), problems


def _build_refused(root: Path, out: Path) -> None:
    try:
        build_site(root, out, strict=True, workers=1)
    except BuildError:
        return
    raise AssertionError("the strict build should refuse the check")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sem-antes", action="store_true", help="não mede a conversão sem o limite (~15 s)")
    args = parser.parse_args(argv)
    rows: list[str] = []
    if not args.sem_antes:
        raw = markdown_render._markdown()  # the converter without the bound, as before the fix
        before = _seconds(functools.partial(raw.convert, "[" * SIZES[0]))
        rows.append(f"| Python-Markdown, {SIZES[0]:,} `[`, no bound (the cause) | {before:.2f} s |")
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        for size in SIZES:
            root = _project(base, "[" * size)
            took = _seconds(functools.partial(_validate_refused, root))
            rows.append(f"| `validar` of one check, {size:,} `[` (refused) | {took:.2f} s |")
            took = _seconds(functools.partial(_build_refused, root, base / "public-estrito"))
            rows.append(f"| cold `build --strict`, {size:,} `[` (refused) | {took:.2f} s |")
            took = _seconds(functools.partial(build_site, root, base / f"public-{size}", workers=1))
            rows.append(f"| cold `build`, {size:,} `[` (check left out, site built) | {took:.2f} s |")
    renderer = markdown_render.MarkdownRenderer()
    worst = 0.0
    worst_shape = ""
    for unit in SHAPES:
        passing = _largest_passing(unit)
        took = _seconds(functools.partial(renderer.convert, passing))
        took += _seconds(functools.partial(renderer.addresses, passing))
        if took > worst:
            worst, worst_shape = took, unit
    rows.append(
        f"| slowest body under the limits (convert + read addresses; of {len(SHAPES)} shapes: "
        f"`{worst_shape!r}` repeated) | {worst:.2f} s |"
    )
    links, blocks = _sample_costs()
    rows.append(
        f"| largest bound of the repository's own Markdown (`content/`): links {links:,} of "
        f"{texto_seguro.MAX_CUSTO_CONVERSAO:,}, blocks {blocks:,} of {texto_seguro.MAX_CUSTO_BLOCOS:,} | - |"
    )
    load = os.getloadavg()[0]  # the machine is shared: the figures scale with it
    body = f"Load average (1 min) at the end: {load:.1f}.\n\n| measurement | time |\n|---|---|\n"
    body += "\n".join(rows) + "\n"
    print(body)
    command = "python benchmarks/conteudo_bench.py" + (" --sem-antes" if args.sem_antes else "")
    write_section("Pathological content", command, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
