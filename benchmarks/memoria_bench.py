"""Benchmark of the desk's claim memory and triage: index build, one match, one post's triage.

Corpus: every distinct claim and headline of FACTCK.BR and CheckThat! 2025 PT
(`../shared/datasets/factcheck/`), replicated with a numbered suffix up to 10,000 checks, i.e.
several election cycles of a busy desk. Queries: the CheckThat! posts (noisy social-media text).
Run from the repo root: `python benchmarks/memoria_bench.py`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.report import median, write_section  # noqa: E402
from jobs.analise.afirmacoes import extrair_afirmacoes  # noqa: E402
from jobs.checagens.qualidade import DADOS_PADRAO, casos_checkthat, casos_factckbr  # noqa: E402
from jobs.checagens.similaridade import IndiceTfidf  # noqa: E402

TAMANHOS = (1_000, 10_000)
REPETICOES = 3


def corpus(n: int, base: list[str]) -> list[str]:
    """`n` documents: the base texts, then copies with a numbered suffix."""
    return [base[i % len(base)] + ("" if i < len(base) else f" (caso {i // len(base)})") for i in range(n)]


def main() -> int:
    """Measure and record the figures in docs/PERFORMANCE.md."""
    if not (DADOS_PADRAO / "task2_por.csv").exists():
        print(f"conjuntos ausentes em {DADOS_PADRAO}", file=sys.stderr)
        return 1
    alegacoes, casos = casos_checkthat(DADOS_PADRAO / "task2_por.csv")
    titulos, casos_fb = casos_factckbr(DADOS_PADRAO / "FACTCKBR.tsv")
    base = sorted(set(alegacoes) | set(titulos) | {c.consulta for c in casos_fb})
    consultas = [c.consulta for c in casos]
    linhas = [
        f"Corpus: {len(base):,} distinct claims and headlines (FACTCK.BR + CheckThat! 2025 PT), replicated "
        f"with a numbered suffix; queries: the {len(consultas)} CheckThat! posts. "
        f"Median of {REPETICOES} runs.",
        "",
        "| published checks | build index | match one claim (median) | match one claim (p95) |",
        "|---:|---:|---:|---:|",
    ]
    for n in TAMANHOS:
        docs = corpus(n, base)
        construcoes = []
        for _ in range(REPETICOES):
            inicio = time.perf_counter()
            indice = IndiceTfidf(docs)
            construcoes.append(time.perf_counter() - inicio)
        tempos = []
        for texto in consultas:
            inicio = time.perf_counter()
            indice.similaridades(texto)
            tempos.append(time.perf_counter() - inicio)
        tempos.sort()
        p95 = tempos[int(0.95 * (len(tempos) - 1))]
        linhas.append(
            f"| {n:,} | {median(construcoes):.2f} s | {1000 * median(tempos):.2f} ms | {1000 * p95:.2f} ms |"
        )
    post = " ".join(consultas)  # every post of the set as one long text
    triagens = []
    for _ in range(REPETICOES):
        inicio = time.perf_counter()
        achadas = extrair_afirmacoes(post)
        triagens.append(time.perf_counter() - inicio)
    linhas += [
        "",
        f"Rule-based triage of {len(post.encode('utf-8')) / 1000:.0f} kB of post text "
        f"({len(achadas)} sentences): {median(triagens):.3f} s.",
    ]
    write_section("Memória de checagens", "python benchmarks/memoria_bench.py", "\n".join(linhas))
    print("\n".join(linhas))
    return 0


if __name__ == "__main__":
    sys.exit(main())
