"""Where audio segments come from: a folder the recorder fills, an HLS playlist, or one whole file.

Every segment has a sequence number (the last run of digits in its file name, or its place in the
HLS media sequence). The job takes them in that order, once each; `planejar` is the pure rule that
says what to do next given what is available and what was already done.
"""

from __future__ import annotations

import re
import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import requests

EXTENSOES = frozenset(
    {".wav", ".mp3", ".aac", ".ts", ".m4a", ".mp4", ".ogg", ".oga", ".opus", ".flac", ".webm", ".mka", ".mkv"}
)
MARCAS_FIM = ("FIM", "fim", "fim.txt", "FIM.txt", ".fim")
_DIGITOS = re.compile(r"(\d+)(?!.*\d)")


class ErroFonte(RuntimeError):  # noqa: N818 - Portuguese names, like the other jobs
    """The source cannot be read right now (network, permissions); the message is in Portuguese."""


@dataclass(frozen=True)
class SegmentoDisponivel:
    """A segment the source offers: its order key, its name and, for HLS, its announced duration."""

    seq: int
    nome: str
    pronto: bool = True  # complete: the recorder has finished writing it
    duracao_s: float | None = None  # EXTINF of the playlist; None for files (the decoded length counts)


class Fonte(Protocol):
    """What the processing loop needs from a source of segments."""

    @property
    def descricao(self) -> str:
        """Human-readable source name."""
        ...

    def listar(self) -> list[SegmentoDisponivel]:
        """The segments offered now (ErroFonte when the source cannot be read)."""
        ...

    def ler(self, segmento: SegmentoDisponivel) -> bytes:
        """The bytes of one segment (ErroFonte when it cannot be fetched)."""
        ...

    def encerrada(self) -> bool:
        """Whether the recording is over (no segment will come after the last one listed)."""
        ...


def numero_sequencia(nome: str) -> int | None:
    """The last run of digits in a file name's stem (`seg_00012.ts` -> 12); None without digits."""
    achado = _DIGITOS.search(Path(nome).stem)
    return int(achado.group(1)) if achado else None


@dataclass
class FontePasta:
    """A folder the recorder writes numbered segments into; a file named FIM marks the end."""

    pasta: Path
    estavel_s: float = 2.0
    fim_forcado: bool = False
    relogio: Callable[[], float] = time.time
    sem_numero: set[str] = field(default_factory=set)

    @property
    def descricao(self) -> str:
        """Human-readable source name."""
        return str(self.pasta)

    def listar(self) -> list[SegmentoDisponivel]:
        """Numbered audio files, with `pronto` once the file stopped changing or a later one exists."""
        try:
            entradas = [p for p in self.pasta.iterdir() if p.is_file() and not p.name.startswith(".")]
        except OSError as exc:
            raise ErroFonte(f"não foi possível ler a pasta {self.pasta}: {exc}") from exc
        vistos: list[tuple[int, str, float]] = []
        for p in entradas:
            if p.suffix.lower() not in EXTENSOES:
                continue
            seq = numero_sequencia(p.name)
            if seq is None:
                self.sem_numero.add(p.name)
                continue
            try:
                mtime = p.stat().st_mtime
            except OSError:
                continue  # removed meanwhile
            vistos.append((seq, p.name, mtime))
        if not vistos:
            return []
        maior = max(seq for seq, _, _ in vistos)
        agora = self.relogio()
        return [
            SegmentoDisponivel(seq, nome, seq < maior or agora - mtime >= self.estavel_s or self.encerrada())
            for seq, nome, mtime in sorted(vistos)
        ]

    def ler(self, segmento: SegmentoDisponivel) -> bytes:
        """The file's bytes."""
        try:
            return (self.pasta / segmento.nome).read_bytes()
        except OSError as exc:
            raise ErroFonte(f"não foi possível ler {segmento.nome}: {exc}") from exc

    def encerrada(self) -> bool:
        """True once a FIM marker file exists (or the caller said the recording is over)."""
        return self.fim_forcado or any((self.pasta / m).exists() for m in MARCAS_FIM)


@dataclass
class FonteArquivo:
    """One whole recording: a single segment, and the recording is over."""

    arquivo: Path

    @property
    def descricao(self) -> str:
        """Human-readable source name."""
        return str(self.arquivo)

    def listar(self) -> list[SegmentoDisponivel]:
        """The file itself as segment 0."""
        return [SegmentoDisponivel(0, self.arquivo.name)] if self.arquivo.is_file() else []

    def ler(self, segmento: SegmentoDisponivel) -> bytes:
        """The file's bytes."""
        try:
            return self.arquivo.read_bytes()
        except OSError as exc:
            raise ErroFonte(f"não foi possível ler {self.arquivo}: {exc}") from exc

    def encerrada(self) -> bool:
        """A single file is a finished recording."""
        return True


@dataclass(frozen=True)
class PlaylistHLS:
    """A parsed media playlist."""

    segmentos: tuple[SegmentoDisponivel, ...]
    encerrada: bool
    variantes: tuple[tuple[int, str], ...] = ()  # (bandwidth, uri) when this is a master playlist


def ler_playlist(texto: str, base: str) -> PlaylistHLS:
    """Parse an HLS playlist (RFC 8216): media sequence, EXTINF durations, ENDLIST, master variants."""
    linhas = [linha.strip() for linha in texto.splitlines() if linha.strip()]
    if not linhas or linhas[0] != "#EXTM3U":
        raise ErroFonte("playlist HLS inválida: falta #EXTM3U na primeira linha")
    seq = 0
    duracao: float | None = None
    banda: int | None = None
    segmentos: list[SegmentoDisponivel] = []
    variantes: list[tuple[int, str]] = []
    encerrada = False
    for linha in linhas[1:]:
        if linha.startswith("#EXT-X-MEDIA-SEQUENCE:"):
            try:
                seq = int(linha.split(":", 1)[1])
            except ValueError as exc:
                raise ErroFonte(f"playlist HLS inválida: {linha!r}") from exc
        elif linha.startswith("#EXTINF:"):
            try:
                duracao = float(linha.split(":", 1)[1].split(",", 1)[0])
            except ValueError as exc:
                raise ErroFonte(f"playlist HLS inválida: {linha!r}") from exc
        elif linha.startswith("#EXT-X-STREAM-INF:"):
            achado = re.search(r"BANDWIDTH=(\d+)", linha)
            banda = int(achado.group(1)) if achado else 0
        elif linha.startswith("#EXT-X-ENDLIST"):
            encerrada = True
        elif linha.startswith("#"):
            continue
        else:
            uri = urllib.parse.urljoin(base, linha)
            if banda is not None:
                variantes.append((banda, uri))
                banda = None
            else:
                segmentos.append(SegmentoDisponivel(seq, uri, True, duracao))
                seq += 1
                duracao = None
    return PlaylistHLS(tuple(segmentos), encerrada, tuple(variantes))


@dataclass
class FonteHLS:
    """An HLS playlist over HTTP (or a local .m3u8 file); a master playlist picks its lightest variant."""

    url: str
    tempo_limite_s: float = 10.0
    sessao: requests.Session = field(default_factory=requests.Session)
    _fim: bool = False

    @property
    def descricao(self) -> str:
        """Human-readable source name."""
        return self.url

    def _obter(self, uri: str) -> bytes:
        if not uri.startswith(("http://", "https://")):
            caminho = Path(urllib.parse.urlparse(uri).path if uri.startswith("file:") else uri)
            try:
                return caminho.read_bytes()
            except OSError as exc:
                raise ErroFonte(f"não foi possível ler {caminho}: {exc}") from exc
        try:
            resposta = self.sessao.get(uri, timeout=self.tempo_limite_s)
        except requests.RequestException as exc:
            raise ErroFonte(f"falha ao baixar {uri}: {exc}") from exc
        if resposta.status_code != 200:
            raise ErroFonte(f"falha ao baixar {uri}: HTTP {resposta.status_code}")
        return resposta.content

    def listar(self) -> list[SegmentoDisponivel]:
        """The media playlist's segments (following a master playlist to its lightest variant)."""
        url = self.url
        for _ in range(3):  # master -> media; deeper nesting is not HLS
            texto = self._obter(url).decode("utf-8", errors="replace")
            playlist = ler_playlist(texto, url)
            if not playlist.variantes:
                self._fim = playlist.encerrada
                return list(playlist.segmentos)
            url = min(playlist.variantes)[1]
        raise ErroFonte(f"playlist HLS {self.url}: variantes aninhadas demais")

    def ler(self, segmento: SegmentoDisponivel) -> bytes:
        """Download one segment."""
        return self._obter(segmento.nome)

    def encerrada(self) -> bool:
        """True once the media playlist carried #EXT-X-ENDLIST."""
        return self._fim


def abrir_fonte(fonte: str, estavel_s: float = 2.0, fim: bool = False) -> Fonte:
    """The source named on the command line: URL or .m3u8 -> HLS, folder -> FontePasta, file -> one file."""
    if fonte.startswith(("http://", "https://")) or fonte.lower().endswith(".m3u8"):
        return FonteHLS(fonte)
    caminho = Path(fonte)
    if caminho.is_dir():
        return FontePasta(caminho, estavel_s=estavel_s, fim_forcado=fim)
    if caminho.is_file():
        return FonteArquivo(caminho)
    raise ErroFonte(f"fonte {fonte!r} não existe (use uma pasta, um arquivo de áudio ou uma URL HLS)")


@dataclass(frozen=True)
class Passo:
    """What the loop does next.

    acao: "processar" (segmento), "ausente" (skip the missing `seq`), "esperar" or "fim".
    descartar: segments offered again or too late, to log once and ignore.
    """

    acao: str
    segmento: SegmentoDisponivel | None = None
    seq: int | None = None
    descartar: tuple[SegmentoDisponivel, ...] = ()


def planejar(
    disponiveis: Iterable[SegmentoDisponivel],
    proximo_seq: int | None,
    ja_vistos: set[str],
    lacuna_vencida: bool,
    encerrada: bool,
) -> Passo:
    """Decide the next step.

    `proximo_seq` is the sequence number expected next (None before the first segment);
    `ja_vistos` the names already handled (processed or discarded); `lacuna_vencida` whether the
    expected segment has been awaited long enough while later ones are ready.
    """
    lista = sorted(disponiveis, key=lambda s: (s.seq, s.nome))
    descartar = tuple(
        s for s in lista if s.nome not in ja_vistos and proximo_seq is not None and s.seq < proximo_seq
    )
    novos = [s for s in lista if s.nome not in ja_vistos and (proximo_seq is None or s.seq >= proximo_seq)]
    if not novos:
        return Passo("fim" if encerrada else "esperar", descartar=descartar)
    primeiro = novos[0]
    esperado = primeiro.seq if proximo_seq is None else proximo_seq
    if primeiro.seq == esperado:
        if primeiro.pronto:
            return Passo("processar", segmento=primeiro, descartar=descartar)
        return Passo("esperar", descartar=descartar)
    # The expected segment is missing but later ones exist: wait, then give up on it.
    if (lacuna_vencida or encerrada) and primeiro.pronto:
        return Passo("ausente", seq=esperado, descartar=descartar)
    return Passo("esperar", descartar=descartar)
