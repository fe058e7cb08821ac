"""The site's pages: each generator turns the SiteContext into artifacts (output path, template,
input fingerprint, and a context built only if the artifact must be rendered)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jobs.vereditos import VEREDITOS
from site_builder import debates, jsonld, projecao
from site_builder.artifact import Artifact, url_of
from site_builder.collect import fingerprint
from site_builder.records import Checagem, Pagina, SiteContext

FEED_PATH = "/checagens/feed.xml"
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


def _check_summary(check: Checagem, ctx: SiteContext) -> dict[str, Any]:
    candidato = ctx.candidatos[check.candidato]
    return {
        "url": check.url,
        "afirmacao": check.afirmacao,
        "veredito": VEREDITOS[check.veredito],
        "candidato": candidato,
        "publicado_em": check.publicado_em,
        "demonstracao": check.demonstracao or candidato.demonstracao,
    }


def _check_key(check: Checagem, ctx: SiteContext) -> str:
    # What a listing shows of a check: a change anywhere else in it does not touch the listings.
    candidato = ctx.candidatos[check.candidato].fonte.sha256
    return f"{check.url}|{check.afirmacao}|{check.veredito}|{check.publicado_em.timestamp()}|{candidato}"


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
) -> Artifact:
    intro = ctx.secoes[secao]
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

    return Artifact(path, template, fingerprint(intro.fonte.sha256, *extra_keys), context, intro.fonte)


def plan(ctx: SiteContext) -> list[Artifact]:
    """Every artifact of the site, in a fixed order."""
    home = [("Início", "/")]
    checks = ctx.checagens
    keys = [_check_key(c, ctx) for c in checks]

    def summaries(items: list[Checagem]) -> list[dict[str, Any]]:
        return [_check_summary(c, ctx) for c in items]

    artifacts = [
        _section_page(
            ctx,
            "inicio",
            "index.html",
            "inicio.html",
            home,
            lambda: {"checagens": summaries(checks[:HOME_CHECKS]), "metodologia": ctx.metodologia},
            keys[:HOME_CHECKS] + _page_keys(ctx.metodologia),
        ),
        _section_page(
            ctx,
            "projecao",
            "projecao/index.html",
            "secao.html",
            [*home, ("Projeção", "/projecao/")],
            dict,
            [],
        ),
        _section_page(
            ctx, "debates", "debates/index.html", "secao.html", [*home, ("Debates", "/debates/")], dict, []
        ),
        _section_page(
            ctx,
            "checagens",
            "checagens/index.html",
            "checagens.html",
            [*home, ("Checagens", "/checagens/")],
            lambda: {"checagens": summaries(checks)},
            keys,
        ),
        _section_page(
            ctx,
            "metodologia",
            "metodologia/index.html",
            "metodologia.html",
            [*home, ("Metodologia", "/metodologia/")],
            lambda: {"paginas": ctx.metodologia},
            _page_keys(ctx.metodologia),
        ),
    ]
    artifacts += [_methodology_page(ctx, page) for page in ctx.metodologia]
    artifacts += projecao.plan(ctx)
    artifacts += debates.plan(ctx)
    artifacts += [_check_page(ctx, check, key) for check, key in zip(checks, keys, strict=True)]
    artifacts.append(Artifact("404.html", "404.html", fingerprint(), lambda: _not_found(ctx), sitemap=False))
    artifacts.append(
        Artifact(
            FEED_PATH.lstrip("/"),
            "feed.xml",
            fingerprint(*keys[:FEED_ENTRIES]),
            lambda: {"checagens": summaries(checks[:FEED_ENTRIES]), "feed_url": FEED_PATH},
            sitemap=False,
        )
    )
    pages = [a.url for a in artifacts if a.sitemap]
    artifacts.append(
        Artifact("sitemap.xml", "sitemap.xml", fingerprint(*pages), lambda: {"urls": pages}, sitemap=False)
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
            "jsonld": jsonld.webpage(ctx.config, page.url, page.titulo, page.descricao, trilha),
        },
        page.fonte,
    )


def _check_page(ctx: SiteContext, check: Checagem, key: str) -> Artifact:
    trilha = [("Início", "/"), ("Checagens", "/checagens/"), (check.afirmacao, check.url)]
    descricao = f"{VEREDITOS[check.veredito].rotulo}: {check.afirmacao}"
    return Artifact(
        check.url.lstrip("/") + "index.html",
        "checagem.html",
        fingerprint(check.fonte.sha256, key),
        lambda: {
            "titulo": check.afirmacao,
            "descricao": descricao,
            "trilha": trilha,
            "checagem": _check_summary(check, ctx),
            "jsonld": jsonld.webpage(ctx.config, check.url, check.afirmacao, descricao, trilha),
        },
        check.fonte,
    )


def _not_found(ctx: SiteContext) -> dict[str, Any]:
    titulo = "Página não encontrada"
    descricao = "O endereço procurado não existe neste site."
    return {
        "titulo": titulo,
        "descricao": descricao,
        "jsonld": jsonld.webpage(ctx.config, "/404.html", titulo, descricao, [("Início", "/")]),
    }
