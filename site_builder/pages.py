"""The site's pages: each generator turns the SiteContext into artifacts (output path, template,
input fingerprint, and a context built only if the artifact must be rendered)."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, partial
from typing import Any
from urllib.parse import quote

from site_builder import ao_vivo, copia_arquivada, debates, jsonld, projecao, share_image
from site_builder.artifact import Artifact, latest, raw, url_of, w3c
from site_builder.config import SiteConfig
from site_builder.conteudo import regras
from site_builder.conteudo.registros import Candidato, Checagem, ChecagemResumo
from site_builder.conteudo.regras import PLATAFORMAS, RESULTADOS_CONTESTACAO, TIPOS_HISTORICO
from site_builder.conteudo.vereditos import VEREDITOS
from site_builder.errors import ContentError
from site_builder.reader import fingerprint
from site_builder.records import Pagina, SiteContext
from site_builder.render import MESES, data_extenso

FEED_PATH = "/checagens/feed.xml"
CORRECTIONS_URL = "/checagens/correcoes/"
CANDIDATES_URL = "/candidatos/"
CORRECTIONS_POLICY_SLUG = "correcoes-e-imparcialidade"  # methodology page linked as `correctionsPolicy`
HOME_CHECKS = 5
FEED_ENTRIES = 50  # readers subscribe to what is new; the full list is on /checagens/


@dataclass(frozen=True)
class NavItem:
    """One entry of the main navigation."""

    titulo: str
    url: str


NAV = (
    NavItem("Início", "/"),
    NavItem("Projeção", "/projecao/"),
    NavItem("Debates", "/debates/"),
    NavItem("Checagens", "/checagens/"),
    NavItem("Metodologia", "/metodologia/"),
)


def _check_summary(check: ChecagemResumo, ctx: SiteContext, key: str = "") -> dict[str, Any]:
    """What the templates show of a check; `key`, its `listing_key`, for a listing row (the key
    its rendered row is kept under, `render.ListingRows`)."""
    candidato = ctx.candidatos[check.candidato]
    return {
        "chave": key,
        "url": check.url,
        "afirmacao": check.afirmacao,
        "veredito": VEREDITOS[check.veredito],
        "candidato": candidato,
        "publicado_em": check.publicado_em,
        "atualizado_em": check.atualizado_em,
        "demonstracao": check.demonstracao or candidato.demonstracao,
    }


def listing_key(check: ChecagemResumo, ctx: SiteContext) -> str:
    """What a listing shows of a check (its row, the filters' counts): a change anywhere else in
    it does not touch the listings."""
    candidato = ctx.candidatos[check.candidato].fonte.sha256
    published = check.publicado_em.timestamp() if check.publicado_em else 0
    updated = check.atualizado_em.timestamp() if check.atualizado_em else 0
    return (
        f"{check.url}|{check.afirmacao}|{check.veredito}|{published}|{updated}|{candidato}|{check.tema}"
        f"|{check.demonstracao}"
    )


def check_lastmod(check: ChecagemResumo) -> str | None:
    """When a check last changed: its latest correction, else its publication."""
    when = check.atualizado_em or check.publicado_em
    return w3c(when) if when else None


def checks_lastmod(checks: Iterable[ChecagemResumo]) -> str | None:
    """When the latest of `checks` last changed (`latest` of their `check_lastmod`, formatting one
    moment instead of every one: listings of 10,000 checks are planned at every build)."""
    last = max((when for c in checks if (when := c.atualizado_em or c.publicado_em)), default=None)
    return w3c(last) if last else None


def _page_keys(pages: list[Pagina]) -> list[str]:
    return ["|".join((p.url, p.titulo, p.descricao, str(p.ordem))) for p in pages]


def _section_page(
    ctx: SiteContext,
    secao: str,
    path: str,
    template: str,
    trilha: list[tuple[str, str]],
    extra: Callable[[], dict[str, Any]],
    extra_keys: list[str],
    lastmod: str | None = None,
) -> Artifact | None:
    intro = ctx.secoes.get(secao)
    if intro is None:  # refused, without an accepted version: its last published page stays
        return None
    url = url_of(path)

    def context() -> dict[str, Any]:
        data = {
            "titulo": intro.titulo,
            "descricao": intro.descricao,
            "jsonld": (
                jsonld.website(ctx.config)
                if url == "/"
                else jsonld.webpage(ctx.config, url, intro.titulo, intro.descricao, trilha)
            ),
        }
        data.update(extra())
        return data

    return Artifact(
        path, template, fingerprint(intro.fonte.sha256, *extra_keys), context, intro.fonte, lastmod=lastmod
    )


def plan(ctx: SiteContext, keys: list[str]) -> list[Artifact]:
    """Every artifact of the site, in a fixed order; `keys` are the `listing_key` of each of
    `ctx.checagens` (the build keeps the listings' rows by them too)."""
    home = [("Início", "/")]
    checks = ctx.checagens

    def summaries(count: int) -> list[dict[str, Any]]:  # of the newest `count` checks
        return [_check_summary(c, ctx, k) for c, k in zip(checks[:count], keys[:count], strict=True)]

    newest_check = checks_lastmod(checks)
    links = cache(partial(filter_links, ctx))  # counted once, when a listing is rendered

    sections = [
        _section_page(
            ctx,
            "inicio",
            "index.html",
            "inicio.html",
            home,
            lambda: {
                "checagens": summaries(HOME_CHECKS),
                "metodologia": ctx.metodologia,
                "projecao": projecao.headlines(ctx),
                "debate": debates.home_card(ctx),
                "ao_vivo": ao_vivo.section_hooks(ctx.config.intervalo_ao_vivo_s),
            },
            keys[:HOME_CHECKS]
            + _page_keys(ctx.metodologia)
            + projecao.headline_keys(ctx)
            + debates.home_keys(ctx),
            latest([newest_check, projecao.section_lastmod(ctx), debates.section_lastmod(ctx)]),
        ),
        _section_page(
            ctx,
            "projecao",
            "projecao/index.html",
            "projecao_indice.html",
            [*home, ("Projeção", "/projecao/")],
            lambda: {
                **projecao.section_context(ctx),
                "ao_vivo": ao_vivo.section_hooks(ctx.config.intervalo_ao_vivo_s),
            },
            projecao.headline_keys(ctx),
            projecao.section_lastmod(ctx),
        ),
        _section_page(
            ctx,
            "debates",
            "debates/index.html",
            "debates_indice.html",
            [*home, ("Debates", "/debates/")],
            lambda: debates.section_context(ctx),
            debates.section_keys(ctx),
            debates.section_lastmod(ctx),
        ),
        _section_page(
            ctx,
            "checagens",
            "checagens/index.html",
            "checagens.html",
            [*home, ("Checagens", "/checagens/")],
            lambda: {
                "checagens": summaries(len(checks)),
                "candidatos": sorted(ctx.candidatos.values(), key=lambda c: c.nome),
                "corrections_url": CORRECTIONS_URL,
                "filtros": check_filters(links(), ""),
            },
            [*keys, *(f"{c.url}|{c.nome}" for c in ctx.candidatos.values())],
            newest_check,
        ),
        _section_page(
            ctx,
            "metodologia",
            "metodologia/index.html",
            "metodologia.html",
            [*home, ("Metodologia", "/metodologia/")],
            lambda: {"paginas": ctx.metodologia},
            _page_keys(ctx.metodologia),
            latest(w3c(p.atualizado_em) for p in ctx.metodologia if p.atualizado_em),
        ),
    ]
    artifacts = [a for a in sections if a is not None]
    artifacts += [_methodology_page(ctx, page) for page in ctx.metodologia]
    artifacts += projecao.plan(ctx)
    artifacts += debates.plan(ctx)
    copias = {c.origem: "/" + c.saida for c in ctx.copias}
    policy = _corrections_policy(ctx)
    artifacts += [
        _check_page(ctx, check, key, copias, policy) for check, key in zip(checks, keys, strict=True)
    ]
    artifacts += [_check_image(ctx, check, key) for check, key in zip(checks, keys, strict=True)]
    artifacts += [raw(c.saida, c.sha256, _reader(c.local)) for c in ctx.copias]
    artifacts += _copy_pages(ctx)
    artifacts += _candidate_pages(ctx, keys)
    artifacts += _filter_pages(ctx, keys, links)
    artifacts.append(_corrections_page(ctx))
    artifacts.append(Artifact("404.html", "404.html", fingerprint(), lambda: _not_found(ctx), sitemap=False))
    artifacts.append(
        Artifact(
            FEED_PATH.lstrip("/"),
            "feed.xml",
            fingerprint(*keys[:FEED_ENTRIES]),
            lambda: _feed(ctx, checks[:FEED_ENTRIES]),
            sitemap=False,
        )
    )
    pages = [(a.url, a.lastmod) for a in artifacts if a.sitemap]
    artifacts.append(
        Artifact(
            "sitemap.xml",
            "sitemap.xml",
            fingerprint(*(f"{url}|{lastmod}" for url, lastmod in pages)),
            # Absolute addresses made here, not by the template: 10,000 calls from Jinja cost more.
            lambda: {"urls": [(ctx.config.absolute(url), lastmod) for url, lastmod in pages]},
            sitemap=False,
        )
    )
    artifacts.append(Artifact("robots.txt", "robots.txt", fingerprint(), dict, sitemap=False))
    return artifacts


def _methodology_page(ctx: SiteContext, page: Pagina) -> Artifact:
    trilha = [("Início", "/"), ("Metodologia", "/metodologia/"), (page.titulo, page.url)]
    return Artifact(
        page.url.lstrip("/") + "index.html",
        "pagina.html",
        fingerprint(page.fonte.sha256, *_page_keys(ctx.metodologia)),
        lambda: {
            "titulo": page.titulo,
            "descricao": page.descricao,
            "trilha": trilha,
            "irmas": ctx.metodologia,
            "atualizado_em": page.atualizado_em,
            "jsonld": jsonld.webpage(ctx.config, page.url, page.titulo, page.descricao, trilha),
        },
        page.fonte,
        lastmod=w3c(page.atualizado_em) if page.atualizado_em else None,
    )


def _copy_pages(ctx: SiteContext) -> list[Artifact]:
    """A readable page per archived copy (the WARC stays beside it for experts)."""
    demo = {
        origem
        for c in ctx.checagens
        if c.demonstracao or ctx.candidatos[c.candidato].demonstracao
        for origem in c.arquivos
    }
    return [copia_arquivada.artefato(ctx.config, c, c.origem in demo) for c in ctx.copias]


def _reader(path: str) -> Callable[[], bytes]:
    def read() -> bytes:
        with open(path, "rb") as handle:  # noqa: PTH123 - a plain path string
            return handle.read()

    return read


def _date_text(value: dt.date) -> str:
    """'11 de outubro de 2026' for a calendar date (the `data_extenso` filter takes date-times)."""
    return f"{value.day} de {MESES[value.month - 1]} de {value.year}"


def _alcance(value: int | None) -> str:
    """People reached, Brazilian style (`120.000`); empty when unknown."""
    return "" if value is None else f"{value:,}".replace(",", ".")


def contest_link(config: SiteConfig, check: Checagem | ChecagemResumo) -> str:
    """A mailto link to the desk with the check's id and address filled in (seed: "Se encontrar um
    erro, ou tiver uma fonte que contradiga uma checagem, avise a redação")."""
    email = config.email_checagens or config.email_redacao
    subject = f"Contestação da checagem {check.id}"
    body = (
        f"Checagem: {check.id}\nEndereço: {config.absolute(check.url)}\n\n"
        "O que está errado:\n\nFonte que sustenta a contestação (endereço público):\n"
    )
    return f"mailto:{email}?subject={quote(subject, safe='')}&body={quote(body, safe='')}"


def _corrections_policy(ctx: SiteContext) -> str | None:
    return next((p.url for p in ctx.metodologia if p.slug == CORRECTIONS_POLICY_SLUG), None)


def _full_check(ctx: SiteContext, check: ChecagemResumo) -> Checagem:
    """The whole check (sources, occurrences, history), read again from its file: the build keeps
    only a summary of each check, and a page is rendered only when its file changed."""
    assert ctx.raiz is not None and check.fonte is not None
    if (parsed := ctx.completas.pop(check.fonte.caminho, None)) is not None:  # held until its page renders
        return parsed
    data = (ctx.raiz / check.fonte.caminho).read_bytes()
    # When the bytes are those the collect phase judged, its rules (dates, links) are not applied
    # again: reading the links would convert the body a second time.
    same = hashlib.sha256(data).hexdigest() == check.fonte.sha256
    lida = (
        regras.ler_checagem(data.decode("utf-8"), check.fonte, ctx.editores, None, _links_judged)
        if same
        else None
    )
    if lida is None or lida.checagem is None:
        raise ContentError(check.fonte.caminho, "o arquivo mudou durante o build; rode o build de novo")
    return lida.checagem


def _links_judged(_corpo: str) -> list[str]:
    return []


def _check_page(
    ctx: SiteContext, summary: ChecagemResumo, key: str, copias: dict[str, str], policy: str | None
) -> Artifact:
    # Planned for every check on every build: kept lean (no closure), the page's context is
    # built by `_check_context` only when the page must be rendered.
    fonte = summary.fonte
    assert fonte is not None
    own_copies = [copias[a] for a in summary.arquivos if a in copias] if copias else ()
    return Artifact(
        summary.url[1:] + "index.html",
        "checagem.html",
        fingerprint(fonte.sha256, key, str(policy), *own_copies),
        partial(_check_context, ctx, summary, copias, policy),
        fonte,
        lastmod=check_lastmod(summary),
    )


def check_card(ctx: SiteContext, check: ChecagemResumo) -> share_image.CartaoChecagem:
    """What a check's share image shows: who, the claim, the verdict, when; only what its
    listing row shows (`listing_key`) and site-wide settings, by which the card is made again."""
    candidato = ctx.candidatos[check.candidato]
    fuso = ctx.config.fuso_horario
    datas = f"Publicada em {data_extenso(check.publicado_em, fuso)}" if check.publicado_em else ""
    if check.atualizado_em:
        datas += f" · atualizada em {data_extenso(check.atualizado_em, fuso)}"
    return share_image.CartaoChecagem(
        marca=ctx.config.titulo,
        autoria=f"Checagem · afirmação de {candidato.nome} ({candidato.partido})",
        afirmacao=check.afirmacao,
        veredito=check.veredito,
        rotulo=VEREDITOS[check.veredito].rotulo,
        datas=datas,
        rodape=ctx.config.absolute(check.url),
        demonstracao=check.demonstracao or candidato.demonstracao,
    )


def _check_image(ctx: SiteContext, check: ChecagemResumo, key: str) -> Artifact:
    # The card shows part of what the check's listing row shows (`key`, its `listing_key`) and
    # site-wide settings: it is made only when one of them changed, not for every check at
    # every build.
    return share_image.artifact_checagem(
        f"{check.url}{share_image.FILE_NAME}", key, partial(check_card, ctx, check)
    )


def _check_context(
    ctx: SiteContext, summary: ChecagemResumo, copias: dict[str, str], policy: str | None
) -> dict[str, Any]:
    check = _full_check(ctx, summary)
    trilha = [("Início", "/"), ("Checagens", "/checagens/"), (check.afirmacao, check.url)]
    descricao = f"{VEREDITOS[check.veredito].rotulo}: {check.afirmacao}"
    candidato = ctx.candidatos[check.candidato]
    return {
        "titulo": check.afirmacao,
        "descricao": descricao,
        "trilha": trilha,
        "imagem_compartilhar": f"{check.url}{share_image.FILE_NAME}",
        "imagem_alt": f"{descricao} (checagem de {candidato.nome})",
        "checagem": _check_summary(summary, ctx),
        "fontes": [
            {
                "url": f.url,
                "titulo": f.titulo,
                "iso": f.acessado_em.isoformat(),
                "data": _date_text(f.acessado_em),
            }
            for f in check.fontes
        ],
        "ocorrencias": [
            {
                "url": o.url,
                "plataforma": PLATAFORMAS[o.plataforma],
                "data": o.data,
                "alcance": _alcance(o.alcance),
                "copia": copia_arquivada.url_da_pagina(copias[o.arquivo][1:]) if o.arquivo in copias else "",
                "warc": copias.get(o.arquivo, ""),
            }
            for o in sorted(check.ocorrencias, key=lambda o: o.data)
        ],
        "correcoes": check.correcoes,
        "historico": [
            {
                "tipo": TIPOS_HISTORICO[e.tipo],
                "data": e.data,
                "pessoa": ctx.editores.nome(e.pessoa),
                "nota": e.nota,
                "resultado": RESULTADOS_CONTESTACAO.get(e.resultado, ""),
            }
            for e in check.historico
        ],
        "autor": ctx.editores.nome(check.autor),
        "revisor": ctx.editores.nome(check.revisor),
        "contestar": contest_link(ctx.config, check),
        "politica_correcoes": policy,
        "jsonld": jsonld.claimreview(ctx.config, check, candidato, copias, policy),
    }


def verdict_counts(checks: list[ChecagemResumo]) -> list[tuple[Any, int]]:
    """How many published checks got each verdict, in the scale's order: a count, not a score
    (seed: "Ela não é um placar nem uma nota")."""
    counts = dict.fromkeys(VEREDITOS, 0)
    for check in checks:
        counts[check.veredito] += 1
    return [(VEREDITOS[code], n) for code, n in counts.items()]


def _candidate_pages(ctx: SiteContext, keys: list[str]) -> list[Artifact]:
    by_candidate: dict[str, list[tuple[ChecagemResumo, str]]] = {c: [] for c in ctx.candidatos}
    for check, key in zip(ctx.checagens, keys, strict=True):
        by_candidate[check.candidato].append((check, key))
    candidates = sorted(ctx.candidatos.values(), key=lambda c: (c.nome, c.id))
    artifacts = []
    for candidato in candidates:
        pairs = by_candidate[candidato.id]
        artifacts.append(_candidate_page(ctx, candidato, pairs))
    titulo = "Candidatos"
    descricao = "Os candidatos acompanhados pela redação e as checagens publicadas sobre o que cada um disse."
    trilha = [("Início", "/"), (titulo, CANDIDATES_URL)]
    artifacts.append(
        Artifact(
            CANDIDATES_URL.lstrip("/") + "index.html",
            "candidatos.html",
            fingerprint(*(f"{c.fonte.sha256}|{len(by_candidate[c.id])}" for c in candidates)),
            lambda: {
                "titulo": titulo,
                "descricao": descricao,
                "trilha": trilha,
                "candidatos": [(c, len(by_candidate[c.id])) for c in candidates],
                "demonstracao": any(c.demonstracao for c in candidates),
                "jsonld": jsonld.webpage(ctx.config, CANDIDATES_URL, titulo, descricao, trilha),
            },
            lastmod=checks_lastmod(ctx.checagens),
        )
    )
    return artifacts


def _candidate_page(
    ctx: SiteContext, candidato: Candidato, pairs: list[tuple[ChecagemResumo, str]]
) -> Artifact:
    checks = [c for c, _ in pairs]
    titulo = candidato.nome
    descricao = f"Checagens publicadas sobre o que {candidato.nome} ({candidato.partido}) disse nas redes."
    trilha = [("Início", "/"), ("Candidatos", CANDIDATES_URL), (titulo, candidato.url)]
    return Artifact(
        candidato.url.lstrip("/") + "index.html",
        "candidato.html",
        fingerprint(candidato.fonte.sha256, *(k for _, k in pairs)),
        lambda: {
            "titulo": titulo,
            "descricao": descricao,
            "trilha": trilha,
            "candidato": candidato,
            "contagem": verdict_counts(checks),
            "total": len(checks),
            "checagens": [_check_summary(c, ctx, k) for c, k in pairs],
            "demonstracao": candidato.demonstracao or any(c.demonstracao for c in checks),
            "jsonld": jsonld.webpage(ctx.config, candidato.url, titulo, descricao, trilha),
        },
        lastmod=checks_lastmod(checks),
    )


def _verdict_url(codigo: str) -> str:
    return f"/checagens/veredito/{codigo.replace('_', '-')}/"


def _theme_url(tema: str) -> str:
    return f"/checagens/tema/{tema}/"


# The filter links of the checks list, by group: (label, URL, number of checks) of each filter.
FilterLinks = dict[str, list[tuple[str, str, int]]]


def filter_links(ctx: SiteContext) -> FilterLinks:
    """Links that filter the checks list (pre-built pages, no JavaScript): by candidate (their
    page), by verdict and by theme; only filters with checks. Counted once per build, in one pass
    over the checks: every filter page shows them all."""
    por_candidato = dict.fromkeys(ctx.candidatos, 0)
    por_tema = dict.fromkeys(regras.TEMAS, 0)
    for check in ctx.checagens:
        por_candidato[check.candidato] += 1
        if check.tema in por_tema:
            por_tema[check.tema] += 1
    candidatos = sorted(ctx.candidatos.values(), key=lambda c: c.nome)
    return {
        "candidato": [(c.nome, c.url, por_candidato[c.id]) for c in candidatos if por_candidato[c.id]],
        "veredito": [(v.rotulo, _verdict_url(v.codigo), n) for v, n in verdict_counts(ctx.checagens) if n],
        "tema": [(rotulo, _theme_url(t), por_tema[t]) for t, rotulo in regras.TEMAS.items() if por_tema[t]],
    }


def check_filters(links: FilterLinks, atual: str) -> dict[str, list[dict[str, Any]]]:
    """The filter links as the templates show them; `atual` is the current page's URL."""
    return {
        grupo: [{"rotulo": rotulo, "url": url, "n": n, "atual": url == atual} for rotulo, url, n in items]
        for grupo, items in links.items()
    }


def _filter_pages(ctx: SiteContext, keys: list[str], links: Callable[[], FilterLinks]) -> list[Artifact]:
    """One page per verdict and per theme that has checks (candidates have their own pages)."""
    # Every filter page shows every filter's link and count: a check moving to another verdict
    # or theme, or a candidate renamed, touches them all; any other change only its own pages.
    filters = repr(links())
    by_verdict: dict[str, list[tuple[ChecagemResumo, str]]] = {v: [] for v in VEREDITOS}
    by_theme: dict[str, list[tuple[ChecagemResumo, str]]] = {t: [] for t in regras.TEMAS}
    for check, key in zip(ctx.checagens, keys, strict=True):
        by_verdict[check.veredito].append((check, key))
        if check.tema in by_theme:
            by_theme[check.tema].append((check, key))
    groups = [(VEREDITOS[v].rotulo, _verdict_url(v), pairs) for v, pairs in by_verdict.items()]
    groups += [(regras.TEMAS[t], _theme_url(t), pairs) for t, pairs in by_theme.items()]
    return [_filter_page(ctx, rotulo, url, pairs, filters, links) for rotulo, url, pairs in groups if pairs]


def _filter_page(
    ctx: SiteContext,
    rotulo: str,
    url: str,
    pairs: list[tuple[ChecagemResumo, str]],
    filters: str,
    links: Callable[[], FilterLinks],
) -> Artifact:
    titulo = f"Checagens: {rotulo}"
    descricao = f"As checagens publicadas com o filtro “{rotulo}”."
    trilha = [("Início", "/"), ("Checagens", "/checagens/"), (rotulo, url)]
    return Artifact(
        url.lstrip("/") + "index.html",
        "checagens_filtro.html",
        fingerprint(url, filters, *(k for _, k in pairs)),
        lambda: {
            "titulo": titulo,
            "descricao": descricao,
            "trilha": trilha,
            "checagens": [_check_summary(c, ctx, k) for c, k in pairs],
            "filtros": check_filters(links(), url),
            "jsonld": jsonld.webpage(ctx.config, url, titulo, descricao, trilha),
        },
        lastmod=checks_lastmod(c for c, _ in pairs),
    )


def _corrections_page(ctx: SiteContext) -> Artifact:
    titulo = "Correções"
    descricao = "Todas as correções feitas em checagens já publicadas, com data e explicação."
    trilha = [("Início", "/"), ("Checagens", "/checagens/"), (titulo, CORRECTIONS_URL)]
    items = sorted(
        ((correcao, check) for check in ctx.checagens for correcao in check.correcoes),
        key=lambda pair: (pair[0].data, pair[1].slug),
        reverse=True,
    )
    keys = [
        f"{check.url}|{check.afirmacao}|{check.candidato}|{correcao.data.timestamp()}|{correcao.explicacao}"
        for correcao, check in items
    ]
    return Artifact(
        CORRECTIONS_URL.lstrip("/") + "index.html",
        "correcoes.html",
        fingerprint(*keys, *(f"{c.id}|{c.fonte.sha256}" for c in ctx.candidatos.values())),
        lambda: {
            "titulo": titulo,
            "descricao": descricao,
            "trilha": trilha,
            "correcoes": [
                {
                    "data": correcao.data,
                    "explicacao": correcao.explicacao,
                    "checagem": _check_summary(check, ctx),
                }
                for correcao, check in items
            ],
            "politica_correcoes": _corrections_policy(ctx),
            "demonstracao": any(_check_summary(c, ctx)["demonstracao"] for _, c in items),
            "jsonld": jsonld.webpage(ctx.config, CORRECTIONS_URL, titulo, descricao, trilha),
        },
        lastmod=latest(w3c(correcao.data) for correcao, _ in items),
    )


def _feed(ctx: SiteContext, checks: list[ChecagemResumo]) -> dict[str, Any]:
    """The Atom feed's context: an entry is `updated` by its latest correction."""
    entries = []
    for check in checks:
        summary = _check_summary(check, ctx)
        summary["atualizado"] = check.atualizado_em or check.publicado_em
        entries.append(summary)
    updated = max((e["atualizado"] for e in entries), default=None)
    return {"checagens": entries, "feed_url": FEED_PATH, "atualizado": updated}


def _not_found(ctx: SiteContext) -> dict[str, Any]:
    titulo = "Página não encontrada"
    descricao = "O endereço procurado não existe neste site."
    return {
        "titulo": titulo,
        "descricao": descricao,
        "jsonld": jsonld.webpage(ctx.config, "/404.html", titulo, descricao, [("Início", "/")]),
    }
