"""Storage of a debate folder (`data/debates/<id>/`): reading the inputs, writing stages atomically.

Inputs (pinned in PINS.md): `debate.toml`, `transcricao.jsonl` (append-only, written by the audio
job), `edicoes.toml` (editor overrides). Every stage output is a JSON file written through
`gravar_json` (temp file + os.replace) and only when its bytes change.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import hashlib
import json
import math
import os
import re
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jobs.debate.confianca import MedidaPalavra, Medidas, palavra_de_json
from jobs.debate.confianca import de_json as medidas_de_json
from site_builder.conteudo.frontmatter import aninhamento_excessivo

PAPEIS = ("candidato", "moderador", "jornalista", "eleitor")
PAPEIS_QUE_PERGUNTAM = ("moderador", "jornalista", "eleitor")
TIPOS_BLOCO = ("pergunta_jornalista", "confronto", "eleitor", "direito_de_resposta", "consideracoes_finais")
ID_DEBATE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

ARQ_DEBATE = "debate.toml"
ARQ_TRANSCRICAO = "transcricao.jsonl"
ARQ_EDICOES = "edicoes.toml"
ARQ_CONFERENCIA = "transcricao-conferida.json"  # fingerprint of the last transcript used
# Bounds of a transcript line (hostile or broken input must not stall a cycle): a debate is never
# longer than a day, an utterance of the audio job is at most ~45 s (~150 words, ~1 kB of text,
# ~10 kB with its word times); a hand-made transcript may hold a whole answer per line.
TEMPO_MAX_S = 24 * 3600.0
LINHA_MAX_BYTES = 256 * 1024
TEXTO_MAX = 20_000


class ErroDebate(ValueError):  # noqa: N818 - Portuguese name, like ErroAnalise
    """A debate folder that cannot be processed; the message is in Portuguese."""


@dataclass(frozen=True)
class Participante:
    """One voice of the debate as the program lists it."""

    locutor: str
    nome: str
    papel: str
    candidato: str


@dataclass(frozen=True)
class Bloco:
    """One block of the debate program, in video seconds."""

    nome: str
    tipo: str
    inicio_s: float
    fim_s: float


@dataclass(frozen=True)
class Debate:
    """The description of a debate (`debate.toml`)."""

    id: str
    titulo: str
    data: dt.date
    emissora: str
    demonstracao: bool
    participantes: tuple[Participante, ...]
    blocos: tuple[Bloco, ...] = ()
    encerrado: bool = False
    # When the broadcast started (`inicio`, with its UTC offset): a recording's scoreboard is dated on
    # the debate's own timeline (start + the transcript's last second), not the machine's clock.
    inicio: dt.datetime | None = None

    def candidatos(self) -> dict[str, str]:
        """Candidate id -> name, in program order."""
        return {p.candidato: p.nome for p in self.participantes if p.papel == "candidato" and p.candidato}


@dataclass(frozen=True)
class Palavra:
    """One word with its video times (optional in the transcript)."""

    p: str
    inicio_s: float
    fim_s: float
    medida: MedidaPalavra | None = None  # the machine's confidence in this word (None: not stored)


@dataclass(frozen=True)
class Fala:
    """One utterance of the transcript."""

    id: str
    inicio_s: float
    fim_s: float
    locutor: str
    texto: str
    palavras: tuple[Palavra, ...] = ()
    confianca: Medidas | None = None  # the machine transcription's confidence (None: not measured)

    @property
    def duracao_s(self) -> float:
        """Length of the utterance in seconds."""
        return max(0.0, self.fim_s - self.inicio_s)


def _texto(obj: dict[str, Any], chave: str, onde: str, obrigatorio: bool = True) -> str:
    valor = obj.get(chave, None if obrigatorio else "")
    if not isinstance(valor, str) or (obrigatorio and not valor.strip()):
        raise ErroDebate(f"{onde}: {chave}: campo obrigatório, deve ser um texto não vazio")
    return valor.strip()


def _numero(obj: dict[str, Any], chave: str, onde: str) -> float:
    valor = obj.get(chave)
    if isinstance(valor, bool) or not isinstance(valor, int | float) or not math.isfinite(valor) or valor < 0:
        raise ErroDebate(f"{onde}: {chave}: deve ser um número de segundos não negativo")
    if valor > TEMPO_MAX_S:
        raise ErroDebate(f"{onde}: {chave}: {valor:g} s passa de 24 horas; tempo impossível num debate")
    return float(valor)


def ler_toml(caminho: Path) -> dict[str, Any]:
    """A TOML file as a dict; ErroDebate with the file name when it is invalid."""
    try:
        return tomllib.loads(caminho.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ErroDebate(f"{caminho}: arquivo não encontrado") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ErroDebate(f"{caminho}: TOML inválido: {exc}") from exc
    except RecursionError as exc:  # tomllib recurses once per level of nested lists and tables
        raise ErroDebate(f"{caminho}: TOML inválido: {aninhamento_excessivo()}") from exc


def ler_debate(pasta: Path) -> Debate:
    """Read and validate `debate.toml`; raises ErroDebate naming the field."""
    caminho = pasta / ARQ_DEBATE
    onde = str(caminho)
    dados = ler_toml(caminho)
    if not ID_DEBATE.match(pasta.name):
        raise ErroDebate(f"{pasta}: nome de pasta inválido para um debate (use a-z, 0-9 e '-')")
    data = dados.get("data")
    if isinstance(data, dt.datetime):
        data = data.date()
    if isinstance(data, str):
        try:
            data = dt.date.fromisoformat(data)
        except ValueError as exc:
            raise ErroDebate(f"{onde}: data: use o formato AAAA-MM-DD") from exc
    if not isinstance(data, dt.date):
        raise ErroDebate(f"{onde}: data: campo obrigatório (AAAA-MM-DD)")
    participantes = []
    vistos: set[str] = set()
    brutos = dados.get("participantes", [])
    if not isinstance(brutos, list) or not brutos:
        raise ErroDebate(f"{onde}: participantes: liste ao menos um [[participantes]]")
    for i, p in enumerate(brutos):
        w = f"{onde}: participantes[{i}]"
        if not isinstance(p, dict):
            raise ErroDebate(f"{w}: deve ser uma tabela")
        papel = _texto(p, "papel", w)
        if papel not in PAPEIS:
            raise ErroDebate(f"{w}: papel: '{papel}' não existe (use {', '.join(PAPEIS)})")
        locutor = _texto(p, "locutor", w)
        if locutor in vistos:
            raise ErroDebate(f"{w}: locutor: '{locutor}' aparece duas vezes")
        vistos.add(locutor)
        candidato = _texto(p, "candidato", w, obrigatorio=False)
        if papel == "candidato" and not candidato:
            raise ErroDebate(f"{w}: candidato: obrigatório quando o papel é candidato")
        if papel != "candidato" and candidato:
            raise ErroDebate(f"{w}: candidato: só se preenche quando o papel é candidato")
        participantes.append(Participante(locutor, _texto(p, "nome", w), papel, candidato))
    blocos = []
    brutos_b = dados.get("blocos", [])
    if not isinstance(brutos_b, list):
        raise ErroDebate(f"{onde}: blocos: deve ser uma lista de [[blocos]]")
    for i, b in enumerate(brutos_b):
        w = f"{onde}: blocos[{i}]"
        if not isinstance(b, dict):
            raise ErroDebate(f"{w}: deve ser uma tabela")
        tipo = _texto(b, "tipo", w)
        if tipo not in TIPOS_BLOCO:
            raise ErroDebate(f"{w}: tipo: '{tipo}' não existe (use {', '.join(TIPOS_BLOCO)})")
        inicio, fim = _numero(b, "inicio_s", w), _numero(b, "fim_s", w)
        if fim <= inicio:
            raise ErroDebate(f"{w}: fim_s deve ser maior que inicio_s")
        blocos.append(Bloco(_texto(b, "nome", w, obrigatorio=False) or tipo, tipo, inicio, fim))
    demonstracao = dados.get("demonstracao", False)
    encerrado = dados.get("encerrado", False)
    if not isinstance(demonstracao, bool) or not isinstance(encerrado, bool):
        raise ErroDebate(f"{onde}: demonstracao e encerrado devem ser true ou false")
    transmissao = dados.get("inicio")
    if transmissao is not None and not (
        isinstance(transmissao, dt.datetime) and transmissao.utcoffset() is not None
    ):
        raise ErroDebate(f"{onde}: inicio: use data e hora com fuso (ex.: 2026-10-25T21:00:00-03:00)")
    return Debate(
        id=pasta.name,
        titulo=_texto(dados, "titulo", onde),
        data=data,
        emissora=_texto(dados, "emissora", onde, obrigatorio=False),
        demonstracao=demonstracao,
        participantes=tuple(participantes),
        blocos=tuple(sorted(blocos, key=lambda b: b.inicio_s)),
        encerrado=encerrado,
        inicio=transmissao,
    )


def _fala(obj: Any, onde: str) -> Fala:
    if not isinstance(obj, dict):
        raise ErroDebate(f"{onde}: cada linha deve ser um objeto JSON")
    inicio, fim = _numero(obj, "inicio_s", onde), _numero(obj, "fim_s", onde)
    if fim < inicio:
        raise ErroDebate(f"{onde}: fim_s menor que inicio_s")
    texto = obj.get("texto")
    if not isinstance(texto, str):
        raise ErroDebate(f"{onde}: texto: deve ser um texto")
    if len(texto) > TEXTO_MAX:
        raise ErroDebate(f"{onde}: texto: {len(texto)} caracteres, mais que o limite de {TEXTO_MAX}")
    palavras = []
    brutas = obj.get("palavras") or []
    if isinstance(brutas, list):
        for p in brutas:
            if isinstance(p, dict) and isinstance(p.get("p"), str):
                with contextlib.suppress(ErroDebate):
                    palavras.append(
                        Palavra(
                            p["p"],
                            _numero(p, "inicio_s", onde),
                            _numero(p, "fim_s", onde),
                            palavra_de_json(p),
                        )
                    )
    return Fala(
        _texto(obj, "id", onde),
        inicio,
        fim,
        _texto(obj, "locutor", onde),
        texto.strip(),
        tuple(palavras),
        medidas_de_json(obj.get("confianca")),
    )


def ler_transcricao(pasta: Path) -> tuple[list[Fala], list[str]]:
    """Utterances of `transcricao.jsonl` in time order, and warnings for lines that were skipped.

    A last line without its newline is being written by the audio job: it is left for the next
    cycle without a warning. A bad line elsewhere is skipped with a warning; nothing is lost,
    since the file itself is never rewritten here.
    """
    leitura = ler_transcricao_bruta(pasta)
    return leitura.falas, leitura.avisos


@dataclass(frozen=True)
class LeituraTranscricao:
    """What one reading of the transcript found, and its fingerprint for the next reading."""

    falas: list[Fala]
    avisos: list[str]
    conferencia: dict[str, Any]  # bytes and sha256 of the complete lines, ids read (ARQ_CONFERENCIA)
    completo: bytes = b""  # the complete lines as read


def ler_transcricao_bruta(pasta: Path) -> LeituraTranscricao:
    """Read `transcricao.jsonl` (see `ler_transcricao`) with the fingerprint of its complete lines."""
    caminho = pasta / ARQ_TRANSCRICAO
    try:
        bruto = caminho.read_bytes()
    except FileNotFoundError:
        vazia = {"bytes": 0, "sha256": hashlib.sha256().hexdigest(), "ids": [], "binario": False}
        return LeituraTranscricao([], [], vazia)
    completo = bruto[: bruto.rfind(b"\n") + 1]  # after the last newline: a line still being written
    avisos: list[str] = []
    falas: list[Fala] = []
    vistos: set[str] = set()
    for numero, linha in enumerate(completo.split(b"\n")[:-1], start=1):
        if not linha.strip():
            continue
        onde = f"{caminho.name}, linha {numero}"
        if len(linha) > LINHA_MAX_BYTES:
            limite = f"{len(linha)} bytes, mais que o limite de {LINHA_MAX_BYTES}"
            avisos.append(f"{onde}: {limite}; linha ignorada")
            continue
        try:
            fala = _fala(json.loads(linha.decode("utf-8")), onde)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            avisos.append(f"{onde}: JSON inválido; linha ignorada")
            continue
        except ErroDebate as exc:
            avisos.append(f"{exc}; linha ignorada")
            continue
        if fala.id in vistos:
            avisos.append(f"{onde}: id '{fala.id}' repetido; linha ignorada")
            continue
        vistos.add(fala.id)
        falas.append(fala)
    falas.sort(key=lambda f: (f.inicio_s, f.fim_s))
    conferencia = {
        "bytes": len(completo),
        "sha256": hashlib.sha256(completo).hexdigest(),
        "ids": sorted(vistos),
        "binario": b"\x00" in completo,
    }
    return LeituraTranscricao(falas, avisos, conferencia, completo)


def recusa_transcricao(leitura: LeituraTranscricao, anterior: Any, falas_antes: int) -> str | None:
    """Why the transcript just read must not be used (Portuguese), or None when it may.

    `anterior` is the fingerprint of the last transcript used (`transcricao-conferida.json`);
    `falas_antes` the number of utterances the last good cycle had (for folders from before the
    fingerprint existed). The audio job only appends: a transcript that shrank, lost or changed
    lines already read, or turned binary is damaged, and rebuilding the stages from it would
    publish a wrong scoreboard.
    """
    atual = leitura.conferencia
    if atual["binario"]:
        return "a transcrição contém dados binários (bytes nulos)"
    if isinstance(anterior, dict) and isinstance(anterior.get("bytes"), int):
        tamanho = int(anterior["bytes"])
        if atual["bytes"] < tamanho:
            return f"a transcrição encolheu de {tamanho} para {atual['bytes']} bytes"
        if hashlib.sha256(leitura.completo[:tamanho]).hexdigest() != anterior.get("sha256"):
            return "linhas já lidas da transcrição foram alteradas (a transcrição só pode crescer)"
        perdidas = sorted(set(map(str, anterior.get("ids", []))) - set(atual["ids"]))
        if perdidas:
            return f"a transcrição perdeu {len(perdidas)} fala(s) já lida(s) (por exemplo {perdidas[0]})"
        return None
    if len(leitura.falas) < falas_antes:
        legiveis = len(leitura.falas)
        return f"a transcrição tem {legiveis} fala(s) legível(is); o último ciclo tinha {falas_antes}"
    return None


def _padrao(obj: Any) -> Any:
    if isinstance(obj, dt.date | dt.datetime):
        return obj.isoformat()
    raise TypeError(f"não serializável: {type(obj).__name__}")


def json_bytes(dados: Any) -> bytes:
    """Canonical JSON bytes of a stage (stable key order, UTF-8, final newline)."""
    return (json.dumps(dados, ensure_ascii=False, indent=1, sort_keys=False, default=_padrao) + "\n").encode()


def gravar_atomico(caminho: Path, dados: bytes) -> None:
    """Write bytes durably: a temporary file in the same folder, fsync, then an atomic rename."""
    caminho.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{caminho.name}.", suffix=".tmp", dir=caminho.parent)
    try:
        with os.fdopen(fd, "wb") as arquivo:
            arquivo.write(dados)
            arquivo.flush()
            os.fsync(arquivo.fileno())
        Path(tmp).replace(caminho)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def gravar_bytes(caminho: Path, dados: bytes) -> bool:
    """Write atomically only when the bytes differ; True if the file changed."""
    try:
        if caminho.read_bytes() == dados:
            return False
    except FileNotFoundError:
        pass
    gravar_atomico(caminho, dados)
    return True


def gravar_json(caminho: Path, dados: Any) -> bool:
    """Write a stage as canonical JSON, atomically; True if the file changed."""
    return gravar_bytes(caminho, json_bytes(dados))


def ler_json(caminho: Path) -> Any:
    """A stored stage, or None when absent or unreadable (it is then recomputed)."""
    try:
        return json.loads(caminho.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return None


def chave(*partes: str) -> str:
    """Checksum identifying the inputs of a cached stage result."""
    return hashlib.sha256("\x1f".join(partes).encode("utf-8")).hexdigest()[:20]


@contextlib.contextmanager
def trava(pasta: Path) -> Iterator[None]:
    """Exclusive lock per debate folder, so the audio job and the editor never update at once."""
    nome = hashlib.sha256(str(pasta.resolve()).encode()).hexdigest()[:16]
    caminho = Path(tempfile.gettempdir()) / f"eleicoes-debate-{nome}.lock"
    with caminho.open("a") as arquivo:
        fcntl.flock(arquivo.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(arquivo.fileno(), fcntl.LOCK_UN)
