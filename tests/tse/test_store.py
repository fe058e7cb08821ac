"""Snapshot writing: unique sortable names, atomic staging + rename, the `latest` pointer."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from jobs.tse.store import Conteudo, next_capture_name, read_latest, write_snapshot

T = dt.datetime(2026, 10, 25, 20, 0, 0, tzinfo=dt.UTC)


def test_capture_names_are_unique_and_sorted() -> None:
    assert next_capture_name(T, None) == "2026-10-25T20-00-00Z"
    assert next_capture_name(T, "2026-10-25T20-00-00Z") == "2026-10-25T20-00-01Z"
    assert next_capture_name(T - dt.timedelta(hours=1), "2026-10-25T20-00-00Z") == "2026-10-25T20-00-01Z"
    assert next_capture_name(T + dt.timedelta(seconds=5.7), "2026-10-25T20-00-00Z") == "2026-10-25T20-00-05Z"


def test_write_is_atomic_and_moves_latest(tmp_path: Path) -> None:
    race = tmp_path / "presidente"
    seen: list[Path | None] = []

    def projetar(staging: Path, anterior: Path | None) -> bytes:
        assert (staging / "captura.json").is_file() and (staging / "a.json").read_bytes() == b"1"
        seen.append(anterior)
        return b"{}\n"

    first = write_snapshot(
        race, "2026-10-25T20-00-00Z", {"a.json": Conteudo(b"1")}, {"arquivos": {}}, projetar
    )
    assert read_latest(race) == first.name and seen == [None]
    second = write_snapshot(
        race, "2026-10-25T20-10-00Z", {"a.json": Conteudo(b"1", first / "a.json")}, {"arquivos": {}}, projetar
    )
    assert seen[-1] == first.resolve()  # the model's previous sibling
    assert (second / "a.json").stat().st_ino == (first / "a.json").stat().st_ino  # hard link
    assert read_latest(race) == second.name

    def broken(staging: Path, anterior: Path | None) -> bytes:
        raise ValueError("modelo falhou")

    with pytest.raises(ValueError, match="modelo falhou"):
        write_snapshot(race, "2026-10-25T20-20-00Z", {"a.json": Conteudo(b"2")}, {"arquivos": {}}, broken)
    assert not (race / "2026-10-25T20-20-00Z").exists()
    assert not any((race / ".staging").iterdir())
    assert read_latest(race) == second.name  # the last good snapshot stays current
    with pytest.raises(FileExistsError):
        write_snapshot(race, second.name, {}, {"arquivos": {}}, projetar)


def test_latest_pointing_at_an_incomplete_folder_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "2026-10-25T20-00-00Z").mkdir()
    (tmp_path / "latest").write_text("2026-10-25T20-00-00Z\n", encoding="utf-8")
    assert read_latest(tmp_path) is None
    (tmp_path / "latest").write_text("../etc\n", encoding="utf-8")
    assert read_latest(tmp_path) is None
