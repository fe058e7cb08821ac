"""Projection pages (issue 4): one page per race from `data/tse/`, its API JSON and its history.

Phase 1 (`collect`) reads the stored model outputs into typed records; phase 2 (`plan`) turns
them into artifacts. Nothing here computes the projection: the pages show `saida.json` as stored.

Layout read (PINS.md, written by the polling job):
`data/tse/<eleicao>/<presidente|governador-uf>/<captura UTC YYYY-MM-DDTHH-MM-SSZ>/` holding the raw
TSE files, `captura.json` and `saida.json`, plus `data/tse/<eleicao>/<race>/latest` (the name of
the newest published capture). The pointer is the job's commit point: captures newer than it are
not shown yet. A capture whose `saida.json` is missing or unreadable is skipped with a warning, and
the race keeps showing the last good one.

Published (stable URLs; `<id>` = `<eleicao>-<race folder>`, e.g. `6258-presidente`):
  /projecao/                                   the races and their headlines (section page)
  /projecao/<id>/                              the race: partial, projection or unmet criteria, chart...
  /projecao/<id>/capturas/                     every stored reading
  /projecao/<id>/capturas/<captura>/           one reading: its files, SHA-256 and the rerun commands
  /projecao/<id>/capturas/<captura>/<arquivo>  the stored bytes (raw TSE files, captura.json, saida.json)
  /projecao/<id>/capturas/<captura>/SHA256SUMS `sha256sum -c` list of that reading's files
  /api/projecao/<id>.json                      the latest reading's saida.json keys, plus
                                               `ultima_publicavel` (its last publishable reading)
  /api/projecao/index.json                     races, latest capture, publishable or not, URLs

Incremental: every file is a source identified by checksum (through the build cache, so an
unchanged night costs one `stat` per file); each race's artifacts are fingerprinted only with that
race's checksums, so a new reading re-renders that race's pages (plus the listings that show its
headline) and copies only the new capture's files.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from site_builder import cores, jsonld, projecao_view, share_image
from site_builder.artifact import Artifact, raw, w3c
from site_builder.conteudo.registros import Fonte
from site_builder.errors import BuildError
from site_builder.projecao_dados import (
    SECTION_URL,
    TSE_DIR,
    UF_NOMES,
    Arquivo,
    Captura,
    Corrida,
    Leitura,
    Resumo,
    SaidaInvalidaError,
    display_names,
    municipality_names,
    parse_saida,
    renamed_capture,
    renamed_reading,
    summarise,
)
from site_builder.reader import Reader, fingerprint

if TYPE_CHECKING:
    from site_builder.records import SiteContext

__all__ = ["Corrida", "collect", "headline_keys", "headlines", "plan", "section_context"]

T = TypeVar("T")

LATEST = "latest"
SAIDA = "saida.json"
CAPTURA = "captura.json"
COMMIT = re.compile(r"^[0-9a-f]{40}$")
UNSIGNED = ("ausente", "não verificada")  # captura.json "assinatura" of a reading used without a .jws
CHECKSUMS = "SHA256SUMS"
API_INDEX = "api/projecao/index.json"
CAPTURE_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$")
RACE_NAME = re.compile(r"^(?:presidente|governador-(?P<uf>[a-z]{2}))$")
ELECTION_NAME = re.compile(r"^[0-9]{1,6}$")
CATALOGUE_NAME = re.compile(r"^mun-e\d{6}-cm\.json$")
FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")  # published as is: nothing a URL would mangle


# --- phase 1: reading ------------------------------------------------------------------------


def _source(reader: Reader, rel: str, parse: Callable[[bytes], T]) -> tuple[T, str] | None:
    """Like `reader.parse`, but bad bytes never fail the build (`parse` must not raise).

    The file is recorded as a source (checksum) and its parse result cached; None (with a warning)
    only when the file cannot be read at all.
    """
    full = f"{reader.root}/{rel}"
    try:
        digest, data, cached = reader.cache.read(full, rel)
    except OSError as exc:
        reader.avisos.append(f"{rel}: não foi possível ler o arquivo ({exc.strerror or exc})")
        return None
    reader.fontes.append(Fonte(rel, digest))
    if cached is not None:
        return cached.parsed, digest
    assert data is not None
    parsed = parse(data)
    with contextlib.suppress(OSError):  # vanished after being read: the next build will not see it
        reader.cache.store(full, rel, digest, parsed)
    return parsed, digest


class FileInfo(NamedTuple):
    """What the pages need from one file of a capture."""

    tamanho: int
    simulado: bool  # a TSE file that says it comes from a simulation (`"f": "s"`)
    commit: str | None  # captura.json: the commit of the model's code that made the reading
    sem_assinatura: int  # captura.json: readings used without a verified `.jws`


def _file_info(data: bytes) -> FileInfo:
    """One parser for every file of a capture: the build cache keeps one parse result per file,
    so two parsers of the same file would read each other's cached result."""
    root: Any = None
    if data[:1] in (b"{", b"\n", b" "):
        try:
            root = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            root = None
    if not isinstance(root, dict):
        return FileInfo(len(data), False, None, 0)
    modelo = root.get("modelo")
    commit = modelo.get("commit") if isinstance(modelo, dict) else None
    valid = isinstance(commit, str) and COMMIT.match(commit) is not None
    arquivos = root.get("arquivos")
    unsigned = sum(
        1
        for e in (arquivos.values() if isinstance(arquivos, dict) else ())
        if isinstance(e, dict) and e.get("status") == 200 and e.get("assinatura") in UNSIGNED
    )
    return FileInfo(len(data), root.get("f") == "s", commit if valid else None, unsigned)


def _pointer(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    return text if CAPTURE_NAME.match(text) else None


def _summary(data: bytes) -> tuple[int, Resumo | str]:
    """(size, the summary of a `saida.json` or the Portuguese reason it cannot be shown): cached."""
    try:
        return len(data), summarise(parse_saida(data))
    except SaidaInvalidaError as exc:
        return len(data), str(exc)


def _entries(folder: str) -> list[tuple[str, bool]]:
    """(name, is a folder) of the entries of `folder`, sorted; [] when it does not exist."""
    try:
        with os.scandir(folder) as it:
            return sorted((e.name, e.is_dir()) for e in it)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _capture(reader: Reader, folder: str, race: tuple[str, str, str]) -> Captura | None:
    """One capture folder; None (with a warning) when its output cannot be shown."""
    files = [n for n, is_dir in _entries(f"{reader.root}/{folder}") if not is_dir and FILE_NAME.match(n)]
    if SAIDA not in files:
        reader.avisos.append(f"{folder}: leitura sem {SAIDA}; ignorada (o site mantém a anterior)")
        return None
    read = _source(reader, f"{folder}/{SAIDA}", _summary)
    if read is None:
        return None
    (saida_size, resumo), saida_sha = read
    if isinstance(resumo, str):
        reader.avisos.append(f"{folder}/{SAIDA}: {resumo}; leitura ignorada (o site mantém a anterior)")
        return None
    if (resumo.eleicao, resumo.cargo, resumo.uf) != race:
        reader.avisos.append(
            f"{folder}/{SAIDA}: a saída é de outra disputa (eleição {resumo.eleicao}, {resumo.cargo}, "
            f"{resumo.uf}); leitura ignorada"
        )
        return None
    simulated = False
    commit = None
    unsigned = 0
    arquivos = []
    for name in files:
        rel = f"{folder}/{name}"
        if name == SAIDA:
            arquivos.append(Arquivo(name, rel, saida_sha, saida_size))
            continue
        got = _source(reader, rel, _file_info)
        if got is not None:
            info, digest = got
            arquivos.append(Arquivo(name, rel, digest, info.tamanho))
            simulated = simulated or (info.simulado and name.endswith(("-u.json", "-v.json")))
            if name == CAPTURA:
                commit, unsigned = info.commit, info.sem_assinatura
    return Captura(
        folder.rsplit("/", 1)[-1],
        saida_sha,
        resumo,
        tuple(arquivos),
        simulated or resumo.demonstracao,
        commit,
        unsigned,
    )


def _full(reader: Reader, rel: str, captura: Captura, nome: Callable[[str], str]) -> Leitura | None:
    """The complete output of one capture (read again: only its summary is cached)."""
    path = f"{rel}/{captura.nome}/{SAIDA}"
    try:
        return renamed_reading(parse_saida(Path(reader.root, path).read_bytes()), nome)
    except (OSError, SaidaInvalidaError) as exc:
        reader.avisos.append(f"{path}: não foi possível ler a saída completa ({exc})")
        return None


def _municipalities(reader: Reader, captura: Captura) -> dict[str, str]:
    """Municipality names from the catalogue kept with the latest capture ({} when it has none)."""
    cm = next((a for a in captura.arquivos if CATALOGUE_NAME.match(a.nome)), None)
    if cm is None:
        return {}
    try:
        return municipality_names(Path(reader.root, cm.caminho).read_bytes())
    except OSError:
        return {}


def _capture_names(reader: Reader, rel: str) -> list[str]:
    """The capture folders to show: every one up to the `latest` pointer."""
    entries = _entries(f"{reader.root}/{rel}")
    names = [n for n, is_dir in entries if is_dir and CAPTURE_NAME.match(n)]
    for n, _ in entries:
        if not n.startswith(".") and n != LATEST and n not in names and ".tmp" not in n:
            reader.avisos.append(f"{rel}/{n}: nome inesperado (esperado AAAA-MM-DDTHH-MM-SSZ); ignorado")
    pointer = _source(reader, f"{rel}/{LATEST}", _pointer) if (LATEST, False) in entries else None
    latest = pointer[0] if pointer is not None else None
    if latest is None:
        reader.avisos.append(f"{rel}/{LATEST}: ponteiro ausente ou inválido; usada a leitura mais recente")
        return names
    if latest not in names:
        reader.avisos.append(f"{rel}/{LATEST}: aponta para {latest}, que não existe; usada a mais recente")
        return names
    return [n for n in names if n <= latest]


def _race(
    reader: Reader, eleicao: str, pasta: str, uf: str | None, nome: Callable[[str], str]
) -> Corrida | None:
    rel = f"{TSE_DIR}/{eleicao}/{pasta}"
    names = _capture_names(reader, rel)
    race = (eleicao, "presidente" if uf is None else "governador", uf or "br")
    capturas = [
        renamed_capture(c, nome) for n in names if (c := _capture(reader, f"{rel}/{n}", race)) is not None
    ]
    atual: Leitura | None = None
    while capturas and atual is None:
        atual = _full(reader, rel, capturas[-1], nome)
        if atual is None:
            capturas.pop()
    if atual is None:
        if names:
            reader.avisos.append(f"{rel}: nenhuma leitura legível; a disputa fica fora do site")
        return None
    publicavel_captura = next((c for c in reversed(capturas) if c.resumo.publicavel), None)
    publicavel = atual if publicavel_captura is capturas[-1] else None
    if publicavel_captura is not None and publicavel is None:
        publicavel = _full(reader, rel, publicavel_captura, nome)
        if publicavel is None:
            publicavel_captura = None
    return Corrida(
        municipios=_municipalities(reader, capturas[-1]),
        id=f"{eleicao}-{pasta}",
        eleicao=eleicao,
        pasta=pasta,
        cargo=race[1],
        uf=uf,
        raiz=str(reader.root),
        capturas=tuple(capturas),
        atual=atual,
        publicavel=publicavel,
        publicavel_captura=publicavel_captura,
    )


def _order(corrida: Corrida) -> tuple[int, bool, str, str]:
    # The runoff first, the president before the governors, then by state.
    return (-corrida.atual.turno, corrida.cargo != "presidente", corrida.uf or "", corrida.eleicao)


def collect(reader: Reader, candidatos: Iterable[str] = ()) -> tuple[Corrida, ...]:
    """The races with stored readings under `data/tse/`; problems become warnings, never errors.

    `candidatos` are the names the candidate files write: a TSE name that matches one is shown
    as the file writes it.
    """
    nome = display_names(candidatos)
    corridas: list[Corrida] = []
    for eleicao, is_dir in _entries(f"{reader.root}/{TSE_DIR}"):
        if not is_dir or eleicao.startswith("."):
            continue
        if not ELECTION_NAME.match(eleicao):
            reader.avisos.append(f"{TSE_DIR}/{eleicao}: esperado o código numérico da eleição; ignorado")
            continue
        for pasta, race_is_dir in _entries(f"{reader.root}/{TSE_DIR}/{eleicao}"):
            if not race_is_dir or pasta.startswith("."):
                continue
            match = RACE_NAME.match(pasta)
            if match is None or (match["uf"] is not None and match["uf"] not in UF_NOMES):
                reader.avisos.append(
                    f"{TSE_DIR}/{eleicao}/{pasta}: disputa desconhecida (use presidente ou governador-<uf>)"
                )
                continue
            corrida = _race(reader, eleicao, pasta, match["uf"], nome)
            if corrida is not None:
                corridas.append(corrida)
    return tuple(sorted(corridas, key=_order))


# --- phase 2: planning -----------------------------------------------------------------------


def _bytes_of(root: str, rel: str) -> Callable[[], bytes]:
    def read() -> bytes:
        try:
            return Path(root, rel).read_bytes()
        except OSError as exc:
            raise BuildError(f"{rel}: o arquivo sumiu durante o build ({exc.strerror or exc})") from exc

    return read


def race_key(corrida: Corrida) -> str:
    """Everything a race's pages show, as a checksum input (a new reading changes it)."""
    published = corrida.publicavel_captura.nome if corrida.publicavel_captura else "-"
    nomes = [c.nome for c in corrida.atual.candidatos]  # display names come from the candidate files
    return "|".join(
        [
            corrida.id,
            published,
            *nomes,
            *(f"{c.nome}:{c.saida_sha256}:{c.sem_assinatura}" for c in corrida.capturas),
        ]
    )


def section_lastmod(ctx: SiteContext) -> str | None:
    """When the newest reading of any race was taken (the listings show every race's latest)."""
    return max((w3c(c.ultima.hora) for c in ctx.projecoes), default=None)


def headline_keys(ctx: SiteContext) -> list[str]:
    """Checksum inputs of the listings that show each race's headline (home, section, API index)."""
    keys = []
    for c in ctx.projecoes:
        published = c.publicavel_captura.saida_sha256 if c.publicavel_captura else "-"
        nomes = ",".join(x.nome for x in c.atual.candidatos)
        keys.append(f"{c.id}|{c.titulo}|{c.ultima.nome}|{c.ultima.saida_sha256}|{published}|{nomes}")
    return keys


def _page(
    ctx: SiteContext,
    path: str,
    template: str,
    key: str,
    trilha: list[tuple[str, str]],
    build: Callable[[], dict[str, Any]],
    *,
    sitemap: bool = True,
    lastmod: str | None = None,
) -> Artifact:
    def context() -> dict[str, Any]:
        data = build()
        data["trilha"] = trilha
        data["jsonld"] = jsonld.webpage(ctx.config, trilha[-1][1], data["titulo"], data["descricao"], trilha)
        return data

    return Artifact(path, template, key, context, sitemap=sitemap, lastmod=lastmod)


def _race_artifacts(ctx: SiteContext, corrida: Corrida, others: list[str]) -> list[Artifact]:
    fp = fingerprint
    # a candidate file's colour shows on the race's pages and share image
    colour = cores.colour_by_name(ctx.candidatos.values())
    key = fingerprint(race_key(corrida), *(f"{nome}:{cor}" for nome, cor in sorted(colour.items())))
    trilha = [("Início", "/"), ("Projeção", SECTION_URL), (corrida.nome_cargo, corrida.url)]
    historico = [*trilha, ("Histórico", corrida.historico_url)]
    latest = corrida.ultima
    artifacts = [
        _page(
            ctx,
            corrida.url.lstrip("/") + "index.html",
            "projecao_corrida.html",
            fp(key, *others),
            trilha,
            lambda: projecao_view.race_page(ctx, corrida),
            lastmod=w3c(latest.hora),
        ),
        _page(
            ctx,
            corrida.historico_url.lstrip("/") + "index.html",
            "projecao_historico.html",
            fp(key),
            historico,
            lambda: projecao_view.history_page(ctx, corrida),
            lastmod=w3c(latest.hora),
        ),
        raw(
            corrida.api_url.lstrip("/"),
            fingerprint(
                latest.saida_sha256,
                corrida.publicavel_captura.saida_sha256 if corrida.publicavel_captura else "-",
                ctx.config.url_base,
            ),
            lambda: _api(ctx, corrida),
        ),
        share_image.artifact(projecao_view.share_url(corrida), projecao_view.share_card(ctx, corrida)),
    ]
    previous: Captura | None = None
    for captura in corrida.capturas:
        artifacts += _capture_artifacts(ctx, corrida, captura, previous, historico)
        previous = captura
    return artifacts


def _api(ctx: SiteContext, corrida: Corrida) -> bytes:
    """The race's API JSON: the latest `saida.json` plus its last publishable reading."""
    latest = _bytes_of(corrida.raiz, f"{corrida.dados}/{corrida.ultima.nome}/{SAIDA}")()
    published = corrida.publicavel_captura
    other = None
    if published is not None:
        other = _bytes_of(corrida.raiz, f"{corrida.dados}/{published.nome}/{SAIDA}")()
    return projecao_view.api_race(ctx, corrida, latest, other)


def _reading(corrida: Corrida, captura: Captura) -> Leitura | None:
    """One capture's complete output for its page (None when it cannot be read again), with the
    candidates' names as the race's pages write them."""
    try:
        leitura = parse_saida(Path(corrida.raiz, corrida.dados, captura.nome, SAIDA).read_bytes())
    except (OSError, SaidaInvalidaError):
        return None
    nomes = {c.numero: c.nome for c in corrida.atual.candidatos}
    shown = {c.nome: nomes.get(c.numero, c.nome) for c in leitura.candidatos}
    return renamed_reading(leitura, lambda nome: shown.get(nome, nome))


def _capture_artifacts(
    ctx: SiteContext,
    corrida: Corrida,
    captura: Captura,
    previous: Captura | None,
    trilha: list[tuple[str, str]],
) -> list[Artifact]:
    url = corrida.captura_url(captura)
    base = url.lstrip("/")
    files = [raw(base + a.nome, a.sha256, _bytes_of(corrida.raiz, a.caminho)) for a in captura.arquivos]
    sums = projecao_view.checksums(captura)
    files.append(raw(base + CHECKSUMS, fingerprint(sums.decode("utf-8")), lambda: sums))
    page = _page(
        ctx,
        base + "index.html",
        "projecao_captura.html",
        fingerprint(
            corrida.id,
            corrida.titulo,
            previous.nome if previous else "-",
            *(f"{a.nome}:{a.sha256}" for a in captura.arquivos),
            *(f"{c.numero}:{c.nome}" for c in corrida.atual.candidatos),  # display names
            *(f"{nome}:{cor}" for nome, cor in sorted(cores.colour_by_name(ctx.candidatos.values()).items())),
        ),
        [*trilha, (projecao_view.capture_label(ctx, captura), url)],
        lambda: projecao_view.capture_page(ctx, corrida, captura, previous, _reading(corrida, captura)),
        sitemap=False,  # thousands of data listings: the race page and its history are the entry points
    )
    return [page, *files]


def plan(ctx: SiteContext) -> list[Artifact]:
    """The projection pages, API files and history downloads of every race."""
    others = [f"{c.id}|{c.titulo}" for c in ctx.projecoes]  # each race page links to the others
    artifacts: list[Artifact] = []
    for corrida in ctx.projecoes:
        artifacts += _race_artifacts(ctx, corrida, others)
    if ctx.projecoes:
        artifacts.append(
            raw(
                API_INDEX,
                fingerprint(ctx.config.url_base, *headline_keys(ctx)),
                lambda: projecao_view.api_index(ctx),
            )
        )
    return artifacts


def headlines(ctx: SiteContext) -> list[dict[str, Any]]:
    """Each race's headline for the home page (empty list when no race has readings)."""
    return projecao_view.headlines(ctx)


def section_context(ctx: SiteContext) -> dict[str, Any]:
    """Extra context of the section page `/projecao/`: the races and their headlines."""
    return projecao_view.section_context(ctx)
