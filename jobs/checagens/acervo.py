"""The desk's archive of captures under `data/redes/`: reading captures, claims and decisions.

Layout (written by `captura.py`, one folder per capture, created atomically):

    data/redes/<candidato>/<captura id>/
        captura.json       manifest: URL, platform, dates, reach, SHA-256 of every other file
        pagina.html        the raw bytes as served (never rendered by the site: untrusted)
        texto.txt          extracted post text (UTF-8)
        metadados.json     OpenGraph / JSON-LD / microdata found by extruct
        arquivo.warc.gz    archived copy (request + response records, readable with warcio)
        midia.*, transcricao.txt   video and its transcript, when a media URL was reachable
        afirmacoes.json    claims found by triage
    data/redes/decisoes.jsonl   editor decisions on claims (occurrence confirmed, draft, discarded)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from site_builder.writer import write_atomic

SEM_CANDIDATO = "sem-candidato"
ID_CAPTURA = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{8}$")
ID_AFIRMACAO = re.compile(r"^(?P<captura>\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{8})-a(?P<n>\d{2,})$")
MANIFESTO = "captura.json"
AFIRMACOES = "afirmacoes.json"
DECISOES = "decisoes.jsonl"
ACOES = ("ocorrencia_confirmada", "rascunho", "descartada")


class DeskError(Exception):
    """A desk job cannot do what was asked; the message is in Portuguese and says why."""


@dataclass(frozen=True)
class CapturaSalva:
    """What the queue, memory and drafts need from a capture manifest."""

    id: str
    candidato: str
    url: str
    plataforma: str
    capturado_em: dt.datetime
    publicado_em: str
    alcance: int | None
    titulo: str
    pasta: Path
    arquivos: dict[str, str]

    def caminho_arquivo(self, raiz_projeto: Path) -> str:
        """The archived copy (WARC) as a path relative to the project root, "" if absent."""
        warc = self.pasta / "arquivo.warc.gz"
        if "arquivo.warc.gz" not in self.arquivos or not warc.exists():
            return ""
        try:
            return warc.resolve().relative_to(raiz_projeto.resolve()).as_posix()
        except ValueError:
            return warc.as_posix()


@dataclass(frozen=True)
class AfirmacaoSalva:
    """A claim found in a capture, with its capture."""

    id: str
    texto: str
    tipo: str
    checabilidade: float
    dano: float
    temas: tuple[str, ...]
    origem: str  # "texto" | "transcricao"
    captura: CapturaSalva


@dataclass(frozen=True)
class Decisao:
    """An editor decision on a claim; the last one for a claim wins."""

    afirmacao: str
    acao: str  # ocorrencia_confirmada | rascunho | descartada
    em: str  # ISO 8601 UTC
    por: str = ""
    checagem: str = ""  # check id (occurrence) or draft path
    nota: str = ""


def sha256(caminho: Path) -> str:
    """Hex SHA-256 of a file, read in blocks."""
    h = hashlib.sha256()
    with caminho.open("rb") as f:
        for bloco in iter(lambda: f.read(1 << 20), b""):
            h.update(bloco)
    return h.hexdigest()


def json_bytes(dados: Any) -> bytes:
    """Stable UTF-8 JSON (sorted keys, indented, final newline) for files kept in git."""
    return (json.dumps(dados, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")


def _data(valor: Any) -> dt.datetime:
    if isinstance(valor, str):
        try:
            data = dt.datetime.fromisoformat(valor.replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            return data if data.tzinfo else data.replace(tzinfo=dt.UTC)
    return dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def json_lista_bytes(cabecalho: dict[str, Any], chave: str, itens: list[Any]) -> bytes:
    """JSON with one list item per line (diff-friendly and fast: the C encoder does each line)."""
    cabeca = {k: v for k, v in cabecalho.items() if k != chave}
    linhas = [json.dumps(item, ensure_ascii=False, sort_keys=True) for item in itens]
    campos = [
        f" {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
        for k, v in sorted(cabeca.items())
    ]
    lista = (
        f" {json.dumps(chave)}: [\n  " + ",\n  ".join(linhas) + "\n ]"
        if linhas
        else f" {json.dumps(chave)}: []"
    )
    return ("{\n" + ",\n".join([*campos, lista]) + "\n}\n").encode("utf-8")


def ler_captura(pasta: Path) -> CapturaSalva:
    """The manifest of one capture folder; DeskError when it is missing or malformed."""
    try:
        dados = json.loads((pasta / MANIFESTO).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DeskError(f"{pasta / MANIFESTO}: manifesto ilegível: {exc}") from exc
    if not isinstance(dados, dict) or not isinstance(dados.get("url"), str):
        raise DeskError(f"{pasta / MANIFESTO}: manifesto sem 'url'")
    alcance = dados.get("alcance")
    arquivos = dados.get("arquivos", {})
    return CapturaSalva(
        id=str(dados.get("id", pasta.name)),
        candidato=str(dados.get("candidato", "")),
        url=dados["url"],
        plataforma=str(dados.get("plataforma", "outra")),
        capturado_em=_data(dados.get("capturado_em")),
        publicado_em=str(dados.get("publicado_em", "")),
        alcance=alcance if isinstance(alcance, int) and not isinstance(alcance, bool) else None,
        titulo=str(dados.get("titulo", "")),
        pasta=pasta,
        arquivos={str(k): str(v) for k, v in arquivos.items()} if isinstance(arquivos, dict) else {},
    )


def listar_capturas(raiz: Path) -> tuple[list[CapturaSalva], list[str]]:
    """Every capture under `raiz` (sorted by id) and warnings for folders that cannot be read."""
    capturas: list[CapturaSalva] = []
    avisos: list[str] = []
    if not raiz.is_dir():
        return capturas, avisos
    for pasta_candidato in sorted(p for p in raiz.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for pasta in sorted(p for p in pasta_candidato.iterdir() if p.is_dir() and ID_CAPTURA.match(p.name)):
            try:
                capturas.append(ler_captura(pasta))
            except DeskError as exc:
                avisos.append(str(exc))
    return sorted(capturas, key=lambda c: c.id), avisos


def afirmacoes_de(captura: CapturaSalva) -> list[AfirmacaoSalva]:
    """The claims triage stored for a capture (none when triage has not run)."""
    caminho = captura.pasta / AFIRMACOES
    if not caminho.exists():
        return []
    try:
        dados = json.loads(caminho.read_text(encoding="utf-8"))
        itens = dados["afirmacoes"]
        return [
            AfirmacaoSalva(
                id=str(a["id"]),
                texto=str(a["texto"]),
                tipo=str(a["tipo"]),
                checabilidade=float(a["checabilidade"]),
                dano=float(a["dano"]),
                temas=tuple(str(t) for t in a.get("temas", [])),
                origem=str(a.get("origem", "texto")),
                captura=captura,
            )
            for a in itens
        ]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DeskError(f"{caminho}: arquivo de afirmações ilegível: {exc}") from exc


def todas_afirmacoes(raiz: Path) -> tuple[list[AfirmacaoSalva], list[str]]:
    """Every stored claim under `raiz`, with warnings for unreadable files."""
    capturas, avisos = listar_capturas(raiz)
    saida: list[AfirmacaoSalva] = []
    for captura in capturas:
        try:
            saida.extend(afirmacoes_de(captura))
        except DeskError as exc:
            avisos.append(str(exc))
    return saida, avisos


def achar_captura(raiz: Path, id_captura: str) -> CapturaSalva:
    """The capture with this id; DeskError when it does not exist."""
    if not ID_CAPTURA.match(id_captura):
        raise DeskError(f"id de captura inválido: {id_captura!r} (formato AAAA-MM-DDTHH-MM-SSZ-xxxxxxxx)")
    for pasta in sorted(raiz.glob(f"*/{id_captura}")):
        return ler_captura(pasta)
    raise DeskError(f"captura {id_captura} não encontrada em {raiz}")


def achar_afirmacao(raiz: Path, id_afirmacao: str) -> AfirmacaoSalva:
    """The stored claim with this id; DeskError when it does not exist."""
    m = ID_AFIRMACAO.match(id_afirmacao)
    if not m:
        raise DeskError(f"id de afirmação inválido: {id_afirmacao!r} (formato <id da captura>-a01)")
    for afirmacao in afirmacoes_de(achar_captura(raiz, m["captura"])):
        if afirmacao.id == id_afirmacao:
            return afirmacao
    raise DeskError(f"afirmação {id_afirmacao} não encontrada na captura {m['captura']}")


def ler_decisoes(raiz: Path) -> dict[str, Decisao]:
    """The last decision for each claim id (lines that cannot be read are skipped)."""
    caminho = raiz / DECISOES
    saida: dict[str, Decisao] = {}
    if not caminho.exists():
        return saida
    for linha in caminho.read_text(encoding="utf-8").splitlines():
        try:
            d = json.loads(linha)
            decisao = Decisao(**{k: str(v) for k, v in d.items() if k in Decisao.__dataclass_fields__})
        except (ValueError, TypeError):
            continue
        saida[decisao.afirmacao] = decisao
    return saida


def registrar_decisoes(raiz: Path, novas: Iterable[Decisao]) -> None:
    """Append decisions to `decisoes.jsonl` (the whole file is rewritten atomically)."""
    caminho = raiz / DECISOES
    antigo = caminho.read_bytes() if caminho.exists() else b""
    if antigo and not antigo.endswith(b"\n"):
        antigo += b"\n"
    linhas = b"".join(
        (json.dumps(asdict(d), ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8") for d in novas
    )
    write_atomic(caminho, antigo + linhas)


def agora_iso(agora: dt.datetime | None = None) -> str:
    """An aware datetime (now by default) as ISO 8601 UTC with a Z, to the second."""
    momento = (agora or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).replace(microsecond=0)
    return momento.isoformat().replace("+00:00", "Z")
