"""CDN invalidation: paths collapsed to a handful, and the request against moto's CloudFront."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobs.publish.cdn import collapse_paths, invalidation_batch, url_paths
from jobs.publish.config import PublishConfig
from jobs.publish.publisher import PublishError, publicar
from jobs.publish.targets import boto3_client
from tests.publish.conftest import S3, write_site


def _covers(pattern: str, path: str) -> bool:
    return path.startswith(pattern[:-1]) if pattern.endswith("*") else path == pattern


def test_url_paths_name_folders_as_readers_request_them_and_skip_hashed_assets() -> None:
    keys = ["index.html", "checagens/a/index.html", "sitemap.xml", "static/estilo.e0b553eb7c.css"]
    assert url_paths(keys) == ["/", "/checagens/a/", "/checagens/a/index.html", "/index.html", "/sitemap.xml"]


def test_collapse_keeps_exact_paths_when_they_fit() -> None:
    assert collapse_paths(["/b/", "/a/", "/a/"], 5) == ["/a/", "/b/"]
    assert collapse_paths([], 5) == []


def test_collapse_cuts_to_the_deepest_folder_that_fits() -> None:
    paths = [f"/checagens/c{i}/" for i in range(40)] + [f"/checagens/c{i}/index.html" for i in range(40)]
    paths += ["/", "/index.html", "/projecao/presidente/saida.json"]
    assert collapse_paths(paths, 4) == ["/", "/checagens/*", "/index.html", "/projecao/presidente/saida.json"]
    assert collapse_paths(paths, 3) == ["/*"]


def test_collapse_drops_paths_a_wildcard_already_covers() -> None:
    paths = ["/debates/d1/", "/debates/d1/placar.json", "/debates/d2/", "/debates/"]
    assert collapse_paths(paths, 2) == ["/debates/*"]


PATHS = st.lists(st.from_regex(r"/([a-c]{1,2}/){0,3}[a-c]{0,2}", fullmatch=True), max_size=40)


@given(PATHS, st.integers(1, 6))
def test_collapse_always_covers_every_path_within_the_limit(paths: list[str], limit: int) -> None:
    collapsed = collapse_paths(paths, limit)
    assert len(collapsed) <= limit
    for path in paths:
        assert any(_covers(p, path) for p in collapsed), (path, collapsed)


def test_invalidation_batch_has_a_fresh_caller_reference() -> None:
    first = invalidation_batch(["/a/*"], agora_ns=1)
    assert first["Paths"] == {"Quantity": 1, "Items": ["/a/*"]}
    assert first["CallerReference"] != invalidation_batch(["/a/*"], agora_ns=2)["CallerReference"]


@pytest.fixture
def distribution(moto_endpoint: str) -> str:
    """A CloudFront distribution on the moto server."""
    cf = boto3_client("cloudfront", PublishConfig(), moto_endpoint)
    s3_origin = {"OriginAccessIdentity": ""}
    origin = {"Id": "site", "DomainName": "s.s3.amazonaws.com", "S3OriginConfig": s3_origin}
    behaviour = {"TargetOriginId": "site", "ViewerProtocolPolicy": "allow-all", "MinTTL": 0}
    answer = cf.create_distribution(
        DistributionConfig={
            "CallerReference": str(Path().resolve()) + str(id(cf)),
            "Comment": "teste",
            "Enabled": True,
            "Origins": {"Quantity": 1, "Items": [origin]},
            "DefaultCacheBehavior": behaviour,
        }
    )
    return str(answer["Distribution"]["Id"])


def _invalidated(cf: Any, distribution: str) -> list[list[str]]:
    items = cf.list_invalidations(DistributionId=distribution)["InvalidationList"].get("Items", [])
    batches = [cf.get_invalidation(DistributionId=distribution, Id=i["Id"]) for i in items]
    return sorted(b["Invalidation"]["InvalidationBatch"]["Paths"]["Items"] for b in batches)


def test_publish_invalidates_overwritten_and_deleted_paths(s3: S3, tmp_path: Path, distribution: str) -> None:
    config = dataclasses.replace(
        s3.config, cdn_distribuicao=distribution, cdn_endpoint=s3.endpoint, cdn_max_caminhos=3
    )
    cf = boto3_client("cloudfront", config, s3.endpoint)
    public = tmp_path / "public"
    write_site(public, pages=4)
    first = publicar(config, public, destino=s3.target)
    assert first.invalidados == [] and _invalidated(cf, distribution) == []  # nothing was cached yet
    write_site(public, version=2, pages=3)
    report = publicar(config, public, destino=s3.target)
    assert report.invalidados == ["/*"] or len(report.invalidados) <= 3
    assert _invalidated(cf, distribution) == [sorted(report.invalidados)]
    for path in ("/", "/checagens/p3/", "/checagens/p0/", "/projecao/presidente/saida.json", "/sitemap.xml"):
        assert any(_covers(p, path) for p in report.invalidados), path
    assert not any(p.startswith("/static/estilo") for p in report.invalidados)


def test_failed_invalidation_is_retried_by_the_next_run(s3: S3, tmp_path: Path, distribution: str) -> None:
    public = tmp_path / "public"
    write_site(public)
    good = dataclasses.replace(s3.config, cdn_distribuicao=distribution, cdn_endpoint=s3.endpoint)
    publicar(good, public, destino=s3.target)
    page = public / "checagens" / "p1" / "index.html"
    page.write_bytes(page.read_bytes() + b"!")
    wrong = dataclasses.replace(good, cdn_distribuicao="NAOEXISTE")
    with pytest.raises(PublishError, match="invalidação da CDN falhou"):
        publicar(wrong, public, destino=s3.target)
    retry = publicar(good, public, destino=s3.target)
    assert retry.enviados == []
    assert retry.invalidados == ["/checagens/p1/", "/checagens/p1/index.html"]
