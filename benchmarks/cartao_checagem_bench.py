"""Cost of a fact-check's share image (issue 23, item 12): one 1200×630 PNG per check page,
drawn when what it shows changes (the build's incremental state keeps it otherwise). Times the
drawing and the PNG encoding at the zlib level the site uses and at the default one.

    python benchmarks/cartao_checagem_bench.py [--sem-registro]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

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


def _tempos(compressao: int) -> tuple[float, int]:
    """Median milliseconds per card and its size in bytes, at zlib level `compressao`."""
    tempos, tamanho = [], 0
    for i in range(REPETICOES):
        cartao = dataclasses.replace(CARTAO, afirmacao=f"{CARTAO.afirmacao} {i}")
        inicio = time.perf_counter()
        tamanho = len(share_image.render_checagem_png(cartao, compressao))
        tempos.append((time.perf_counter() - inicio) * 1000)
    return median(tempos), tamanho


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sem-registro", action="store_true", help="não grava em docs/PERFORMANCE.md")
    args = parser.parse_args()
    share_image.render_checagem_png(CARTAO)  # the typefaces loaded once, as in a build
    usado, tamanho_usado = _tempos(share_image.COMPRESSAO_CHECAGEM)
    padrao, tamanho_padrao = _tempos(6)
    body = "\n".join(
        [
            f"{REPETICOES} cards of different claims, median per card. "
            f"1-minute load average at the end: {os.getloadavg()[0]:.1f}.",
            "",
            "| PNG encoding | Time per card | Size |",
            "|---|---|---|",
            f"| zlib level {share_image.COMPRESSAO_CHECAGEM} (what the site uses) | **{usado:.0f} ms** "
            f"| {tamanho_usado // 1024} KiB |",
            f"| zlib level 6 (Pillow's default) | {padrao:.0f} ms | {tamanho_padrao // 1024} KiB |",
        ]
    )
    print(body)
    if not args.sem_registro:
        write_section("Fact-check share images", "python benchmarks/cartao_checagem_bench.py", body)


if __name__ == "__main__":
    main()
