"""The render path's shortcuts give what the long way gives: compiled templates kept between
builds (a corrupt one is compiled again) and the link check's reading of plain paths."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from site_builder.build import TEMPLATE_CACHE, build_site, state_path
from site_builder.links import target_of
from tests.site_builder.conftest import REPO, snapshot

GOLDEN = REPO / "tests" / "golden" / "site_minimo"


def test_compiled_templates_are_kept_and_a_corrupt_one_is_compiled_again(
    project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    compiled = sorted((state_path(project, out).parent / TEMPLATE_CACHE).iterdir())
    assert len(compiled) >= 3  # the page templates and what they extend and import
    for path in compiled:
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    shutil.rmtree(out)
    shutil.rmtree(state_path(project, out))
    build_site(project, out, strict=True)
    assert snapshot(out) == snapshot(GOLDEN)


def _split_target(link: str) -> str:
    path = urlsplit(link).path.lstrip("/")
    return path + "index.html" if path == "" or path.endswith("/") else path


LINKS = ["/", "/a/", "/a/b.html", "/a?x=1", "/a#f", "//x/y", "/a b/", "/a\tb", "/a\n/", "/a:b", "/ç/"]
LINKS += ["/a/%20", "", "a", "http://x/y", "/a;b", "///a", "/a\x00b", "/ a", "/a\r"]


@pytest.mark.parametrize("link", LINKS)
def test_a_plain_path_is_its_own_target(link: str) -> None:
    assert target_of(link) == _split_target(link)
