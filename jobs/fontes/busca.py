"""Source search behind one interface (`BuscaFontes`).

- `IndiceLocal` (default): BM25 over an index shipped with the project (official statistics with
  their URLs, `jobs/fontes/dados/*.json`) plus the desk's published checks (`content/checagens/`).
  No network. The checks are the ones the build publishes (`checagens_publicadas`); the debate meets
  a repeated claim with their verdicts through the claim memory (`jobs/debate/reuso.py`).
- `BuscaWeb`: a configurable search endpoint answering SearxNG-style JSON
  (`GET <url>?q=...&format=json` -> `{"results": [{"title", "url", "content"}]}`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import requests

from jobs.checagens.publicadas import checagens_publicadas as publicadas_pela_mesa
from jobs.debate.texto import palavras, radical

DADOS = Path(__file__).resolve().parent / "dados"
PASTA_CHECAGENS = Path("content") / "checagens"  # the desk's checks, under the project root
TIPO_ESTATISTICA = "estatistica"
TIPO_CHECAGEM = "checagem"
TIPO_WEB = "web"
BM25_K1 = 1.2
BM25_B = 0.75
_PALAVRAS_VAZIAS = frozenset(
    [
        "a",
        "o",
        "as",
        "os",
        "um",
        "uma",
        "de",
        "da",
        "do",
        "das",
        "dos",
        "e",
        "em",
        "no",
        "na",
        "nos",
        "nas",
        "que",
        "por",
        "para",
        "com",
        "se",
        "foi",
        "sao",
        "é",
        "ser",
        "ter",
        "tem",
        "mais",
        "menos",
        "como",
        "ao",
        "aos",
        "pelo",
        "pela",
        "ja",
        "nao",
        "sim",
        "seu",
        "sua",
    ]
)


class ErroBusca(RuntimeError):  # noqa: N818 - Portuguese name, like ErroAnalise
    """The search backend could not answer (message in Portuguese)."""


@dataclass(frozen=True)
class Dado:
    """A number a source states, described in words for matching."""

    descricao: str
    valor: float
    unidade: str  # "" (a count), "%" or "R$"
    ano: int | None = None


@dataclass(frozen=True)
class Documento:
    """One searchable source."""

    id: str
    titulo: str
    url: str
    orgao: str
    texto: str
    tipo: str  # estatistica | checagem | web
    data: str = ""
    dados: tuple[Dado, ...] = ()
    veredito: str | None = None  # a desk check's published verdict
    afirmacao: str = ""  # a desk check's claim
    demonstracao: bool = False
    candidato: str = ""  # whose claim a desk check is


@dataclass(frozen=True)
class Resultado:
    """A document found for a query, with its relevance."""

    documento: Documento
    pontuacao: float


class BuscaFontes(Protocol):
    """Anything that finds public sources for a query."""

    @property
    def nome(self) -> str:
        """Backend name and index version (part of the cache key of stored checks)."""
        ...

    def buscar(self, consulta: str, limite: int = 5, tipo: str | None = None) -> list[Resultado]:
        """The most relevant sources (only of `tipo` when given), best first."""
        ...


def termos(texto: str) -> list[str]:
    """Search terms: stems of the words, without very common words and bare numbers."""
    return [
        radical(p) for p in palavras(texto) if p not in _PALAVRAS_VAZIAS and not p.isdigit() and len(p) > 1
    ]


# ---------------------------------------------------------------- local index


def _dado(bruto: Any, onde: str) -> Dado:
    if not isinstance(bruto, dict) or not isinstance(bruto.get("descricao"), str):
        raise ValueError(f"{onde}: cada dado precisa de 'descricao'")
    valor = bruto.get("valor")
    if isinstance(valor, bool) or not isinstance(valor, int | float):
        raise ValueError(f"{onde}: 'valor' deve ser um número")
    unidade = bruto.get("unidade", "")
    if unidade not in ("", "%", "R$"):
        raise ValueError(f"{onde}: 'unidade' deve ser '', '%' ou 'R$'")
    ano = bruto.get("ano")
    if ano is not None and (isinstance(ano, bool) or not isinstance(ano, int)):
        raise ValueError(f"{onde}: 'ano' deve ser um inteiro")
    return Dado(bruto["descricao"], float(valor), unidade, ano)


def ler_indice(caminho: Path) -> list[Documento]:
    """Documents of one index file; ValueError (Portuguese) naming the bad entry."""
    dados = json.loads(caminho.read_text(encoding="utf-8"))
    docs = []
    for i, d in enumerate(dados.get("documentos", [])):
        onde = f"{caminho.name}: documentos[{i}]"
        for chave in ("id", "titulo", "url", "orgao", "texto"):
            if not isinstance(d.get(chave), str) or not d[chave].strip():
                raise ValueError(f"{onde}: '{chave}' é obrigatório")
        if not d["url"].startswith(("https://", "http://")):
            raise ValueError(f"{onde}: 'url' deve ser um endereço público (https://)")
        docs.append(
            Documento(
                id=d["id"],
                titulo=d["titulo"],
                url=d["url"],
                orgao=d["orgao"],
                texto=d["texto"],
                tipo=TIPO_ESTATISTICA,
                data=str(d.get("data", "")),
                dados=tuple(_dado(x, f"{onde}.dados[{j}]") for j, x in enumerate(d.get("dados", []))),
                demonstracao=bool(d.get("demonstracao", False)),
            )
        )
    return docs


def checagens_publicadas(pasta: Path) -> list[Documento]:
    """The desk's checks that the site build publishes (`jobs.checagens.publicadas`, the build's own
    rules), as searchable documents."""
    docs = []
    for publicada in publicadas_pela_mesa(pasta)[0]:
        c, corpo = publicada.checagem, publicada.corpo
        docs.append(
            Documento(
                id=c.id,
                titulo=f"Checagem publicada: {c.afirmacao}",
                url=c.url,
                orgao="Redação (checagem publicada)",
                texto=f"{c.afirmacao} {corpo}",
                tipo=TIPO_CHECAGEM,
                data=c.publicado_em.date().isoformat() if c.publicado_em else "",
                veredito=c.veredito,
                afirmacao=c.afirmacao,
                demonstracao=c.demonstracao,
                candidato=c.candidato,
            )
        )
    return docs


class IndiceLocal:
    """BM25 search over documents held in memory."""

    def __init__(self, documentos: Sequence[Documento], versao: str = "") -> None:
        self.documentos = list(documentos)
        self._versao = versao
        self._termos = [Counter(termos(self._texto_de(d))) for d in self.documentos]
        self._tamanhos = [sum(c.values()) for c in self._termos]
        self._media = sum(self._tamanhos) / max(1, len(self._tamanhos))
        df: Counter[str] = Counter()
        for c in self._termos:
            df.update(c.keys())
        n = len(self.documentos)
        self._idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    @staticmethod
    def _texto_de(d: Documento) -> str:
        return " ".join([d.titulo, d.afirmacao, d.texto, *(x.descricao for x in d.dados)])

    @property
    def nome(self) -> str:
        """Backend name with a checksum of the indexed documents."""
        return f"local:{self._versao}"

    def buscar(self, consulta: str, limite: int = 5, tipo: str | None = None) -> list[Resultado]:
        """Documents ranked by BM25 for the query terms (only those sharing a term)."""
        q = set(termos(consulta))
        resultados = []
        for doc, tf, tamanho in zip(self.documentos, self._termos, self._tamanhos, strict=True):
            if tipo is not None and doc.tipo != tipo:
                continue
            pontos = 0.0
            for t in q:
                f = tf.get(t, 0)
                if f:
                    norm = f + BM25_K1 * (1 - BM25_B + BM25_B * tamanho / max(1.0, self._media))
                    pontos += self._idf[t] * f * (BM25_K1 + 1) / norm
            if pontos > 0:
                resultados.append(Resultado(doc, round(pontos, 4)))
        resultados.sort(key=lambda r: (-r.pontuacao, r.documento.id))
        return resultados[:limite]


def indice_local(
    raiz: Path, extras: Iterable[str] = (), publicadas: Sequence[Documento] | None = None
) -> IndiceLocal:
    """The embedded index: shipped statistics, extra index files and the desk's published checks
    (`publicadas` when the caller already read them with `checagens_publicadas`)."""
    arquivos = sorted(DADOS.glob("*.json")) + [raiz / e for e in extras]
    docs: list[Documento] = []
    assinatura = hashlib.sha256()
    for arquivo in arquivos:
        conteudo = arquivo.read_bytes()
        assinatura.update(conteudo)
        docs += ler_indice(arquivo)
    if publicadas is None:
        publicadas = checagens_publicadas(raiz / PASTA_CHECAGENS)
    for d in publicadas:
        assinatura.update(f"{d.id}|{d.veredito}|{d.afirmacao}".encode())
    return IndiceLocal([*docs, *publicadas], assinatura.hexdigest()[:12])


# ---------------------------------------------------------------- web


class BuscaWeb:
    """A SearxNG-compatible JSON search endpoint (self-hosted or any service speaking that format)."""

    def __init__(self, url: str, tempo_limite_s: float = 10.0) -> None:
        self.url = url
        self.tempo_limite_s = tempo_limite_s

    @property
    def nome(self) -> str:
        """Backend name and endpoint."""
        return f"web:{self.url}"

    def buscar(self, consulta: str, limite: int = 5, tipo: str | None = None) -> list[Resultado]:
        """Ask the endpoint; ErroBusca when it fails or answers something else."""
        if tipo is not None and tipo != TIPO_WEB:
            return []  # the web has neither the shipped statistics nor the desk's checks
        try:
            resposta = requests.get(
                self.url, params={"q": consulta, "format": "json"}, timeout=self.tempo_limite_s
            )
            resposta.raise_for_status()
            dados = resposta.json()
        except requests.Timeout as exc:
            raise ErroBusca(f"a busca na web não respondeu em {self.tempo_limite_s:g} s") from exc
        except requests.exceptions.JSONDecodeError as exc:
            raise ErroBusca("a busca na web não respondeu em JSON") from exc
        except requests.RequestException as exc:
            raise ErroBusca(f"a busca na web falhou: {exc}") from exc
        itens = dados.get("results") if isinstance(dados, dict) else None
        if not isinstance(itens, list):
            raise ErroBusca("a busca na web respondeu sem a lista 'results'")
        saida = []
        for i, item in enumerate(itens[:limite]):
            if not isinstance(item, dict):
                continue
            url, titulo = item.get("url"), item.get("title") or item.get("url")
            if not isinstance(url, str) or not url.startswith(("http://", "https://")):
                continue
            texto = item.get("content") if isinstance(item.get("content"), str) else ""
            doc = Documento(f"web-{i}", str(titulo), url, _dominio(url), str(texto), TIPO_WEB)
            saida.append(Resultado(doc, round(1.0 / (i + 1), 4)))
        return saida


def _dominio(url: str) -> str:
    return url.split("//", 1)[-1].split("/", 1)[0]


def busca_de(
    tipo: str,
    raiz: Path,
    url: str = "",
    tempo_limite_s: float = 10.0,
    extras: Iterable[str] = (),
    publicadas: Sequence[Documento] | None = None,
) -> BuscaFontes:
    """The search backend chosen in `[debate] busca` (`publicadas`: as for `indice_local`)."""
    if tipo == "web":
        return BuscaWeb(url, tempo_limite_s)
    return indice_local(raiz, extras, publicadas)
