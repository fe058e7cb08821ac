"""Phase 1 of the build: read `content/` (and later `data/`) into one typed SiteContext.

Nothing is rendered or written here. Every problem is collected with its file name, in
Portuguese, so an editor sees all of them at once.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
import pickle
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from site_builder import debates, last_good, projecao
from site_builder.config import SiteConfig
from site_builder.conteudo import publicado, regras, texto_seguro
from site_builder.conteudo.editores import ARQUIVO as EDITORES
from site_builder.conteudo.editores import Registro, ler_registro
from site_builder.conteudo.frontmatter import split_body, split_front_matter
from site_builder.conteudo.registros import Candidato, Checagem, ChecagemResumo, Correcao, Fonte
from site_builder.errors import BuildError, ContentError
from site_builder.markdown_cache import FOLDER, CachedRenderer, cache_version
from site_builder.packs import EntryStore
from site_builder.reader import Reader, Recusa, parse_bytes
from site_builder.records import CopiaArquivada, Pagina, SiteContext
from site_builder.state import BuildState
from site_builder.workers import Workers, chunks

T = TypeVar("T")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SECTIONS = ("inicio", "projecao", "debates", "checagens", "metodologia")
PASTA_CHECAGENS = "content/checagens/"


def _stem(rel: str) -> str:
    return rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _page_meta(text: str, path: str) -> dict[str, Any]:
    """The front matter of a section or methodology page, whose body must convert in bounded time
    (a check's body is judged by the content rules)."""
    meta, body = split_front_matter(text, path)
    if excesso := texto_seguro.conversao_excessiva(body):
        linha = text[: len(text) - len(body)].count("\n") + excesso[0]
        raise ContentError(path, excesso[1], linha)
    return meta


def _pagina(reader: Reader, path: str, secao: str) -> Pagina | None:
    parsed = reader.parse(path, _page_meta)
    if parsed is None:
        return None
    meta, fonte = parsed
    slug = _stem(path)
    if not SLUG.match(slug):
        reader.erros.append(f"{fonte.caminho}: nome de arquivo inválido para endereço (use a-z, 0-9 e '-')")
    ordem = meta.get("ordem", 100)
    if not isinstance(ordem, int):
        reader.erros.append(f"{fonte.caminho}: ordem: deve ser um número inteiro")
        ordem = 100
    atualizado = meta.get("atualizado_em")
    if atualizado is None and secao == "metodologia":  # its date in the sitemap and on the page
        reader.erros.append(
            f"{fonte.caminho}: atualizado_em: campo obrigatório: a data da última mudança do texto, "
            "como 2026-10-20"
        )
    elif atualizado is not None and not isinstance(atualizado, dt.date):
        reader.erros.append(f"{fonte.caminho}: atualizado_em: use uma data, como 2026-10-20")
        atualizado = None
    return Pagina(
        secao=secao,
        slug=slug,
        titulo=reader.text_field(meta, "titulo", fonte),
        descricao=reader.text_field(meta, "descricao", fonte),
        ordem=ordem,
        fonte=fonte,
        atualizado_em=atualizado,
    )


@dataclass
class _Aceitas:
    """Isolation of the files whose last accepted version the build keeps (`last_good`): with
    `ativo` (the default build), a broken one is read from its accepted copy, or left out when it
    has none; its problems go into `Reader.recusas` (reported, not raised). `aceitos` collects the
    files accepted in this build (path -> SHA-256), for `last_good.save` once the build commits."""

    ativo: bool
    aceitos: dict[str, str] = field(default_factory=dict)

    def ler(self, reader: Reader, rel: str, read: Callable[[str], T | None], faltando: str = "") -> T | None:
        """What `read(rel)` gives when it records no error; else, isolated, what it gives of the
        accepted copy (None without one). `faltando`: the error of a required file that is missing."""
        antes = len(reader.erros)
        if faltando:
            reader.erros.append(faltando)
            lido = None
        else:
            lido = read(rel)
            if lido is not None and len(reader.erros) == antes:
                fonte = next((f for f in reversed(reader.fontes) if f.caminho == rel), None)
                if fonte is not None:
                    self.aceitos[rel] = fonte.sha256
                return lido
        if not self.ativo:
            return lido
        problemas = reader.erros[antes:]
        copia = last_good.copy_of(reader.root, rel)
        if copia is not None:
            lido_copia = read(f"{last_good.FOLDER}/{rel}")
            if lido_copia is not None and len(reader.erros) == antes + len(problemas):
                nota = f"{rel}: arquivo recusado; o site foi feito com a última versão aceita dele"
                reader.erros.append(nota)
                reader.recusas += [*problemas, nota]
                return lido_copia
            del reader.erros[antes + len(problemas) :]  # a copy the rules no longer accept is not used
        nota = f"{rel}: arquivo recusado e sem versão aceita anterior: ficou de fora do site"
        reader.erros.append(nota)
        reader.recusas += [*problemas, nota]
        return None


def _candidato(reader: Reader, path: str) -> Candidato | None:
    parsed = reader.parse_fonte(path, regras.ler_candidato)
    if parsed is None:
        return None
    lido: regras.CandidatoLido = parsed[0]
    reader.erros += [str(p) for p in lido.problemas]
    return lido.candidato


def _candidatos(reader: Reader, aceitas: _Aceitas) -> dict[str, Candidato]:
    candidatos: dict[str, Candidato] = {}
    for path in _files(reader.root, "content/candidatos", ".toml"):
        candidato = aceitas.ler(reader, path, functools.partial(_candidato, reader))
        if candidato is not None:
            candidatos[candidato.id] = candidato
    return candidatos


# What the build cache keeps per check file: a flat dict of strings, dates and booleans. Such a
# dict is never tracked by the garbage collector, so 10,000 of them unpickle as fast as the
# front matter did (tuples would be tracked and slow every rebuild down).
_SEP = "\x1f"  # between list items: a control character no valid field may contain


def _editores(reader: Reader, aceitas: _Aceitas) -> tuple[Registro, str]:
    """The editors' registry and its checksum ("" when the project has none, or when the default
    build refused it and has no accepted copy: nobody is identified, so the two-person rule
    withholds every check naming editors)."""
    if not (reader.root / EDITORES).is_file():
        return Registro(), ""
    return aceitas.ler(reader, EDITORES, functools.partial(_registro, reader)) or (Registro(), "")


def _registro(reader: Reader, path: str) -> tuple[Registro, str] | None:
    parsed = reader.parse_fonte(path, lambda texto, _fonte: ler_registro(texto))
    if parsed is None:
        return None
    (registro, problemas), fonte = parsed
    reader.erros += [
        f"{EDITORES}:{campo}: {mensagem}" if campo else f"{EDITORES}: {mensagem}"
        for campo, mensagem in problemas
    ]
    return registro, fonte.sha256


# A check as read: what the build cache keeps, and the whole check for its page in this build.
_Lida = tuple[dict[str, Any], Checagem | None]


def _read_checks(
    items: list[tuple[bytes, Fonte]],
    editores: tuple[Registro, str],
    agora: dt.datetime,
    renderer: CachedRenderer | None = None,
    conversoes: Path | None = None,
) -> list[_Lida | Recusa]:
    """Each check file read and judged by the content rules (the unit of work of a build worker:
    the link rules convert each body to Markdown, the costliest part of reading a check; the
    conversion goes into the cache in `conversoes`, where the page's render finds it)."""
    renderer = renderer or CachedRenderer(conversoes)
    read = functools.partial(_read_check, editores=editores, agora=agora, renderer=renderer)
    return [parse_bytes(data, fonte, read) for data, fonte in items]


def _read_check(
    texto: str, fonte: Fonte, editores: tuple[Registro, str], agora: dt.datetime, renderer: CachedRenderer
) -> _Lida:
    lida = regras.ler_checagem(texto, fonte, editores[0], agora, renderer.addresses)
    entry: dict[str, Any] = {"problemas": "\n".join(map(str, lida.problemas)), "editores": editores[1]}
    entry["aprovacao"] = "\n".join(map(str, lida.aprovacao))
    if lida.checagem is not None:
        c = regras.resumo(lida.checagem)
        entry.update(zip(ChecagemResumo._fields[:8], c[:8], strict=True))
        entry["arquivos"] = _SEP.join(c.arquivos)
        entry["tema"] = c.tema
        entry["explicacao_sha256"] = publicado.explicacao_sha256(split_body(texto, fonte.caminho))
        for i, correcao in enumerate(c.correcoes):
            entry[f"correcao{i}"], entry[f"explicacao{i}"] = correcao
    return entry, lida.checagem


def _summary(entry: dict[str, Any], fonte: Fonte) -> ChecagemResumo:
    correcoes: list[Correcao] = []
    while (data := entry.get(f"correcao{len(correcoes)}")) is not None:
        correcoes.append(Correcao(data, entry[f"explicacao{len(correcoes)}"]))
    arquivos = entry["arquivos"]
    return ChecagemResumo(
        entry["id"],
        entry["slug"],
        entry["afirmacao"],
        entry["veredito"],
        entry["candidato"],
        entry["status"],
        entry["publicado_em"],
        entry["demonstracao"],
        tuple(correcoes),
        tuple(arquivos.split(_SEP)) if arquivos else (),
        fonte,
        entry.get("tema", ""),
        entry.get("explicacao_sha256", ""),
    )


CHECKS_CACHE = "checagens"  # `.cache/eleicoes-build/checagens/`: checks as read, by content hash
_CHECKS_FORMAT = 1  # of an entry's pickle


def _check_key(version: str, fonte: Fonte, editores: str) -> str:
    """The cache entry of one check file as read: its path and bytes (their checksum), the
    editors' registry it was judged against, and `version` (the builder's code, the converter)."""
    return hashlib.sha256(f"{version}\0{fonte.caminho}\0{fonte.sha256}\0{editores}".encode()).hexdigest()


def _cached_check(store: EntryStore, key: str) -> _Lida | None:
    """A check as read by an earlier build, or None when absent, corrupt or of another shape."""
    payload = store.get_bytes(key)
    if payload is None:
        return None
    try:
        kept = pickle.loads(payload)  # noqa: S301 - written by this builder, in the project's .cache
    except Exception:  # any damage only means reading the file again
        return None
    if (
        not isinstance(kept, tuple)
        or len(kept) != 3
        or kept[0] != _CHECKS_FORMAT
        or not isinstance(kept[1], dict)
        or not (kept[2] is None or isinstance(kept[2], Checagem))
    ):
        return None
    return kept[1], kept[2]


def _keep_check(store: EntryStore, key: str, lida: _Lida) -> None:
    """Store a check as read when its verdict cannot change with time: one with a problem is
    never stored (a date refused as in the future becomes valid later), so it is read again
    by every build; a check that passed stays passing as the present moves forward."""
    entry, _checagem = lida
    if entry["problemas"]:
        return
    store.put_bytes(key, pickle.dumps((_CHECKS_FORMAT, *lida), protocol=pickle.HIGHEST_PROTOCOL))


# One chunk of check files as consulted: each with its build-cache entry or its bytes, and those
# of them the cache of checks as read held (by path).
_Consultados = tuple[list[tuple[Fonte, Any, bytes | None]], dict[str, _Lida]]


def _checks_read(
    reader: Reader, editores: tuple[Registro, str], completas: dict[str, Checagem], workers: Workers
) -> Iterator[tuple[dict[str, Any], Fonte]]:
    """Every readable check file, in name order, from the build cache, from the cache of checks
    as read (`CHECKS_CACHE`, by content hash: it outlives the output folder) or read by the
    workers (the files neither cache holds go to them a chunk at a time). A fully read check goes
    into `completas`: its page is rendered in this build without reading it again."""
    paths = _files(reader.root, "content/checagens", ".md")
    store = EntryStore(reader.cache.shared(CHECKS_CACHE))
    version = f"{reader.cache.key}\0{cache_version()}"

    def still_valid(entry: dict[str, Any]) -> bool:
        return bool(entry["editores"] == editores[1])  # people are judged by the registry

    def jobs() -> Iterator[tuple[_Consultados, list[tuple[bytes, Fonte]]]]:
        for chunk in chunks(paths):
            consulted = [reader.consult(path, still_valid) for path in chunk]
            kept: dict[str, _Lida] = {}
            todo: list[tuple[bytes, Fonte]] = []
            for fonte, _cached, data in consulted:
                if data is None:
                    continue
                if (hit := _cached_check(store, _check_key(version, fonte, editores[1]))) is not None:
                    kept[fonte.caminho] = hit
                else:
                    todo.append((data, fonte))
            yield (consulted, kept), todo

    conversoes = reader.cache.shared(FOLDER)
    read = functools.partial(
        _read_checks, editores=editores, agora=dt.datetime.now(dt.UTC), conversoes=conversoes
    )
    here = functools.partial(read, renderer=CachedRenderer(conversoes))  # one converter for every file here
    for (consulted, kept), outcomes in workers.map(read, jobs(), len(paths), here):
        fresh = iter(outcomes)
        for fonte, cached, data in consulted:
            if data is None:
                yield cached, fonte
                continue
            lida = kept.get(fonte.caminho)
            if lida is None:
                outcome = next(fresh)
                if isinstance(outcome, Recusa):
                    reader.erros.append(outcome.mensagem)
                    reader.recusas.append(outcome.mensagem)
                    continue
                lida = outcome
                _keep_check(store, _check_key(version, fonte, editores[1]), lida)
            entry, checagem = lida
            reader.remember(fonte, entry)
            if checagem is not None:
                completas[fonte.caminho] = checagem
            yield entry, fonte


def _checagens(
    reader: Reader,
    candidatos: dict[str, Candidato],
    checks: Iterator[tuple[dict[str, Any], Fonte]],
) -> list[ChecagemResumo]:
    """The checks to publish. Drafts are left out unread (seed: "O rascunho nunca é publicado
    sozinho"); a check that breaks a rule fails the build; one without a second person's approval
    is not published (two-person rule, the same function `validar` applies)."""
    lidas: list[ChecagemResumo] = []
    publicaveis: list[ChecagemResumo] = []
    for entry, fonte in checks:
        status = entry.get("status")
        if status == "rascunho":
            continue
        if entry["problemas"]:
            reader.erros += entry["problemas"].split("\n")
            reader.recusas += entry["problemas"].split("\n")
        if status is None:  # unreadable
            continue
        check = _summary(entry, fonte)
        lidas.append(check)
        if status == "publicada" and entry["aprovacao"]:
            reader.avisos += [f"{p} (checagem não publicada)" for p in entry["aprovacao"].split("\n")]
        if regras.publicavel(status, bool(entry["problemas"]), bool(entry["aprovacao"])):
            publicaveis.append(check)
    recusadas: set[str] = set()  # files a rule across files refuses
    for problema in regras.regras_do_conjunto(lidas, candidatos):
        reader.erros.append(str(problema))
        if problema.arquivo.startswith(PASTA_CHECAGENS):
            reader.recusas.append(str(problema))
            recusadas.add(problema.arquivo)
    publicaveis = [c for c in publicaveis if c.fonte is None or c.fonte.caminho not in recusadas]
    publicaveis.sort(key=_publication_order, reverse=True)
    return publicaveis


def _publication_order(check: ChecagemResumo) -> tuple[dt.datetime, str]:
    return (check.publicado_em or EPOCH, check.slug)


EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def _copias(reader: Reader, checagens: list[ChecagemResumo]) -> tuple[CopiaArquivada, ...]:
    """Archived copies of the occurrences of published checks, published as they are under
    /arquivo/. A missing copy only leaves its link out (`validar` is what fails on it)."""
    listings: dict[str, frozenset[str]] = {}  # one listdir per folder, not one stat per missing copy
    copias: dict[str, CopiaArquivada] = {}
    for check in checagens:
        for origem in check.arquivos:
            if origem in copias:
                continue
            folder, _sep, name = origem.rpartition("/")
            if folder not in listings:
                try:
                    listings[folder] = frozenset(os.listdir(f"{reader.root}/{folder}"))  # noqa: PTH208
                except OSError:
                    listings[folder] = frozenset()
            if name not in listings[folder] or os.path.islink(f"{reader.root}/{origem}"):  # noqa: PTH114
                continue  # a link is never followed: `regras.entradas_proibidas` reports it
            fonte = reader.binary(origem)
            if fonte is not None:
                saida = "arquivo/" + origem.removeprefix(regras.PASTA_COPIAS)
                copias[origem] = CopiaArquivada(origem, f"{reader.root}/{origem}", saida, fonte.sha256)
    return tuple(copias[k] for k in sorted(copias))


def _files(root: Path, folder: str, suffix: str) -> list[str]:
    """Files of one content folder as paths relative to `root`, sorted by name; symlinks and
    hidden files are left out (`regras.entradas_proibidas` reports them)."""
    try:
        with os.scandir(root / folder) as it:
            names = sorted(e.name for e in it if not e.is_symlink() and not e.name.startswith("."))
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [f"{folder}/{name}" for name in names if name.endswith(suffix)]


def collect(
    root: Path, config: SiteConfig, cache: BuildState, workers: Workers, *, isolar: bool = False
) -> SiteContext:
    """Read every content file under `root` (the checks with `workers`); raise BuildError listing
    all problems found.

    `isolar`: a problem that refuses one check file only (its rules, a repeated id, an unreadable
    file) leaves that check out instead, listed in `SiteContext.recusas` (the build keeps its last
    published page). So does a problem of a section, methodology or candidate file or of the
    editors' registry: the file's last accepted version is read instead (`last_good`), or, without
    one, the file is left out (its pages keep their last published output; a check naming a
    candidate it held is refused, and without a registry every check naming editors is withheld).
    A symlink or hidden entry under the content is never read, only reported. Every other problem
    still raises.
    """
    reader = Reader(root, config, cache)
    proibidas = [str(p) for p in regras.entradas_proibidas(str(root))]
    reader.erros += proibidas
    # Nothing below reads them (links are never followed, hidden files are skipped), so leaving
    # them out is all that `isolar` needs: the rest of the site is built without them.
    reader.recusas += proibidas
    aceitas = _Aceitas(isolar)
    secoes: dict[str, Pagina] = {}
    for name in SECTIONS:
        path = f"content/secoes/{name}.md"
        faltando = "" if (root / path).exists() else f"{path}: arquivo obrigatório ausente"
        page = aceitas.ler(reader, path, functools.partial(_pagina, reader, secao="secoes"), faltando)
        if page is not None:
            secoes[name] = page
    metodologia = [
        page
        for path in _files(root, "content/metodologia", ".md")
        if (page := aceitas.ler(reader, path, functools.partial(_pagina, reader, secao="metodologia")))
        is not None
    ]
    metodologia.sort(key=lambda p: (p.ordem, p.slug))
    candidatos = _candidatos(reader, aceitas)
    editores = _editores(reader, aceitas)
    completas: dict[str, Checagem] = {}
    checagens = _checagens(reader, candidatos, _checks_read(reader, editores, completas, workers))
    isoladas = set(reader.recusas) if isolar else set()
    if any(e not in isoladas for e in reader.erros):
        raise BuildError("conteúdo inválido:\n" + "\n".join(f"  - {e}" for e in reader.erros))
    lidos = len(reader.erros)
    projecoes = projecao.collect(reader, [c.nome for c in candidatos.values()])
    debate_pages = debates.collect(reader)
    if len(reader.erros) > lidos:
        raise BuildError("dados inválidos:\n" + "\n".join(f"  - {e}" for e in reader.erros[lidos:]))
    copias = _copias(reader, checagens)
    return SiteContext(
        config=config,
        secoes=secoes,
        metodologia=metodologia,
        candidatos=candidatos,
        checagens=checagens,
        projecoes=projecoes,
        debates=debate_pages,
        fontes=reader.fontes,
        avisos=reader.avisos,
        copias=copias,
        raiz=root,
        completas=completas,
        editores=editores[0],
        recusas=list(reader.erros),
        aceitos=aceitas.aceitos,
    )
