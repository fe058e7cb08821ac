"""schema.org JSON-LD objects for the pages. Templates emit them with `|tojson`, which escapes
`<`, `>`, `&` and `'`, so no string inside can close the script element."""

from __future__ import annotations

import datetime as dt
from typing import Any

from site_builder.config import SiteConfig
from site_builder.conteudo.registros import Candidato, Checagem
from site_builder.conteudo.vereditos import VEREDITOS


def organizacao(config: SiteConfig) -> dict[str, Any]:
    """The organisation that publishes the site."""
    return {"@type": "Organization", "name": config.organizacao, "url": config.absolute("/")}


def website(config: SiteConfig) -> dict[str, Any]:
    """JSON-LD of the site as a whole (home page)."""
    return {
        "@context": "https://schema.org",
        "@type": "WebSite",
        "name": config.titulo,
        "description": config.descricao,
        "url": config.absolute("/"),
        "inLanguage": "pt-BR",
        "publisher": organizacao(config),
    }


def webpage(
    config: SiteConfig, path: str, titulo: str, descricao: str, trilha: list[tuple[str, str]]
) -> dict[str, Any]:
    """JSON-LD of one page with its breadcrumb trail [(name, root-relative path), ...]."""
    return {
        "@context": "https://schema.org",
        "@type": "WebPage",
        "name": titulo,
        "description": descricao,
        "url": config.absolute(path),
        "inLanguage": "pt-BR",
        "isPartOf": {"@type": "WebSite", "name": config.titulo, "url": config.absolute("/")},
        "breadcrumb": {
            "@type": "BreadcrumbList",
            "itemListElement": [
                {"@type": "ListItem", "position": i, "name": name, "item": config.absolute(url)}
                for i, (name, url) in enumerate(trilha, start=1)
            ],
        },
    }


def iso(value: dt.datetime | dt.date) -> str:
    """ISO 8601 as schema.org dates are written (UTC date-times end in `Z`)."""
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    return value.isoformat()


def claimreview(
    config: SiteConfig,
    check: Checagem,
    candidato: Candidato,
    copias: dict[str, str],
    politica_correcoes: str | None,
) -> dict[str, Any]:
    """The page's one ClaimReview (../shared/CLAIMREVIEW.md): the verdict as a 1-5 rating
    named by its label, the claim with its author (the candidate) and every occurrence.

    `copias` maps an archived copy's source path to its root-relative URL on this site.
    """
    veredito = VEREDITOS[check.veredito]
    url = config.absolute(check.url)
    autor: dict[str, Any] = {"@type": "Person", "name": candidato.nome}
    if candidato.perfis:
        autor["sameAs"] = list(candidato.perfis)
    organizacao_ = organizacao(config)
    if politica_correcoes is not None:
        organizacao_["correctionsPolicy"] = config.absolute(politica_correcoes)
    aparicoes = []
    for ocorrencia in check.ocorrencias:
        aparicao: dict[str, Any] = {
            "@type": "CreativeWork",
            "url": ocorrencia.url,
            "datePublished": iso(ocorrencia.data),
        }
        if ocorrencia.arquivo in copias:
            aparicao["archivedAt"] = config.absolute(copias[ocorrencia.arquivo])
        aparicoes.append(aparicao)
    primeira = min((o.data for o in check.ocorrencias), default=None)
    afirmacao: dict[str, Any] = {"@type": "Claim", "@id": f"{url}#afirmacao", "author": autor}
    if primeira is not None:
        afirmacao["datePublished"] = iso(primeira)
    afirmacao["appearance"] = aparicoes
    dados: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "ClaimReview",
        "@id": f"{url}#checagem",
        "url": url,
        "inLanguage": "pt-BR",
        "claimReviewed": check.afirmacao,
        "author": organizacao_,
        "reviewRating": {
            "@type": "Rating",
            "ratingValue": veredito.nota_claimreview,
            "bestRating": 5,
            "worstRating": 1,
            "alternateName": veredito.rotulo,
        },
        "itemReviewed": afirmacao,
    }
    if check.publicado_em is not None:
        dados["datePublished"] = iso(check.publicado_em)
    if (atualizado := check.atualizado_em) is not None:
        dados["dateModified"] = iso(atualizado)
        dados["correction"] = [
            {"@type": "CorrectionComment", "datePublished": iso(c.data), "text": c.explicacao}
            for c in check.correcoes
        ]
    return dados
