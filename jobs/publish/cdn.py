"""CDN invalidation (CloudFront through boto3), with the changed paths collapsed to a handful.

Hashed assets never need invalidating (a new version has a new name); new objects neither (the
CDN has nothing cached for them). Overwritten and deleted objects do.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from typing import Any

from jobs.publish.config import PublishConfig
from jobs.publish.kinds import is_hashed_asset
from jobs.publish.targets import boto3_client


def url_paths(keys: Iterable[str]) -> list[str]:
    """The URL paths readers use for object keys (`x/index.html` is read as `/x/` too)."""
    paths: set[str] = set()
    for key in keys:
        if is_hashed_asset(key):
            continue
        paths.add("/" + key)
        if key == "index.html" or key.endswith("/index.html"):
            paths.add("/" + key[: -len("index.html")])
    return sorted(paths)


def _parts(path: str) -> list[str]:
    """`/a/b/x.html` -> ["a", "b", "x.html"]; `/a/` -> ["a", ""] (the last part is never a folder)."""
    return path.lstrip("/").split("/")


def _without_covered(paths: set[str]) -> list[str]:
    wildcards = [p[:-1] for p in paths if p.endswith("*")]
    return sorted(p for p in paths if not any(p != w + "*" and p.startswith(w) for w in wildcards))


def collapse_paths(paths: Iterable[str], maximo: int) -> list[str]:
    """At most `maximo` invalidation paths covering every path given.

    Folders are replaced by a wildcard from the deepest level up, the folder holding most paths
    first, until the list fits (`/checagens/a/`, `/checagens/b/` -> `/checagens/*`); `/*` is the
    last resort. CloudFront bills per path and a wildcard counts as one.
    """
    current = set(_without_covered(set(paths)))
    if len(current) <= maximo:
        return sorted(current)
    for depth in range(max(len(_parts(p)) - 1 for p in current), -1, -1):
        groups: dict[str, list[str]] = {}
        for path in current:
            parts = _parts(path)
            if len(parts) > depth:
                groups.setdefault("/" + "".join(part + "/" for part in parts[:depth]), []).append(path)
        # Folders of one level never nest, so collapsing one leaves the others' counts as they are.
        for folder, members in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
            if len(members) < 2:
                break
            current.difference_update(members)
            current.add(folder + "*")
            if len(current) <= maximo:
                return _without_covered(current)
    return ["/*"]


def invalidation_batch(caminhos: list[str], agora_ns: int | None = None) -> dict[str, Any]:
    """The InvalidationBatch of a CreateInvalidation request."""
    stamp = agora_ns if agora_ns is not None else time.time_ns()
    reference = hashlib.sha256(("\n".join(caminhos) + f"\n{stamp}").encode("utf-8")).hexdigest()[:32]
    return {"Paths": {"Quantity": len(caminhos), "Items": list(caminhos)}, "CallerReference": reference}


def invalidate(cfg: PublishConfig, caminhos: list[str], client: Any = None) -> str:
    """Ask CloudFront to invalidate `caminhos`; return the invalidation id."""
    cdn = client or boto3_client("cloudfront", cfg, cfg.cdn_endpoint)
    answer = cdn.create_invalidation(
        DistributionId=cfg.cdn_distribuicao, InvalidationBatch=invalidation_batch(caminhos)
    )
    return str(answer["Invalidation"]["Id"])
