"""Publishing to a real S3 API (moto's standalone server on loopback)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from jobs.publish.kinds import Headers, cache_control, content_type, is_hashed_asset
from jobs.publish.publisher import PublishError, publicar
from jobs.publish.targets import S3Target
from site_builder.build import build_site
from tests.publish.conftest import S3, broken_references, md5s, write_site

YEAR = "public, max-age=31536000, immutable"
HTML = ("text/html; charset=utf-8", "public, max-age=60, must-revalidate")
JSON = ("application/json; charset=utf-8", "public, max-age=10, must-revalidate")


def test_first_publish_uploads_everything_with_the_right_headers(s3: S3, tmp_path: Path) -> None:
    files = write_site(tmp_path / "public")
    report = publicar(s3.config, tmp_path / "public")
    assert sorted(report.enviados) == sorted(files)
    assert s3.objects() == files
    css = next(k for k in files if k.endswith(".css"))
    expected = {
        css: ("text/css; charset=utf-8", YEAR),
        "static/favicon.svg": ("image/svg+xml; charset=utf-8", "public, max-age=300"),
        "index.html": ("text/html; charset=utf-8", "public, max-age=60, must-revalidate"),
        "checagens/p0/index.html": ("text/html; charset=utf-8", "public, max-age=60, must-revalidate"),
        "projecao/presidente/saida.json": (
            "application/json; charset=utf-8",
            "public, max-age=10, must-revalidate",
        ),
        "sitemap.xml": ("application/xml; charset=utf-8", "public, max-age=300"),
    }
    for key, headers in expected.items():
        head = s3.head(key)
        assert (head["ContentType"], head["CacheControl"]) == headers, key


def test_upload_order_puts_what_a_page_needs_before_the_page(s3: S3, tmp_path: Path) -> None:
    write_site(tmp_path / "public")
    order = publicar(s3.config, tmp_path / "public", destino=s3.target).enviados
    position = {key: i for i, key in enumerate(order)}
    last_asset = max(position[k] for k in order if k.startswith("static/"))
    assert (
        last_asset
        < position["projecao/presidente/saida.json"]
        < min(position[k] for k in order if k.endswith(".html"))
    )
    assert max(position[k] for k in order if k.endswith(".html")) < position["sitemap.xml"]


def test_second_publish_of_the_same_build_uploads_nothing(s3: S3, tmp_path: Path) -> None:
    write_site(tmp_path / "public")
    publicar(s3.config, tmp_path / "public", destino=s3.target)
    again = publicar(s3.config, tmp_path / "public", destino=s3.target)
    assert again.enviados == [] and again.removidos == []
    assert not again.mudou
    assert again.plano.unchanged == len(s3.objects())


def test_one_changed_page_uploads_that_page_only(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_site(public)
    publicar(s3.config, public, destino=s3.target)
    page = public / "checagens" / "p3" / "index.html"
    page.write_bytes(page.read_bytes().replace(b"P\xc3\xa1gina 3", b"P\xc3\xa1gina tr\xc3\xaas"))
    report = publicar(s3.config, public, destino=s3.target)
    assert report.enviados == ["checagens/p3/index.html"]
    assert s3.objects()["checagens/p3/index.html"] == page.read_bytes()


def test_same_size_edit_is_noticed_by_md5(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_site(public)
    publicar(s3.config, public, destino=s3.target)
    page = public / "checagens" / "p1" / "index.html"
    page.write_bytes(page.read_bytes().replace(b"1</h1>", b"7</h1>"))
    assert publicar(s3.config, public, destino=s3.target).enviados == ["checagens/p1/index.html"]


def test_removed_page_is_deleted_and_old_assets_wait_for_the_grace_period(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    v1 = write_site(public, version=1, pages=5)
    publicar(s3.config, public, destino=s3.target, agora=lambda: 1_000_000.0)
    v2 = write_site(public, version=2, pages=4)
    report = publicar(s3.config, public, destino=s3.target, agora=lambda: 1_000_100.0)
    old_css = next(k for k in v1 if k.endswith(".css"))
    assert report.removidos == ["checagens/p4/index.html"]
    assert report.plano.in_grace == [old_css]
    assert set(s3.objects()) == set(v2) | {old_css}
    later = 1_000_100.0 + s3.config.graca_assets_h * 3600  # counted from when it left the site
    report = publicar(s3.config, public, destino=s3.target, agora=lambda: later)
    assert report.removidos == [old_css]
    assert s3.objects() == v2


def test_deletions_are_capped_per_run_and_the_next_run_continues(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_site(public, pages=6)
    config = dataclasses.replace(s3.config, max_remocoes=2)
    publicar(config, public, destino=s3.target)
    final = write_site(public, pages=1)
    first = publicar(config, public, destino=s3.target)
    assert len(first.removidos) == 2 and len(first.plano.postponed) == 3
    assert "remoções adiadas" in first.avisos[0]
    publicar(config, public, destino=s3.target)
    publicar(config, public, destino=s3.target)
    assert s3.objects() == final


def test_changed_cache_control_is_noticed_through_the_manifest(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_site(public)
    publicar(s3.config, public, destino=s3.target)
    config = dataclasses.replace(s3.config, cache_html_s=30)
    report = publicar(config, public, destino=s3.target)
    assert sorted(report.enviados) == sorted(k for k in s3.objects() if k.endswith(".html"))
    assert {u.reason for u in report.plano.uploads} == {"cabecalhos"}
    assert s3.head("index.html")["CacheControl"] == "public, max-age=30, must-revalidate"


def test_lost_manifest_costs_a_reupload_but_never_a_wrong_header(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    files = write_site(public)
    publicar(s3.config, public, destino=s3.target)
    for path in s3.config.estado.iterdir():
        path.unlink()
    report = publicar(s3.config, public, destino=s3.target)
    assert {u.reason for u in report.plano.uploads} == {"sem_registro"}
    assert publicar(s3.config, public, destino=s3.target).enviados == []
    assert s3.objects() == files


def test_between_full_listings_the_manifest_stands_for_the_bucket(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    files = write_site(public)
    config = dataclasses.replace(s3.config, verificar_bucket_s=300)
    assert publicar(config, public, destino=s3.target, agora=lambda: 1000.0).listagem == "destino"
    s3.client.delete_object(Bucket=s3.bucket, Key="checagens/p2/index.html")  # by hand, behind our back
    page = public / "checagens" / "p1" / "index.html"
    page.write_bytes(page.read_bytes() + b"<p>nova</p>")
    quick = publicar(config, public, destino=s3.target, agora=lambda: 1200.0)
    assert quick.listagem == "manifesto" and quick.enviados == ["checagens/p1/index.html"]
    full = publicar(config, public, destino=s3.target, agora=lambda: 1300.0)
    assert full.listagem == "destino" and full.enviados == ["checagens/p2/index.html"]
    assert set(s3.objects()) == set(files)


def test_staging_folder_and_hidden_files_are_never_uploaded(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    files = write_site(public)
    (public / ".eleicoes-staging").mkdir()
    (public / ".eleicoes-staging" / "000001").write_bytes(b"meio build")
    (public / "checagens" / ".index.html.tmp-1").write_bytes(b"temp")
    publicar(s3.config, public, destino=s3.target)
    assert set(s3.objects()) == set(files)


def test_prefix_keeps_the_site_in_its_folder_and_leaves_other_keys_alone(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    files = write_site(public)
    s3.client.put_object(Bucket=s3.bucket, Key="outro-site/index.html", Body=b"outro")
    config = dataclasses.replace(s3.config, prefixo="eleicoes/")
    publicar(config, public)
    write_site(public, pages=0)
    publicar(config, public)
    objects = s3.objects()
    assert objects["outro-site/index.html"] == b"outro"
    assert "eleicoes/checagens/p0/index.html" not in objects
    assert objects["eleicoes/index.html"] == (public / "index.html").read_bytes()
    assert len(files) > len([k for k in objects if k.startswith("eleicoes/")])


def test_dry_run_prints_the_plan_and_touches_nothing(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    files = write_site(public)
    report = publicar(s3.config, public, destino=s3.target, seco=True)
    assert s3.objects() == {}
    assert report.mudou and report.enviados == []
    lines = report.plano.lines()
    assert len(lines) == len(files)
    assert lines[0].startswith("enviar  static/")
    assert "(simulação)" in report.resumo()
    assert not any(s3.config.estado.glob("*.json"))


def test_missing_build_is_refused(s3: S3, tmp_path: Path) -> None:
    (tmp_path / "public").mkdir()
    with pytest.raises(PublishError, match="rode 'eleicoes build'"):
        publicar(s3.config, tmp_path / "public", destino=s3.target)


class FailingTarget(S3Target):
    """The real bucket, with a network failure injected at the n-th upload."""

    def __init__(self, base: S3Target, fail_at: int) -> None:
        super().__init__(base.client, base.bucket, base.prefix, base.endpoint)
        self.fail_at = fail_at
        self.calls = 0

    def put(self, key: str, data: bytes, md5: str, headers: Headers) -> str:
        self.calls += 1
        if self.calls == self.fail_at:
            raise ConnectionError("conexão recusada (falha injetada)")
        return super().put(key, data, md5, headers)


def test_failure_midway_leaves_a_consistent_site_and_the_rerun_converges(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    config = dataclasses.replace(s3.config, graca_assets_h=0)  # old assets go as soon as allowed
    target = s3.target
    fail_at = 1
    while True:
        # Each round starts from the published v1 site, then fails at a later upload of v2.
        write_site(public, version=1, pages=2)
        publicar(config, public, destino=target)
        v2 = write_site(public, version=2, pages=3)
        planned = len(publicar(config, public, seco=True, destino=target).plano.uploads)
        if fail_at > planned:
            break
        with pytest.raises(PublishError, match="falha injetada"):
            publicar(config, public, destino=FailingTarget(target, fail_at))
        broken = broken_references(s3.html())
        assert broken == [], f"falha no envio {fail_at}: {broken}"
        rerun = publicar(config, public, destino=target)
        assert len(rerun.enviados) <= planned - (fail_at - 1)
        assert s3.md5s() == md5s(v2)
        fail_at += 1
    assert fail_at > 8  # the rounds failed in every tier: asset, data, new page, changed pages, sitemap


def test_a_real_build_is_published_with_every_header_from_the_tables(s3: S3, tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    root = tmp_path / "projeto"
    shutil.copytree(repo / "tests" / "fixtures" / "site_minimo" / "content", root / "content")
    shutil.copytree(repo / "templates", root / "templates")
    build_site(root, root / "public")
    built = {p.relative_to(root / "public").as_posix() for p in (root / "public").rglob("*") if p.is_file()}
    report = publicar(s3.config, root / "public", destino=s3.target)
    assert sorted(report.enviados) == sorted(built)
    assert any(is_hashed_asset(k) for k in built) and "sitemap.xml" in built
    for key in built:
        head = s3.head(key)
        assert head["ContentType"] == content_type(key), key
        assert head["CacheControl"] == cache_control(key, s3.config), key


def test_first_publish_to_a_bucket_holding_other_files_deletes_nothing_and_says_so(
    s3: S3, tmp_path: Path
) -> None:
    public = tmp_path / "public"
    others = {"leiame.txt": b"de outra equipe", "arquivo/2022/index.html": b"<p>cobertura antiga</p>"}
    for key, body in others.items():
        s3.client.put_object(Bucket=s3.bucket, Key=key, Body=body)
    files = write_site(public, pages=3)
    first = publicar(s3.config, public, destino=s3.target)
    assert first.removidos == [] and sorted(first.plano.foreign) == sorted(others)
    assert any(
        "sem manifesto deste projeto: 2 objetos já existentes não foram removidos" in a for a in first.avisos
    )
    write_site(public, pages=1)
    second = publicar(dataclasses.replace(s3.config, graca_assets_h=0), public, destino=s3.target)
    assert sorted(second.removidos) == ["checagens/p1/index.html", "checagens/p2/index.html"]
    assert any("2 objetos que este projeto não gravou foram mantidos" in a for a in second.avisos)
    objects = s3.objects()
    assert {k: objects[k] for k in others} == others
    assert set(objects) == set(others) | (set(files) - set(second.removidos))


def test_lost_manifest_never_deletes_what_it_cannot_vouch_for(s3: S3, tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_site(public, pages=3)
    publicar(s3.config, public, destino=s3.target)
    for stored in s3.config.estado.glob("*.json"):
        stored.unlink()
    write_site(public, pages=1)
    report = publicar(s3.config, public, destino=s3.target)
    assert report.removidos == []
    assert "checagens/p2/index.html" in report.plano.foreign
    assert "ignorar checagens/p2/index.html  (não foi gravado por este projeto)" in report.plano.lines()
