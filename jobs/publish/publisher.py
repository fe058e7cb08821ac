"""`publicar(config, public_dir)`: send a built site to its target, uploading only what changed.

The order keeps the published site consistent at every moment, even when a run dies midway:
assets first (content-hashed: new names never clash with what old pages use), then data JSON,
then HTML (new pages before changed ones, so a changed page never links a page not yet there),
then sitemap/feeds, and deletions last (capped per run; stale hashed assets wait a grace period,
because pages cached by the CDN or by browsers still point at them). The manifest is saved after
every batch, so the next run starts where a failed one stopped.

Only keys the manifest records (what this project wrote) are ever deleted: a destination that held
other files keeps them. A build a killed `eleicoes build` left mid-commit is finished (or undone)
before anything is read, and a build whose pages reference an asset it does not hold is refused.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from jobs.publish import cdn, manifest
from jobs.publish.config import PublishConfig
from jobs.publish.kinds import Headers, headers_for, is_hashed_asset
from jobs.publish.targets import RemoteObject, Target, open_target, walk_files
from site_builder.links import internal_links, target_of
from site_builder.tiers import Tier, tier_of
from site_builder.writer import STAGING_DIR, JournalError, recover

log = logging.getLogger("eleicoes.publicar")


MAX_SHOWN = 10  # missing references listed in an error message
RECOVERY = {"desfeito": "desfeito (nada tinha sido trocado)", "concluido": "concluído"}


class PublishError(Exception):
    """A publish that could not finish (message in Portuguese); rerunning completes it."""


@dataclass(frozen=True)
class LocalFile:
    """One file of the built site."""

    key: str
    size: int
    md5: str


@dataclass(frozen=True)
class Upload:
    """One planned upload and why (novo | alterado | cabecalhos | sem_registro)."""

    key: str
    reason: str
    tier: Tier
    headers: Headers
    size: int


@dataclass
class Plan:
    """What a publish will do, computed before touching the target."""

    uploads: list[Upload] = field(default_factory=list)
    deletions: list[str] = field(default_factory=list)
    postponed: list[str] = field(default_factory=list)  # over the per-run deletion cap
    in_grace: list[str] = field(default_factory=list)  # stale hashed assets kept for now
    foreign: list[str] = field(default_factory=list)  # keys not in the build that this project never wrote
    unchanged: int = 0
    stale_since: dict[str, float] = field(default_factory=dict)

    def batches(self) -> list[list[Upload]]:
        """Upload batches in order: by tier, and new objects before overwritten ones."""
        groups: dict[tuple[Tier, bool], list[Upload]] = {}
        for item in self.uploads:
            groups.setdefault((item.tier, item.reason != "novo"), []).append(item)
        return [sorted(groups[k], key=lambda u: u.key) for k in sorted(groups)]

    def lines(self) -> list[str]:
        """The plan as text, one action per line, in execution order (dry run)."""
        out = [
            f"enviar  {u.key}  ({u.reason}; {u.headers.content_type}; {u.headers.cache_control})"
            for batch in self.batches()
            for u in batch
        ]
        out += [f"remover {k}" for k in self.deletions]
        out += [f"adiar   {k}  (limite de remoções por execução)" for k in self.postponed]
        out += [f"manter  {k}  (asset antigo em período de carência)" for k in self.in_grace]
        out += [f"ignorar {k}  (não foi gravado por este projeto)" for k in self.foreign]
        return out


@dataclass
class PublishReport:
    """What a publish did (or, in a dry run, would do)."""

    destino: str
    seco: bool = False
    plano: Plan = field(default_factory=Plan)
    enviados: list[str] = field(default_factory=list)
    removidos: list[str] = field(default_factory=list)
    invalidados: list[str] = field(default_factory=list)  # CDN paths
    avisos: list[str] = field(default_factory=list)
    segundos: float = 0.0
    listagem: str = ""  # "destino": the target was listed in full; "manifesto": the manifest stood for it
    recuperacao: str = ""  # what was done to a build a killed `eleicoes build` left mid-commit

    @property
    def mudou(self) -> bool:
        """True when the target changed (dry run: would change)."""
        if self.seco:
            return bool(self.plano.uploads or self.plano.deletions)
        return bool(self.enviados or self.removidos)

    def resumo(self) -> str:
        """One summary line in Portuguese."""
        p = self.plano
        if self.seco:
            head = f"{len(p.uploads)} a enviar, {len(p.deletions)} a remover"
        else:
            head = f"{len(self.enviados)} enviados, {len(self.removidos)} removidos"
        text = (
            f"{self.destino}: {head}, {p.unchanged} inalterados, {len(p.postponed)} remoções adiadas, "
            f"{len(p.in_grace)} assets em carência"
        )
        if self.invalidados:
            text += f", {len(self.invalidados)} caminhos invalidados na CDN"
        return text + f" em {self.segundos:.2f} s" + (" (simulação)" if self.seco else "")


def _md5_file(path: Path) -> str:
    return hashlib.md5(path.read_bytes(), usedforsecurity=False).hexdigest()


def scan_local(
    public_dir: Path, cache: dict[str, manifest.StatEntry]
) -> tuple[dict[str, LocalFile], dict[str, manifest.StatEntry]]:
    """Every publishable file of the build with its MD5, and the new stat cache.

    A file whose size, mtime and inode match the cache is not read again (the build leaves an
    unchanged file untouched). Hidden paths, such as the build's staging folder, are skipped.
    """
    found: dict[str, LocalFile] = {}
    new_cache: dict[str, manifest.StatEntry] = {}
    for rel, st in walk_files(public_dir):
        known = cache.get(rel)
        if (
            known is not None
            and known[0] == st.st_size
            and known[1] == st.st_mtime_ns
            and known[2] == st.st_ino
        ):
            md5 = known[3]
        else:
            md5 = _md5_file(public_dir / rel)
        new_cache[rel] = (st.st_size, st.st_mtime_ns, st.st_ino, md5)
        found[rel] = LocalFile(rel, st.st_size, md5)
    return found, new_cache


def upload_reason(
    local: LocalFile, remote: RemoteObject | None, stored: manifest.StoredObject | None, headers: Headers
) -> str:
    """Why `local` must be uploaded, or "" when the target already holds it with these headers."""
    if remote is None:
        return "novo"
    if remote.size != local.size:
        return "alterado"
    vouched = stored is not None and stored.etag == remote.etag and stored.md5 == local.md5
    same = remote.md5 == local.md5 if remote.md5 is not None else vouched
    if not same:
        return "alterado"
    if stored is None or stored.md5 != local.md5:
        return "sem_registro"  # right bytes, unknown headers: store them again
    if (stored.content_type, stored.cache_control) != (headers.content_type, headers.cache_control):
        return "cabecalhos"
    return ""


def make_plan(
    local: dict[str, LocalFile],
    remote: dict[str, RemoteObject],
    known: manifest.Manifest,
    cfg: PublishConfig,
    now: float,
) -> Plan:
    """The publish plan: a pure function of the build, the target listing and the manifest."""
    plan = Plan()
    for key in sorted(local):
        headers = headers_for(key, cfg)
        reason = upload_reason(local[key], remote.get(key), known.objects.get(key), headers)
        if reason:
            plan.uploads.append(Upload(key, reason, tier_of(key), headers, local[key].size))
        else:
            plan.unchanged += 1
    deletable: list[str] = []
    for key in sorted(set(remote) - set(local)):
        if key not in known.objects:
            plan.foreign.append(key)  # another tool's file, or one written before a manifest was lost
            continue
        if is_hashed_asset(key):
            since = known.stale_since.get(key, now)
            plan.stale_since[key] = since
            if now - since < cfg.graca_assets_h * 3600:
                plan.in_grace.append(key)
                continue
        deletable.append(key)
    plan.deletions = deletable[: cfg.max_remocoes]
    plan.postponed = deletable[cfg.max_remocoes :]
    return plan


def is_asset_reference(link: str) -> bool:
    """True for a root-relative link to a static asset (what a page needs to display right)."""
    return target_of(link).startswith("static/")


def missing_assets(
    public_dir: Path, local: dict[str, LocalFile], cache: dict[str, tuple[str, tuple[str, ...]]]
) -> tuple[list[str], dict[str, tuple[str, tuple[str, ...]]]]:
    """Asset links of the pages that name no file of the build, and the new reference cache.

    A page whose MD5 is the one cached is not read again.
    """
    references: dict[str, tuple[str, tuple[str, ...]]] = {}
    missing: list[str] = []
    for key in sorted(local):
        if not key.endswith((".html", ".htm")):
            continue
        cached = cache.get(key)
        if cached is not None and cached[0] == local[key].md5:
            links = cached[1]
        else:
            html = (public_dir / key).read_text(encoding="utf-8", errors="replace")
            links = tuple(link for link in internal_links(html) if is_asset_reference(link))
        references[key] = (local[key].md5, links)
        missing += [f"{key} -> {link}" for link in links if target_of(link) not in local]
    return missing, references


def finish_interrupted_build(public_dir: Path, seco: bool) -> str:
    """Finish or undo the commit of a build killed in `public_dir` ("" when there is none)."""
    if not (public_dir / STAGING_DIR).exists():
        return ""
    if seco:
        raise PublishError(
            f"{public_dir} tem um build interrompido no meio da troca de arquivos; "
            "rode 'eleicoes build' (ou 'eleicoes publicar' sem --seco) para concluí-lo"
        )
    try:
        return recover(public_dir)
    except (JournalError, OSError) as exc:
        raise PublishError(
            f"{public_dir} tem um build interrompido que não pôde ser concluído ({exc}); "
            "rode 'eleicoes build' antes de publicar"
        ) from exc


def _upload_batch(
    target: Target,
    public_dir: Path,
    batch: list[Upload],
    known: manifest.Manifest,
    workers: int,
    done: Callable[[str], None],
) -> None:
    """Upload one batch in parallel; each finished upload is recorded; a failure stops the batch."""

    def one(item: Upload) -> tuple[Upload, str, str, int]:
        data = (public_dir / item.key).read_bytes()
        md5 = hashlib.md5(data, usedforsecurity=False).hexdigest()
        return item, md5, target.put(item.key, data, md5, item.headers), len(data)

    failure: tuple[str, Exception] | None = None
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(one, item): item.key for item in batch}
        for future in concurrent.futures.as_completed(futures):
            try:
                item, md5, etag, size = future.result()
            except Exception as exc:
                if failure is None:
                    failure = (futures[future], exc)
                    for pending in futures:
                        pending.cancel()
                continue
            known.objects[item.key] = manifest.StoredObject(
                md5, size, etag, item.headers.content_type, item.headers.cache_control
            )
            done(item.key)
    if failure is not None:
        raise PublishError(f"falha ao enviar {failure[0]}: {failure[1]}") from failure[1]


def publicar(
    config: PublishConfig,
    public_dir: Path,
    *,
    seco: bool = False,
    destino: Target | None = None,
    agora: Callable[[], float] = time.time,
    progresso: bool = False,
) -> PublishReport:
    """Publish the built site in `public_dir` to the configured target (or to `destino`).

    `seco=True` returns the plan without touching the target or the manifest. Raises
    `PublishError` on failure: what was sent stays recorded, the site in the target stays
    consistent, and rerunning finishes the job.
    """
    started = time.perf_counter()
    if not (public_dir / "index.html").is_file():
        raise PublishError(f"{public_dir}/index.html não existe; rode 'eleicoes build' antes de publicar")
    recovered = finish_interrupted_build(public_dir, seco)
    target = destino or open_target(config)
    report = PublishReport(target.identity, seco, recuperacao=recovered)
    if recovered:
        report.avisos.append(
            f"um build interrompido em {public_dir} foi {RECOVERY[recovered]} antes de publicar"
        )
    path = manifest.manifest_path(config.estado, target.identity)
    known = manifest.load(path, target.identity)
    local, known.local = scan_local(public_dir, known.local)
    missing, known.references = missing_assets(public_dir, local, known.references)
    if missing:
        shown = "\n".join(f"  - {m}" for m in missing[:MAX_SHOWN])
        more = f"\n  (e mais {len(missing) - MAX_SHOWN})" if len(missing) > MAX_SHOWN else ""
        raise PublishError(
            f"o build em {public_dir} está incompleto: {len(missing)} referências a arquivos estáticos "
            f"que não existem:\n{shown}{more}\nrode 'eleicoes build' de novo; nada foi publicado"
        )
    now = agora()
    if _listing_due(target, known, config, now):
        try:
            remote = target.list_objects()
        except Exception as exc:
            raise PublishError(f"não foi possível listar {target.identity}: {exc}") from exc
        report.listagem = "destino"
    else:
        # Between full listings the manifest stands for the bucket: what this project stored there.
        remote = {k: RemoteObject(o.size, o.etag, None) for k, o in known.objects.items()}
        report.listagem = "manifesto"
    plan = make_plan(local, remote, known, config, now)
    report.plano = plan
    if plan.foreign:
        kept = len(plan.foreign)
        report.avisos.append(
            f"primeira publicação em {target.identity} sem manifesto deste projeto: {kept} objetos "
            "já existentes não foram removidos (só se remove o que este projeto gravou)"
            if not known.objects
            else f"{kept} objetos que este projeto não gravou foram mantidos em {target.identity}"
        )
    if seco:
        report.segundos = time.perf_counter() - started
        return report
    for key in set(known.objects) - set(remote) - set(local):
        del known.objects[key]  # gone from both sides (deleted by hand, say)
    known.stale_since = plan.stale_since
    if report.listagem == "destino":
        known.listed_at = now
    try:
        _execute(config, public_dir, target, known, path, plan, report, progresso)
    finally:
        manifest.save(path, known)
        report.segundos = time.perf_counter() - started
    log.info("publicação: %s", report.resumo())
    return report


def _listing_due(target: Target, known: manifest.Manifest, config: PublishConfig, now: float) -> bool:
    """Whether this run lists the target in full (else the manifest stands for it)."""
    if target.cheap_listing or config.verificar_bucket_s <= 0 or known.listed_at is None:
        return True
    return not known.objects or not 0 <= now - known.listed_at < config.verificar_bucket_s


def _execute(
    config: PublishConfig,
    public_dir: Path,
    target: Target,
    known: manifest.Manifest,
    path: Path,
    plan: Plan,
    report: PublishReport,
    progresso: bool,
) -> None:
    bar = _progress_bar(len(plan.uploads), progresso)

    def done(key: str) -> None:
        report.enviados.append(key)
        bar(1)

    try:
        for batch in plan.batches():
            _upload_batch(target, public_dir, batch, known, config.paralelo, done)
            manifest.save(path, known)
    except PublishError:
        if config.cdn_distribuicao:  # what was overwritten before the failure is invalidated next run
            sent = set(report.enviados)
            overwritten = [u.key for u in plan.uploads if u.reason != "novo" and u.key in sent]
            known.cdn_pending = sorted(set(known.cdn_pending) | set(cdn.url_paths(overwritten)))
        raise
    finally:
        bar(0)
    if plan.deletions:
        try:
            target.delete(plan.deletions)
        except Exception as exc:
            raise PublishError(f"falha ao remover arquivos antigos: {exc}") from exc
        for key in plan.deletions:
            known.objects.pop(key, None)
            known.stale_since.pop(key, None)
        report.removidos = list(plan.deletions)
    if plan.postponed:
        report.avisos.append(
            f"{len(plan.postponed)} remoções adiadas para a próxima execução "
            f"(limite max_remocoes = {config.max_remocoes})"
        )
    if config.cdn_distribuicao:
        _invalidate(config, known, plan, report)


def _invalidate(config: PublishConfig, known: manifest.Manifest, plan: Plan, report: PublishReport) -> None:
    """Invalidate what readers may have cached: overwritten and deleted objects."""
    overwritten = [u.key for u in plan.uploads if u.reason != "novo"]
    wanted = set(known.cdn_pending) | set(cdn.url_paths(overwritten + report.removidos))
    if not wanted:
        return
    paths = cdn.collapse_paths(wanted, config.cdn_max_caminhos)
    try:
        cdn.invalidate(config, paths)
    except Exception as exc:
        known.cdn_pending = sorted(wanted)  # retried by the next run
        raise PublishError(f"objetos publicados, mas a invalidação da CDN falhou: {exc}") from exc
    known.cdn_pending = []
    report.invalidados = paths


def _progress_bar(total: int, enabled: bool) -> Callable[[int], None]:
    """A tqdm bar on a terminal; `bar(0)` closes it."""
    if not enabled or total < 50 or not sys.stderr.isatty():
        return lambda n: None
    from tqdm import tqdm

    bar = tqdm(total=total, unit="arq", desc="publicando", leave=False)

    def update(n: int) -> None:
        if n:
            bar.update(n)
        else:
            bar.close()

    return update
