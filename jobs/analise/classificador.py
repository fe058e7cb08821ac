"""Learned classifiers of the debate analysis: hashed character n-grams and a logistic regression.

The models are trained by `python -m jobs.analise.treinar` on the fitting half of public datasets
and shipped as small versioned JSON files in `jobs/analise/dados/` (name = task, version and a hash
of the training data; a `.sha256` beside each, checked at load). Inference is numpy only.

Character n-grams inside word boundaries, on lower-case accent-free text: the check-worthiness
data is Spanish and the debates are Portuguese, and shared stems transfer better than whole words.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from jobs.analise.config import PREFIXO_CLASSIFICADOR
from jobs.analise.temas import normalizar

if TYPE_CHECKING:  # afirmacoes builds this analyser: a run-time import would be a circle
    from jobs.analise.afirmacoes import Afirmacao, Analisador

VERSAO = 1
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
_MENCAO = re.compile(r"@\w+")
_NAO_ALFANUMERICO = re.compile(r"[^\w]+")

Vetor = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]


class ClassifierError(ValueError):
    """A model file is missing, altered or unreadable (message in Portuguese)."""


def _normalizado(texto: str) -> str:
    texto = _MENCAO.sub(" ", _URL.sub(" ", texto))
    return _NAO_ALFANUMERICO.sub(" ", normalizar(texto)).replace("_", " ")


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


def _b64(a: npt.NDArray[np.float64]) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f4").tobytes()).decode("ascii")


def _de_b64(texto: str, forma: tuple[int, ...]) -> npt.NDArray[np.float64]:
    bruto = np.frombuffer(base64.b64decode(texto), dtype="<f4").astype(np.float64)
    return bruto.reshape(forma)


def para_bytes(m: Modelo) -> bytes:
    """The model file: sorted JSON, float32 arrays in base64 (same model -> same bytes)."""
    dados = {
        "formato": f"eleicoes-classificador-v{VERSAO}",
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
    return (json.dumps(dados, ensure_ascii=False, sort_keys=True, indent=0) + "\n").encode("utf-8")


def de_bytes(bruto: bytes, id_: str = "") -> Modelo:
    """A model read back from its file's bytes; ClassifierError when they are not one."""
    try:
        d = json.loads(bruto.decode("utf-8"))
        if d["formato"] != f"eleicoes-classificador-v{VERSAO}" or d["ngramas"] != [NGRAMA_MIN, NGRAMA_MAX]:
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


def gravar(m: Modelo, pasta: Path, sufixo_dados: str) -> Path:
    """Write `<tarefa>-v<VERSAO>-<sufixo_dados>.json` and its `.sha256` into `pasta`; the path."""
    from site_builder.writer import write_atomic

    bruto = para_bytes(m)
    caminho = pasta / f"{m.tarefa}-v{VERSAO}-{sufixo_dados}.json"
    pasta.mkdir(parents=True, exist_ok=True)
    write_atomic(caminho, bruto)
    write_atomic(
        caminho.with_name(caminho.name + ".sha256"), f"{sha256_de(bruto)}  {caminho.name}\n".encode()
    )
    return caminho


def carregar(caminho: Path) -> Modelo:
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
    """The one shipped model file of `tarefa` at this VERSAO; ClassifierError when none or several."""
    achados = sorted(pasta.glob(f"{tarefa}-v{VERSAO}-*.json"))
    if len(achados) != 1:
        raise ClassifierError(
            f"classificador de {tarefa}: esperado um arquivo {tarefa}-v{VERSAO}-*.json em {pasta}, "
            f"há {len(achados)} (treine com python -m jobs.analise.treinar)"
        )
    return achados[0]


def modelo_padrao(tarefa: str, pasta: Path = PASTA_MODELOS) -> Modelo:
    """The shipped model of `tarefa`, checked."""
    return carregar(arquivo_do_modelo(tarefa, pasta))


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
    unchecked)."""

    def __init__(self, regras: Analisador, modelo: Modelo | None = None) -> None:
        self.modelo = modelo_padrao(TAREFA_CHECABILIDADE) if modelo is None else modelo
        self._regras = regras

    @property
    def nome(self) -> str:
        """Backend name recorded on every claim: "classificador:<model file id>"."""
        return f"{PREFIXO_CLASSIFICADOR}{self.modelo.id}"

    def analisar(self, texto: str) -> list[Afirmacao]:
        """The rules' sentences, re-typed by the classifier."""
        saida = []
        for a in self._regras.analisar(texto):
            p = self.modelo.positivo(a.texto)
            if a.tipo in TIPOS_NUNCA_CHECADOS:
                tipo, checabilidade = a.tipo, 0.0
            else:
                tipo = "checavel" if p >= self.modelo.limiar else "opiniao"
                checabilidade = checabilidade_reescalada(p, self.modelo.limiar)
            saida.append(replace(a, tipo=tipo, checabilidade=checabilidade))
        return saida
