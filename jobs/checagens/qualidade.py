"""Measure the claim memory and the triage on public fact-check datasets; write docs/QUALIDADE.md.

    python -m jobs.checagens.qualidade [--dados ../shared/datasets/factcheck] [--sem-escrever]

Memory (top-1 accuracy: is the best-scoring published check the right one?):
- CheckThat! 2025 task 2, Portuguese (`task2_por.csv`): each social-media post is matched against
  the 201 distinct normalised claims; the right one is the post's own normalised claim.
- FACTCK.BR (`FACTCKBR.tsv`): each claim as a checker quoted it (`claimReviewed`) is matched against
  the headlines (`title`) of all 1,3xx checks; right = a check of that same claim.
Thresholds: for the posts whose top-1 is right, the share at or above each threshold (what an
editor would be offered as an occurrence); for posts of claims never checked (simulated by taking the
best *wrong* check), the share at or above it (false suggestions).
Triage: share of those real, checked claims that the rule-based analyser calls checkable.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from jobs.analise.afirmacoes import extrair_afirmacoes
from jobs.analise.temas import normalizar
from jobs.checagens import fila
from jobs.checagens.configuracao import ConfigMemoria
from jobs.checagens.similaridade import IndiceTfidf
from site_builder.writer import write_atomic

RAIZ = Path(__file__).resolve().parents[2]
DADOS_PADRAO = RAIZ.parent / "shared" / "datasets" / "factcheck"
QUALIDADE_MD = RAIZ / "docs" / "QUALIDADE.md"
SECAO = "memoria-de-afirmacoes"
TITULO_SECAO = "## Checagens: memória de afirmações"
LIMIARES = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
COMANDO = "python -m jobs.checagens.qualidade"


@dataclass(frozen=True)
class Caso:
    """One query and the indices of the documents that count as the right answer."""

    consulta: str
    corretos: frozenset[int]


@dataclass(frozen=True)
class Medida:
    """Top-1 accuracy and the threshold table of one dataset."""

    nome: str
    consultas: int
    documentos: int
    acertos: int
    notas_certas: tuple[float, ...]  # top-1 score when the top-1 is right
    notas_erradas: tuple[float, ...]  # best wrong score, for every query
    segundos: float

    @property
    def top1(self) -> float:
        """Share of queries whose best match is right."""
        return self.acertos / self.consultas if self.consultas else 0.0

    def oferecidas(self, limiar: float) -> float:
        """Share of all queries whose right top-1 scores at or above `limiar`."""
        return sum(n >= limiar for n in self.notas_certas) / self.consultas

    def falsas(self, limiar: float) -> float:
        """Share of queries whose best wrong match scores at or above `limiar` (unseen claims)."""
        return sum(n >= limiar for n in self.notas_erradas) / self.consultas


def medir(nome: str, documentos: Sequence[str], casos: Sequence[Caso], config: ConfigMemoria) -> Medida:
    """Top-1 accuracy of TF-IDF matching of `casos` against `documentos`."""
    inicio = time.perf_counter()
    indice = IndiceTfidf(documentos, config.ngrama_min, config.ngrama_max)
    acertos = 0
    certas: list[float] = []
    erradas: list[float] = []
    for caso in casos:
        notas = indice.similaridades(caso.consulta)
        melhor = int(np.argmax(notas))
        if melhor in caso.corretos:
            acertos += 1
            certas.append(float(notas[melhor]))
        mascara = np.ones(len(documentos), dtype=bool)
        mascara[list(caso.corretos)] = False
        erradas.append(float(notas[mascara].max()) if mascara.any() else 0.0)
    return Medida(
        nome,
        len(casos),
        len(documentos),
        acertos,
        tuple(certas),
        tuple(erradas),
        time.perf_counter() - inicio,
    )


def casos_checkthat(caminho: Path) -> tuple[list[str], list[Caso]]:
    """(distinct normalised claims, one case per post) from CheckThat! 2025 task 2 (Portuguese)."""
    csv.field_size_limit(1 << 30)
    with caminho.open(encoding="utf-8", newline="") as f:
        linhas = [(r["post"], r["normalized claim"].strip()) for r in csv.DictReader(f)]
    alegacoes = sorted({c for _p, c in linhas if c})
    posicao = {c: i for i, c in enumerate(alegacoes)}
    return alegacoes, [Caso(p, frozenset({posicao[c]})) for p, c in linhas if c and p.strip()]


def casos_factckbr(caminho: Path) -> tuple[list[str], list[Caso]]:
    """(check headlines, one case per quoted claim) from FACTCK.BR; a claim checked by several
    agencies counts as right on any of their headlines."""
    with caminho.open(encoding="utf-8", newline="") as f:
        leitor = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        cabecalho = next(leitor)
        i_claim, i_title = cabecalho.index("claimReviewed"), cabecalho.index("title")
        linhas = [(r[i_claim].strip(), r[i_title].strip()) for r in leitor if len(r) > max(i_claim, i_title)]
    linhas = [(c, t) for c, t in linhas if c and t]
    titulos = sorted({t for _c, t in linhas})
    posicao = {t: i for i, t in enumerate(titulos)}
    por_alegacao: dict[str, set[int]] = defaultdict(set)
    for c, t in linhas:
        por_alegacao[normalizar(c)].add(posicao[t])
    return titulos, [Caso(c, frozenset(por_alegacao[normalizar(c)])) for c, _t in linhas]


def checaveis(textos: Sequence[str]) -> float:
    """Share of texts in which the rule-based analyser finds at least one checkable claim."""
    if not textos:
        return 0.0
    return sum(any(a.tipo == "checavel" for a in extrair_afirmacoes(t)) for t in textos) / len(textos)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%".replace(".", ",")


def relatorio(medidas: Sequence[Medida], triagem: dict[str, tuple[int, float]], config: ConfigMemoria) -> str:
    """The Markdown section (Portuguese) with every measured figure."""
    hoje = dt.datetime.now(dt.UTC).date().isoformat()
    linhas = [
        TITULO_SECAO,
        "",
        f"Medido em {hoje} com `{COMANDO}` (TF-IDF de n-gramas de caracteres {config.ngrama_min}–"
        f"{config.ngrama_max}, sem embeddings; código em `jobs/checagens/similaridade.py`). Reexecute o "
        "comando para atualizar: os números abaixo são escritos por ele, nunca à mão.",
        "",
        "**Acerto top-1**: a checagem mais parecida é a certa.",
        "",
        "| conjunto | consultas | checagens indexadas | acerto top-1 | tempo |",
        "|---|---:|---:|---:|---:|",
    ]
    for m in medidas:
        linhas.append(
            f"| {m.nome} | {m.consultas} | {m.documentos} | **{_pct(m.top1)}** | {m.segundos:.1f} s |"
        )
    linhas += [
        "",
        "- CheckThat! 2025 (tarefa 2, português): cada post de rede social contra as 201 afirmações "
        "normalizadas distintas; certa = a afirmação normalizada do próprio post. Os posts são ruidosos "
        "(muitos não repetem as palavras da afirmação), como os que a redação captura.",
        "- FACTCK.BR: cada afirmação como a agência a citou (`claimReviewed`) contra os títulos de todas as "
        "checagens; certa = uma checagem da mesma afirmação (há afirmações checadas por mais de uma "
        "agência).",
        "",
        "**Limiares** (`[checagens.memoria]`): para cada limiar, a parte das consultas cuja checagem certa "
        "seria oferecida como ocorrência (top-1 certo e nota ≥ limiar) e a parte das consultas em que a "
        "melhor checagem *errada* passa do limiar (o que aconteceria com um post de afirmação nunca checada: "
        "sugestão falsa).",
        "",
        "| limiar | "
        + " | ".join(f"{m.nome}: oferecidas certas | {m.nome}: sugestões falsas" for m in medidas)
        + " |",
        "|---:|" + "---:|---:|" * len(medidas),
    ]
    for limiar in LIMIARES:
        celulas = " | ".join(f"{_pct(m.oferecidas(limiar))} | {_pct(m.falsas(limiar))}" for m in medidas)
        marca = (
            " (alto)" if limiar == config.limiar_alto else " (baixo)" if limiar == config.limiar_baixo else ""
        )
        linhas.append(f"| {limiar:.1f}{marca} | {celulas} |".replace(".", ",", 1))
    linhas += [
        "",
        f"Em uso: `limiar_alto = {config.limiar_alto}` (sugerir como nova ocorrência, só do mesmo "
        f"candidato; um editor confirma) e `limiar_baixo = {config.limiar_baixo}` (mostrar como parecida).",
        "",
        "**Triagem por regras** (`jobs/analise/afirmacoes.py`): parte de afirmações reais, que agências "
        "checaram, em que o analisador por regras encontra ao menos uma afirmação checável (sensibilidade; "
        "não há negativos rotulados em português para medir a precisão).",
        "",
        "| conjunto | textos | classificados como checáveis |",
        "|---|---:|---:|",
    ]
    for nome, (n, parte) in triagem.items():
        linhas.append(f"| {nome} | {n} | {_pct(parte)} |")
    linhas += ["", *formula_da_fila()]
    return "\n".join(linhas) + "\n"


def formula_da_fila() -> list[str]:
    """The queue formula as documentation, from the constants `jobs/checagens/fila.py` uses."""
    return [
        "### Fila de checagens: a fórmula",
        "",
        "`eleicoes checagens fila` ordena as afirmações checáveis em aberto com a mesma fórmula para todos "
        "os candidatos (constantes em `jobs/checagens/fila.py`; o candidato não entra na conta):",
        "",
        "```",
        f"alcance_norm = min(1, log10(1 + alcance) / log10(1 + {fila.ALCANCE_REFERENCIA}))"
        "   (0 se desconhecido)",
        f"prioridade   = 100 × checabilidade × ({fila.BASE} + {fila.PESO_ALCANCE} × alcance_norm"
        f" + {fila.PESO_DANO} × dano)",
        "```",
        "",
        "- checabilidade e dano (0 a 1) vêm da triagem; o dano pesa mais em saúde, segurança e processo "
        "eleitoral (tabela em `jobs/analise/temas.py`);",
        "- alcance: o que a página do post declara (visualizações) ou o que o editor informa (`--alcance`);",
        "- opiniões, promessas e previsões nunca entram; nem afirmações já decididas pela redação "
        "(ocorrência confirmada, rascunho aberto ou descartada, em `data/redes/decisoes.jsonl`);",
        "- a mesma frase do mesmo candidato em várias capturas aparece uma vez, com as repetições;",
        "- empate: a captura mais antiga primeiro.",
    ]


def escrever_secao(texto: str, caminho: Path = QUALIDADE_MD) -> None:
    """Replace (or append) this module's section of docs/QUALIDADE.md, leaving the rest untouched."""
    inicio, fim = f"<!-- BEGIN {SECAO} -->", f"<!-- END {SECAO} -->"
    bloco = f"{inicio}\n{texto.rstrip()}\n{fim}"
    atual = caminho.read_text(encoding="utf-8") if caminho.exists() else "# Qualidade\n"
    if inicio in atual and fim in atual:
        antes, resto = atual.split(inicio, 1)
        novo = antes + bloco + resto.split(fim, 1)[1]
    else:
        novo = atual.rstrip("\n") + "\n\n" + bloco + "\n"
    write_atomic(caminho, novo.encode("utf-8"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements; print the section and (unless --sem-escrever) write it."""
    parser = argparse.ArgumentParser(description="Mede a memória de checagens e a triagem.")
    parser.add_argument("--dados", type=Path, default=DADOS_PADRAO, help="pasta factcheck/ dos conjuntos")
    parser.add_argument("--sem-escrever", action="store_true", help="só mostra, não altera docs/QUALIDADE.md")
    args = parser.parse_args(argv)
    checkthat, factck = args.dados / "task2_por.csv", args.dados / "FACTCKBR.tsv"
    for arquivo in (checkthat, factck):
        if not arquivo.exists():
            print(f"erro: {arquivo} não encontrado (use --dados)", file=sys.stderr)
            return 1
    config = ConfigMemoria()
    docs_ct, casos_ct = casos_checkthat(checkthat)
    docs_fb, casos_fb = casos_factckbr(factck)
    medidas = [
        medir("CheckThat! 2025 PT", docs_ct, casos_ct, config),
        medir("FACTCK.BR", docs_fb, casos_fb, config),
    ]
    triagem = {
        "CheckThat! 2025 PT (afirmações normalizadas)": (len(docs_ct), checaveis(docs_ct)),
        "FACTCK.BR (claimReviewed)": (len(casos_fb), checaveis([c.consulta for c in casos_fb])),
    }
    texto = relatorio(medidas, triagem, config)
    print(texto)
    if not args.sem_escrever:
        escrever_secao(texto)
    return 0


if __name__ == "__main__":
    sys.exit(main())
