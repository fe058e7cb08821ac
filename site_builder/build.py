"""The build: collect -> plan -> render what changed -> write all at once.

Incremental by checksum (Lektor's idea): an output is rendered again only when the checksum of
its inputs (its sources, its templates, site-wide settings and the builder's own code) differs
from the one recorded by the previous build, or the file is missing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import hashlib
import json
import logging
import shutil
import sys
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import jinja2
from markupsafe import Markup

from site_builder import last_good, markdown_cache, markdown_render, packs, share_image, unchanged
from site_builder.artifact import Artifact
from site_builder.assets import collect_assets
from site_builder.collect import CHECKS_CACHE, collect
from site_builder.config import CONFIG_FILE, SiteConfig, load_config
from site_builder.conteudo import links_internos
from site_builder.conteudo.frontmatter import read_body
from site_builder.errors import BuildError, ConfigError, ContentError, StrictModeError
from site_builder.links import broken_links, internal_links
from site_builder.pages import NAV, listing_key, plan
from site_builder.reader import fingerprint
from site_builder.registro_publicado import conferir
from site_builder.render import (
    ROWS_GLOBAL,
    ROWS_TEMPLATE,
    ListingRows,
    make_environment,
    render,
    template_closure_hash,
)
from site_builder.state import BuildState, OutputRecord
from site_builder.workers import Workers, chunks, default_count
from site_builder.writer import (
    STATE_PARENT,
    JournalError,
    KnownFile,
    StagedWriter,
    output_size,
    recover,
    remove_staging,
)

CODE_DIR = "site_builder"  # the builder's code, its content model (`conteudo/`) included
log = logging.getLogger("eleicoes.build")
TEMPLATE_CACHE = "templates"  # compiled templates, beside the build states (`BuildState.shared`)
IMAGE_CACHE = "imagens"  # drawn images, keyed by what they show (`Artifact.guardar`)
# Rendered pages, keyed by their output key: the checksum of everything a page is made from (its
# sources, templates, settings and the builder's code), the very key by which an unchanged page
# is not rendered again in an incremental build. An output folder wiped (a CI run, a crash)
# gets its pages back from here without rendering; a page whose render warned is not kept, so
# every build renders it and repeats the warning.
PAGE_CACHE = "paginas"
ROWS_CACHE = "linhas.pickle"  # rendered rows of the checks listings (`ListingRows`), beside the states
LINKS_CACHE = "ligacoes"  # each output's internal links, by the checksum of its bytes (`_links`)


@dataclass
class BuildReport:
    """What a build did, for the CLI's summary line and for tests."""

    total: int = 0
    renderizados: list[str] = field(default_factory=list)
    escritos: list[str] = field(default_factory=list)
    removidos: list[str] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
    segundos: float = 0.0
    recuperacao: str = ""  # what was done to a commit a killed build left: "", "desfeito", "concluido"
    recusados: list[str] = field(default_factory=list)  # problems of the content files refused (isolated)
    # True when no input changed since the last build, which refused nothing (`unchanged`):
    # nothing was read again, and its warnings are repeated.
    inalterado: bool = False

    def resumo(self) -> str:
        """One summary line in Portuguese."""
        recusados = (
            f"; {len(self.recusados)} problema(s) em arquivos de conteúdo recusados (ficaram de fora ou "
            "na última versão aceita; o resto do site foi refeito)"
            if self.recusados
            else ""
        )
        inalterado = " (nada mudou desde o último build)" if self.inalterado else ""
        return (
            f"{self.total} arquivos; {len(self.renderizados)} renderizados, {len(self.escritos)} gravados, "
            f"{len(self.removidos)} removidos, {len(self.avisos)} avisos em {self.segundos:.2f} s{inalterado}"
            f"{recusados}"
        )


def _code_hash(root: Path) -> str:
    """Checksum of the builder's own source: new code may render different bytes."""
    digest = hashlib.sha256()
    package_root = Path(__file__).resolve().parent.parent
    for path in sorted((package_root / CODE_DIR).rglob("*.py")):
        digest.update(path.relative_to(package_root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def state_path(root: Path, out: Path) -> Path:
    """Where the incremental state of builds into `out` lives (outside `out`: never published)."""
    name = hashlib.sha256(str(out.resolve()).encode("utf-8")).hexdigest()[:16]
    return root / ".cache" / STATE_PARENT / name


def _convert_files(
    paths: list[str], renderer: markdown_cache.CachedRenderer | None = None, conversoes: Path | None = None
) -> list[str]:
    """HTML of the Markdown body of each file (the unit of work of a build worker), from the
    conversion cache in `conversoes` when it holds the body."""
    renderer = renderer or markdown_cache.CachedRenderer(conversoes)
    return [_convert_file(renderer, path) for path in paths]


def _convert_file(renderer: markdown_cache.CachedRenderer, path: str) -> str:
    """HTML of one file's body; ContentError naming the file when it is too costly to convert
    (collect refuses such a file first: this holds if it changed in between)."""
    text = read_body(Path(path))
    try:
        return renderer.convert(text)
    except markdown_render.ConversionRefusedError as exc:
        raise ContentError(path, exc.motivo) from exc


def _bodies(paths: list[str], workers: Workers, conversoes: Path) -> Generator[str, None, None]:
    """HTML of the Markdown body of each file, in order, read and converted a few chunks ahead of
    the consumer: however many pages change, only those chunks' bodies are held at once."""
    if not paths:
        return
    work = functools.partial(_convert_files, conversoes=conversoes)
    here = functools.partial(_convert_files, renderer=markdown_cache.CachedRenderer(conversoes))
    for _key, converted in workers.map(work, ((None, c) for c in chunks(paths)), len(paths), here):
        yield from converted


def build_site(root: Path, out: Path, *, strict: bool = False, workers: int | None = None) -> BuildReport:
    """Build the site of project `root` into `out`; on any error `out` is left as it was."""
    # The build holds ~100,000 long-lived objects (state, context, artifacts); cyclic GC passes
    # over them cost a third of an incremental rebuild, and a cold build leaves little cyclic
    # garbage (measured: +4% peak memory). Collection resumes when the build returns.
    enabled = gc.isenabled()
    gc.disable()
    try:
        with Workers(workers or default_count()) as pool:
            return _build_site(root, out, strict=strict, workers=pool)
    finally:
        if enabled:
            gc.enable()


def _load_config(root: Path, strict: bool) -> tuple[SiteConfig, list[str], list[str], dict[str, str]]:
    """(config, warnings, refusals, accepted) of `content/site.toml`. The default build reads the
    last accepted version of a broken or missing one (`last_good`), reporting it as a refusal;
    `--strict`, or a broken file without an accepted version, raises ConfigError."""
    path = root / CONFIG_FILE
    before = _read(path)
    try:
        config, warnings = load_config(root)
    except ConfigError as exc:
        if strict or last_good.copy_of(root, last_good.SITE_CONFIG) is None:
            raise
        try:
            config, warnings = load_config(last_good.copies_root(root))
        except ConfigError:
            raise exc from None
        nota = f"{last_good.SITE_CONFIG}: arquivo recusado; o site foi feito com a última versão aceita dele"
        return config, warnings, [str(exc), nota], {}
    accepted = {}
    if before is not None and _read(path) == before:  # the bytes that were read, not a later edit
        accepted[last_good.SITE_CONFIG] = hashlib.sha256(before).hexdigest()
    return config, warnings, [], accepted


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _build_site(root: Path, out: Path, *, strict: bool, workers: Workers) -> BuildReport:
    started = time.perf_counter()
    seen = unchanged.inputs(root)  # before anything is read: a change from here on is a change
    report = BuildReport()
    config, config_warnings, report.recusados, accepted = _load_config(root, strict)
    report.avisos += config_warnings
    code = _code_hash(root)
    out.mkdir(parents=True, exist_ok=True)
    try:
        report.recuperacao = recover(out)
    except JournalError:
        # Renames may have happened, in an unknown order: drop them all by rebuilding from scratch
        # (an empty state makes every output be compared with what the folder holds).
        remove_staging(out)
        shutil.rmtree(state_path(root, out), ignore_errors=True)
        report.recuperacao = "refeito"
    folder = state_path(root, out)
    # None when the walk cannot be trusted (`unchanged.inputs`): a full build that leaves no record.
    inputs_key, same = None, None
    if seen is not None:
        versions = (_renderer_version(), share_image.renderer_version(), str(strict), sys.version)
        inputs_key = fingerprint(seen, code, *versions)
        if not report.recuperacao:
            same = unchanged.unchanged(folder, inputs_key, root, out)
    if same is not None:
        return BuildReport(
            total=len(same.outputs),
            avisos=list(same.avisos),
            segundos=time.perf_counter() - started,
            inalterado=True,
        )
    unchanged.forget(folder)
    state = BuildState.load(folder, code)
    ctx, published_record = conferir(
        collect(root, config, state, workers, isolar=not strict), root, out, isolar=not strict
    )
    report.recusados += ctx.recusas
    for problem in report.recusados:
        log.warning("build: %s", problem)
    report.avisos += ctx.avisos
    assets = collect_assets(root)
    env = make_environment(root, assets, config.fuso_horario, report.avisos, state.shared(TEMPLATE_CACHE))
    env.globals.update(site=config, nav=NAV)
    site_wide = fingerprint(
        code,
        repr(dataclasses.astuple(config)),
        repr(NAV),
        repr(sorted(ctx.editores.editores.items())),  # names on the check pages
        *(a.path for a in assets.values()),
    )
    closures: dict[str, str] = {}
    rows_salt = functools.partial(_rows_salt, env, site_wide, closures)
    rows = ListingRows(state.shared(ROWS_CACHE), rows_salt)
    env.globals[ROWS_GLOBAL] = rows.rows
    keys = [listing_key(c, ctx) for c in ctx.checagens]
    artifacts = [*plan(ctx, keys), published_record]
    previous = state.outputs
    writer = StagedWriter(out, {p: KnownFile(r.sha256, r.tamanho) for p, r in previous.items()})
    records: dict[str, OutputRecord] = {}
    try:
        for asset in assets.values():
            writer.claim(asset.path)
            digest = writer.stage(asset.path, asset.data)
            records[asset.path] = OutputRecord(digest, digest, len(asset.data), ())
        dirty: list[tuple[Artifact, str]] = []
        for artifact in artifacts:
            writer.claim(artifact.path)
            if artifact.data is None:
                closure = template_closure_hash(env, artifact.template, closures)
                key = fingerprint(site_wide, closure, artifact.fingerprint)
            elif artifact.guardar is None:  # bytes copied as they are: only their source counts
                key = fingerprint("raw", artifact.fingerprint)
            else:
                key = fingerprint(site_wide, artifact.fingerprint)
            old = previous.get(artifact.path)
            if old is not None and old.entradas == key and output_size(out, artifact.path) == old.tamanho:
                records[artifact.path] = old
            else:
                dirty.append((artifact, key))
        conversoes = state.shared(markdown_cache.FOLDER)
        images = packs.EntryStore(state.shared(IMAGE_CACHE))
        pages = packs.EntryStore(state.shared(PAGE_CACHE))
        link_store = packs.EntryStore(state.shared(LINKS_CACHE))
        rendered = [(a, key) for a, key in dirty if a.data is None]
        renderer = _renderer_version()
        page_keys = {a.path: fingerprint(key, renderer) for a, key in rendered}
        kept = {path for path, page_key in page_keys.items() if pages.has(page_key)}
        bodies = _bodies(
            [
                f"{root}/{a.markdown.caminho}"
                for a, _ in dirty
                if a.markdown is not None and a.path not in kept
            ],
            workers,
            conversoes,
        )
        with contextlib.closing(bodies):
            for artifact, key in dirty:
                # Each output hashed once: a cached one as its cache checked it, else here.
                cached = pages.get_checked(page_keys[artifact.path]) if artifact.path in kept else None
                if cached is not None:
                    data, digest = cached
                else:
                    warned = len(report.avisos)
                    body = _own_body(root, conversoes, artifact) if artifact.path in kept else bodies
                    data, checked = _output(env, artifact, body, images)
                    digest = checked or hashlib.sha256(data).hexdigest()
                    if artifact.data is None and len(report.avisos) == warned:
                        pages.put_bytes(page_keys[artifact.path], data, digest)
                writer.stage(artifact.path, data, digest)
                has_links = artifact.data is None and artifact.path.endswith((".html", ".xml"))
                links = _links(link_store, code, digest, data) if has_links else ()
                records[artifact.path] = OutputRecord(key, digest, len(data), links)
                report.renderizados.append(artifact.path)
        stale = sorted(set(previous) - set(records))
        if report.recusados:
            # A refused file keeps its last published pages, and whatever else would go with them:
            # nothing is deleted until the content is whole again (the next build removes it then).
            records.update((rel, previous[rel]) for rel in stale)
            stale = []
        sources = {a.path: a.markdown.caminho for a in artifacts if a.markdown is not None}
        located = functools.partial(links_internos.no_conteudo, root, sources)
        report.avisos += broken_links({p: r.links for p, r in records.items()}, set(records), located)
        if strict and report.avisos:
            raise StrictModeError(
                "modo estrito: o build tem avisos:\n" + "\n".join(f"  - {a}" for a in report.avisos)
            )
    except BaseException:
        workers.close()  # they may still be reading: stopped before the staging is removed
        writer.abort()
        raise
    # Rows are kept by what they show, valid whether this build commits or not: saved before the
    # commit, so that nothing but the commit's own steps lies between its journal and its end.
    if rows.rendered:  # else the file already holds every row this build showed
        rows.save(set(keys))
    writer.commit(stale, state.folder)  # from here on, a killed build is finished by the next run
    state.save({f.caminho for f in ctx.fontes}, records)
    writer.finish()
    try:
        last_good.save(root, {**accepted, **ctx.aceitos})  # only what a committed build accepted
    except OSError as exc:
        report.avisos.append(f"a cópia da última versão aceita do conteúdo não foi guardada: {exc}")
    else:
        if inputs_key is not None and not report.recusados:
            sizes = {path: record.tamanho for path, record in records.items()}
            with contextlib.suppress(OSError):  # without the record, the next build is a full one
                unchanged.remember(folder, inputs_key, root, sizes, report.avisos)
    if any(a.markdown is not None for a, _ in dirty):  # only a build that converted adds entries
        markdown_cache.MarkdownCache(conversoes).prune()
        packs.EntryStore(state.shared(CHECKS_CACHE)).prune()  # checks as read, likewise
    if any(a.guardar is not None for a, _ in dirty):
        images.prune()
    if rendered:
        pages.prune()
        link_store.prune()
    report.total = len(records)
    report.escritos = writer.written
    report.removidos = stale
    report.segundos = time.perf_counter() - started
    return report


def _rows_salt(env: jinja2.Environment, site_wide: str, closures: dict[str, str]) -> str:
    """What every listing row is made with: the row macro's templates, the site-wide inputs of
    a page (settings, the builder's code) and the renderer (`ListingRows`)."""
    return fingerprint(site_wide, template_closure_hash(env, ROWS_TEMPLATE, closures), _renderer_version())


@functools.cache
def _renderer_version() -> str:
    """What renders a page besides its inputs and the builder's code (in the output key): the
    Markdown converter (`markdown_cache.cache_version`), Jinja's and MarkupSafe's versions."""
    versions = f"{metadata.version('jinja2')}|{metadata.version('markupsafe')}"
    return fingerprint(markdown_cache.cache_version(), versions)


def _links(store: packs.EntryStore, code: str, digest: str, data: bytes) -> tuple[str, ...]:
    """The internal links of an output whose bytes have the SHA-256 `digest`. They are a function
    of the bytes alone, kept in `store` under that checksum and the builder's code: a page taken
    from the page cache, or rendered again to the same bytes, is not scanned again (the scan of
    10,000 pages was a fifth of a build into a wiped output)."""
    key = fingerprint(code, digest)
    kept = store.get_bytes(key)
    if kept is not None:
        with contextlib.suppress(ValueError, TypeError):  # not as stored: scanned again
            return tuple(sys.intern(link) for link in json.loads(kept))  # interned as `internal_links` does
    links = internal_links(data.decode("utf-8"))
    store.put_bytes(key, json.dumps(links).encode("utf-8"))
    return links


def _own_body(root: Path, conversoes: Path, artifact: Artifact) -> Iterator[str]:
    """The body of a page whose kept copy turned out unreadable (the stream of bodies left it
    out), converted here."""
    if artifact.markdown is None:
        return iter(())
    renderer = markdown_cache.CachedRenderer(conversoes)
    return iter([_convert_file(renderer, f"{root}/{artifact.markdown.caminho}")])


def _output(
    env: jinja2.Environment,
    artifact: Artifact,
    bodies: Iterator[str],
    images: packs.EntryStore,
) -> tuple[bytes, str | None]:
    """The bytes of one artifact, and their SHA-256 when known (hex); the next body of `bodies`
    is its own when it has Markdown; an artifact to keep (`Artifact.guardar`) is taken from
    `images` under its key there, or made and stored there."""
    if artifact.data is not None:
        if artifact.guardar is None:
            return artifact.data(), None
        kept_as = artifact.guardar()
        kept = images.get_checked(kept_as)
        if kept is not None:
            return kept
        data = artifact.data()
        digest = hashlib.sha256(data).hexdigest()
        images.put_bytes(kept_as, data, digest)
        return data, digest
    context = {"pagina_url": artifact.url, **artifact.context()}
    if artifact.markdown is not None:
        context["corpo_html"] = Markup(next(bodies))  # noqa: S704 - produced by the safe renderer
    return render(env, artifact.template, context), None


__all__ = ["BuildError", "BuildReport", "build_site", "render"]
