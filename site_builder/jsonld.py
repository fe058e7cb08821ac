"""schema.org JSON-LD objects for the pages. Templates emit them with `|tojson`, which escapes
`<`, `>`, `&` and `'`, so no string inside can close the script element."""

from __future__ import annotations

from typing import Any

from site_builder.config import SiteConfig


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
