"""Content-Type, Cache-Control and upload tier of each kind of published file."""

from __future__ import annotations

import pytest

from jobs.publish.config import PublishConfig
from jobs.publish.kinds import CONTENT_TYPES, cache_control, content_type, is_hashed_asset
from site_builder.assets import hashed_name
from site_builder.tiers import Tier, tier_of


def test_the_builder_hashed_names_are_recognised_as_hashed_assets() -> None:
    for name in ("estilo.css", "graficos/barras.js", "favicon.svg", "LICENCA"):
        assert is_hashed_asset("static/" + hashed_name(name, name.encode()))
    assert not is_hashed_asset("static/favicon.svg")
    assert not is_hashed_asset("checagens/estilo.e0b553eb7c.css")  # hashed names live in static/ only


def test_text_types_carry_utf8_and_binary_types_do_not() -> None:
    for ext, kind in CONTENT_TYPES.items():
        base = kind.split(";")[0]
        if base.startswith("text/") or base.endswith(("json", "xml")):
            assert kind.endswith("; charset=utf-8"), ext
        else:
            assert "charset" not in kind, ext


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("index.html", "text/html; charset=utf-8"),
        ("checagens/feed.xml", "application/xml; charset=utf-8"),
        ("projecao/6258/presidente/2026-10-25T21-00-00Z/br-c0001-e006258-u.jws", "application/jose"),
        ("static/ESTILO.CSS", "text/css; charset=utf-8"),
        ("LEIAME", "application/octet-stream"),
        (".well-known/security.txt", "text/plain; charset=utf-8"),
    ],
)
def test_content_type_comes_from_the_explicit_table(key: str, expected: str) -> None:
    assert content_type(key) == expected


def test_cache_control_per_kind() -> None:
    cfg = PublishConfig(cache_html_s=45, cache_dados_s=5, cache_outros_s=600)
    assert cache_control("static/estilo.e0b553eb7c.css", cfg) == "public, max-age=31536000, immutable"
    assert cache_control("checagens/x/index.html", cfg) == "public, max-age=45, must-revalidate"
    assert cache_control("projecao/presidente/saida.json", cfg) == "public, max-age=5, must-revalidate"
    assert cache_control("sitemap.xml", cfg) == "public, max-age=600"
    assert cache_control("static/favicon.svg", cfg) == "public, max-age=600"


def test_tiers_put_what_pages_use_before_pages_and_indexes_after() -> None:
    assert tier_of("static/estilo.e0b553eb7c.css") == Tier.ASSET
    assert tier_of("static/dados.json") == Tier.ASSET
    assert tier_of("favicon.ico") == Tier.ASSET
    assert tier_of("projecao/presidente/saida.json") == Tier.DATA
    assert tier_of("checagens/x/index.html") == Tier.HTML
    assert tier_of("sitemap.xml") == Tier.INDEX
    assert tier_of("robots.txt") == Tier.INDEX
    assert Tier.ASSET < Tier.DATA < Tier.HTML < Tier.INDEX
