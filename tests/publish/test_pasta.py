"""Publishing to a local folder (the embedded default target)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from jobs.publish.config import PublishConfig
from jobs.publish.publisher import publicar
from tests.publish.conftest import write_site


def _folder(target: Path) -> dict[str, bytes]:
    files = sorted(p for p in target.rglob("*") if p.is_file())
    return {p.relative_to(target).as_posix(): p.read_bytes() for p in files}


def _config(tmp_path: Path) -> PublishConfig:
    return PublishConfig(pasta=tmp_path / "publicado", estado=tmp_path / "estado")


def test_folder_target_copies_only_what_changed_and_removes_what_left(tmp_path: Path) -> None:
    public, config = tmp_path / "public", _config(tmp_path)
    files = write_site(public, pages=4)
    first = publicar(config, public)
    assert sorted(first.enviados) == sorted(files)
    assert _folder(config.pasta) == files
    assert publicar(config, public).enviados == []
    page = public / "checagens" / "p2" / "index.html"
    page.write_bytes(page.read_bytes() + b"<p>atualizada</p>")
    assert publicar(config, public).enviados == ["checagens/p2/index.html"]
    config = dataclasses.replace(config, graca_assets_h=0)
    files = write_site(public, version=2, pages=2)
    report = publicar(config, public)
    assert "checagens/p3/index.html" in report.removidos
    assert _folder(config.pasta) == files
    assert not (config.pasta / "checagens" / "p3").exists()  # emptied folders go too


def test_folder_target_never_copies_the_staging_folder(tmp_path: Path) -> None:
    public, config = tmp_path / "public", _config(tmp_path)
    files = write_site(public)
    (public / ".eleicoes-staging").mkdir()
    (public / ".eleicoes-staging" / "000000").write_bytes(b"pela metade")
    publicar(config, public)
    assert _folder(config.pasta) == files


def test_file_replaced_by_hand_in_the_folder_is_restored(tmp_path: Path) -> None:
    public, config = tmp_path / "public", _config(tmp_path)
    files = write_site(public)
    publicar(config, public)
    (config.pasta / "index.html").write_bytes(b"estragado")
    assert publicar(config, public).enviados == ["index.html"]
    assert _folder(config.pasta) == files


def test_first_publish_to_a_folder_holding_other_files_deletes_nothing(tmp_path: Path) -> None:
    public, config = tmp_path / "public", dataclasses.replace(_config(tmp_path), graca_assets_h=0)
    config.pasta.mkdir()
    (config.pasta / "fotos").mkdir()
    (config.pasta / "fotos" / "posse.jpg").write_bytes(b"\xff\xd8 foto")
    (config.pasta / "leiame.txt").write_text("pasta compartilhada", encoding="utf-8")
    write_site(public, pages=3)
    first = publicar(config, public)
    assert first.removidos == []
    assert any("2 objetos já existentes não foram removidos" in a for a in first.avisos)
    files = write_site(public, version=2, pages=1)
    second = publicar(config, public)
    assert "checagens/p2/index.html" in second.removidos
    assert _folder(config.pasta) == {
        **files,
        "fotos/posse.jpg": b"\xff\xd8 foto",
        "leiame.txt": b"pasta compartilhada",
    }
