"""Cost of a fact-check's share image (issue 23, item 12; issue 25, item 3): one 1200×630 PNG per
check page, drawn when what it shows changes (the build's incremental state keeps it otherwise).
Times a card in CPU milliseconds, and of that the PNG encoding alone (the drawn pixels and palette
encoded again by the encoder the card used: share_image's own `indexed_png`, or Pillow's for a
revision that has none), at the zlib level the site uses and at the other one it was chosen from.

With `--antes REV`, the same cards are drawn by the share_image of git revision REV too, each
revision in processes of its own, alternated round by round so that a change in the machine's
load hits both alike:

    python benchmarks/cartao_checagem_bench.py [--antes REV] [--rodadas 3] [--sem-registro]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.build_bench import builder_at  # noqa: E402
from benchmarks.report import median, write_section  # noqa: E402
from site_builder import share_image  # noqa: E402

CARTAO = share_image.CartaoChecagem(
    marca="Eleições 2026 · Cobertura aberta",
    autoria="Checagem · afirmação de Helena Prado (Partido da Renovação Democrática (fictício))",
    afirmacao="A água da rede tem agrotóxico acima do limite em 80 cidades do estado, segundo a candidata.",
    veredito="enganoso",
    rotulo="Enganoso",
    datas="Publicada em 19 de outubro de 2026 · atualizada em 23 de outubro de 2026",
    rodape="https://eleicoes2026.example.org/checagens/demo-helena-agua-agrotoxico-80-cidades/",
    demonstracao=True,
)
REPETICOES = 30
# The other zlib level timed: the site's level was chosen between 1 and 2 (share_image.COMPRESSAO_PNG).
NIVEL_COMPARADO = 2 if share_image.COMPRESSAO_PNG == 1 else 1

# Run in a fresh interpreter with the share_image of `repo`: REPETICOES cards of different claims
# at zlib level `nivel`, after one card that loads the typefaces (as in a build); JSON on stdout.
CHILD = """
import dataclasses, io, json, sys, time
sys.path.insert(0, sys.argv[1])
from PIL import Image
from site_builder import share_image
cartao = share_image.CartaoChecagem(**json.loads(sys.argv[2]))
nivel, vezes = int(sys.argv[3]), int(sys.argv[4])
share_image.render_checagem_png(cartao, nivel)
proprio = hasattr(share_image, "indexed_png")  # a revision before it saved through Pillow
cartao_ms, codificacao_ms, tamanho = [], [], 0
for i in range(vezes):
    palavras = cartao.afirmacao.split()  # every line of each claim differs, as its address does
    afirmacao = " ".join([str(i), *palavras[i % len(palavras):], *palavras[:i % len(palavras)]])
    este = dataclasses.replace(cartao, afirmacao=afirmacao, rodape=f"{cartao.rodape}{i}/")
    inicio = time.process_time()
    png = share_image.render_checagem_png(este, nivel)
    cartao_ms.append((time.process_time() - inicio) * 1000)
    tamanho = len(png)
    with Image.open(io.BytesIO(png)) as imagem:
        imagem.load()
        if proprio:  # the canvas share_image encodes: palette indices as an "L" image, the palette
            indices = Image.frombytes("L", imagem.size, imagem.tobytes())
            paleta = imagem.getpalette() or []
            cores = [tuple(paleta[c : c + 3]) for c in range(0, len(paleta), 3)]
            inicio = time.process_time()
            share_image.indexed_png(indices, cores, nivel)
        else:
            inicio = time.process_time()
            imagem.save(io.BytesIO(), format="PNG", compress_level=nivel)
        codificacao_ms.append((time.process_time() - inicio) * 1000)
resultado = {"cartao_ms": cartao_ms, "codificacao_ms": codificacao_ms, "tamanho": tamanho}
codificador = "zlib-ng" if proprio else "Pillow"
print(json.dumps({**resultado, "codificador": codificador, "nivel_do_site": share_image.COMPRESSAO_PNG}))
"""


@dataclass(frozen=True)
class Medida:
    """One run: CPU milliseconds of each card and of its encoding alone, the last card's bytes,
    what encoded the PNG ("zlib-ng": share_image's own encoder; "Pillow") and the zlib level that
    revision's site uses."""

    cartao_ms: list[float]
    codificacao_ms: list[float]
    tamanho: int
    codificador: str
    nivel_do_site: int


def _medir(repo: Path, nivel: int) -> Medida:
    """The timings of REPETICOES cards drawn by the share_image of `repo` at zlib level `nivel`."""
    command = [
        sys.executable,
        "-c",
        CHILD,
        str(repo),
        json.dumps(asdict(CARTAO)),
        str(nivel),
        str(REPETICOES),
    ]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return Medida(**json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--antes", help="revisão git cujo share_image medir lado a lado")
    parser.add_argument("--rodadas", type=int, default=3)
    parser.add_argument("--sem-registro", action="store_true", help="não grava em docs/PERFORMANCE.md")
    args = parser.parse_args()
    niveis = (share_image.COMPRESSAO_PNG, NIVEL_COMPARADO)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        versoes = [("this tree", REPO)]
        if args.antes:
            versoes.insert(0, (f"`{args.antes}`", builder_at(args.antes, Path(tmp) / "antes")))
        runs: dict[tuple[str, int], list[Medida]] = {}
        for _ in range(args.rodadas):
            for nome, repo in versoes:
                for nivel in niveis:
                    runs.setdefault((nome, nivel), []).append(_medir(repo, nivel))
    load_after = os.getloadavg()[0]
    rows = []
    for (nome, nivel), medidas in runs.items():
        cartao = median([ms for medida in medidas for ms in medida.cartao_ms])
        codificacao = median([ms for medida in medidas for ms in medida.codificacao_ms])
        site = nivel == medidas[-1].nivel_do_site  # that revision's level, not necessarily this tree's
        uso = " (what the site uses)" if site else ""
        negrito = "**" if site else ""
        codificador = medidas[-1].codificador
        rows.append(
            f"| {nome} | {codificador}, zlib level {nivel}{uso} | {negrito}{cartao:.1f} ms{negrito} "
            f"| {codificacao:.1f} ms | {medidas[-1].tamanho // 1024} KiB |"
        )
    body = "\n".join(
        [
            f"{REPETICOES} cards of different claims (a demonstration check; the same author, verdict and "
            "dates, as the checks of one candidate published on one day share them) per run, each run "
            "in a fresh process after one card that loads the typefaces; "
            f"{args.rodadas} runs per row, alternated; "
            "median CPU time (user + system of the process) per card, and of it the PNG encoding alone "
            "(the drawn pixels encoded again by the same encoder at the same level: zlib-ng, "
            "share_image's own PNG writer, or Pillow's for a revision without it). 1-minute load "
            "average of the "
            f"(shared, {os.cpu_count()}-core) machine: {load_before:.1f} at the start, {load_after:.1f} "
            "at the end.",
            "",
            "This tree's cards are indexed-colour PNGs: a palette of at most 256 colours in which each "
            f"text colour is blended over its background in {share_image.NIVEIS} steps "
            "(`site_builder/share_image.py`, `_Tela`), each pixel within half a step of the full-colour "
            "drawing (tests/support/cartao.py); one byte per pixel and no row filter to choose, "
            "written by share_image itself (`indexed_png`: IHDR, PLTE, one IDAT compressed by "
            "zlib-ng, IEND).",
            "",
            "| share_image of | PNG encoding | CPU per card | of which encoding | Size |",
            "|---|---|---:|---:|---:|",
            *rows,
        ]
    )
    print(body)
    if not args.sem_registro:
        command = "python benchmarks/cartao_checagem_bench.py" + (
            f" --antes {args.antes}" if args.antes else ""
        )
        write_section("Fact-check share images", command, body)


if __name__ == "__main__":
    main()
