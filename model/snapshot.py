"""Read a snapshot folder: the raw TSE files under their TSE names plus `captura.json`.

`captura.json` = {"arquivos": {nome: {"baixado_em": ISO UTC, "status": 200, "etag": ...,
"preservado": bool}}, "corrida": {"cargo": ..., "uf": ...}}. The TSE coverage files
(`<uf>-e<ele>-ab.json`) kept beside the results are read too: they carry each municipality's electorate.
This is the only I/O of the projection: it returns bytes and metadata; parsing happens in the pure function.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.tse_files import FILE_NAME, JSON_ERRORS

CAPTURE_FILE = "captura.json"
# <uf>-e<ele6>-ab.json: one coverage file per UF (TSE-FORMAT.md §3).
COVERAGE_NAME = re.compile(r"^[a-z]{2}-e\d{6}-ab\.json$")
OUTPUT_FILE = "saida.json"  # the model's output stored next to the files it was computed from


class SnapshotError(ValueError):
    """The snapshot folder itself cannot be used (Portuguese message for the CLI)."""


@dataclass(frozen=True)
class CaptureEntry:
    """What the poller recorded for one file."""

    baixado_em: dt.datetime | None
    status: int | None
    preservado: bool
    etag: str | None
    # Why the poller refused a new reading of this file in this capture (captura.json `erro` of an
    # entry with `rejeitado`): the file counts against "arquivos do TSE válidos e consistentes".
    recusado: str | None = None
    # President by municipality: (coverage file, the municipality's row stamp in it) as the poller
    # read them in the cycle that fetched this file (`model/cobertura.py`, `confirmation`).
    cobertura: tuple[str, str] | None = None


@dataclass(frozen=True)
class Snapshot:
    """Raw files and capture metadata of one reading; `erro_captura` says why captura.json is unusable."""

    arquivos: dict[str, bytes]
    captura: dict[str, CaptureEntry]
    erro_captura: str | None = None
    pasta: str | None = None
    cobertura: dict[str, bytes] = field(default_factory=dict)
    cargo: str | None = None  # the race the poller captured (captura.json "corrida"), if recorded
    uf: str | None = None

    def latest_download(self) -> dt.datetime | None:
        """The latest `baixado_em` of the capture (the default "now")."""
        times = [e.baixado_em for e in self.captura.values() if e.baixado_em is not None]
        return max(times) if times else None


def parse_iso(value: Any) -> dt.datetime | None:
    """ISO 8601 with offset or `Z`; naive values are taken as UTC; None when malformed."""
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def capture_race(raw: bytes) -> tuple[str | None, str | None]:
    """(cargo, UF) recorded in `captura.json` "corrida"; (None, None) when absent or unreadable."""
    try:
        corrida = json.loads(raw).get("corrida")
    except (*JSON_ERRORS, AttributeError):
        return None, None
    if not isinstance(corrida, dict):
        return None, None
    cargo, uf = corrida.get("cargo"), corrida.get("uf")
    cargo = cargo if cargo in ("presidente", "governador") else None
    uf = uf.lower() if isinstance(uf, str) and len(uf) == 2 and uf.isalpha() else None
    return cargo, uf if cargo == "governador" else None


def parse_capture(raw: bytes) -> tuple[dict[str, CaptureEntry], str | None]:
    """Parse `captura.json`; returns the entries and an error message (Portuguese) or None."""
    try:
        root = json.loads(raw)
    except JSON_ERRORS:
        return {}, "captura.json malformado"
    if not isinstance(root, dict) or not isinstance(root.get("arquivos"), dict):
        return {}, "captura.json sem o objeto 'arquivos'"
    out: dict[str, CaptureEntry] = {}
    for nome, info in root["arquivos"].items():
        if not isinstance(info, dict):
            continue
        status = info.get("status")
        out[str(nome)] = CaptureEntry(
            baixado_em=parse_iso(info.get("baixado_em")),
            status=status if isinstance(status, int) and not isinstance(status, bool) else None,
            preservado=info.get("preservado") is True,
            etag=str(info["etag"]) if info.get("etag") is not None else None,
            recusado=(str(info.get("erro") or "leitura recusada")[:300] if info.get("rejeitado") else None),
            cobertura=_coverage_basis(info.get("cobertura")),
        )
    return out, None


def _coverage_basis(value: Any) -> tuple[str, str] | None:
    """(coverage file name, row stamp) of an entry's `cobertura`; None when absent or malformed."""
    if not isinstance(value, dict):
        return None
    arquivo, carimbo = value.get("arquivo"), value.get("carimbo")
    if not isinstance(arquivo, str) or not COVERAGE_NAME.match(arquivo) or not isinstance(carimbo, str):
        return None
    return arquivo, carimbo


def read_snapshot(pasta: Path) -> Snapshot:
    """Read every TSE result file of `pasta` and its `captura.json`; SnapshotError if no folder."""
    if not pasta.is_dir():
        raise SnapshotError(f"pasta de snapshot não encontrada: {pasta}")
    names = sorted(p for p in pasta.iterdir() if p.is_file())
    arquivos = {p.name: p.read_bytes() for p in names if FILE_NAME.match(p.name)}
    cobertura = {p.name: p.read_bytes() for p in names if COVERAGE_NAME.match(p.name)}
    capture_path = pasta / CAPTURE_FILE
    cargo = uf = None
    if capture_path.is_file():
        raw = capture_path.read_bytes()
        captura, erro = parse_capture(raw)
        cargo, uf = capture_race(raw)
    else:
        captura, erro = {}, "captura.json ausente"
    return Snapshot(
        arquivos=arquivos,
        captura=captura,
        erro_captura=erro,
        pasta=str(pasta),
        cobertura=cobertura,
        cargo=cargo,
        uf=uf,
    )


def previous_snapshot_dir(pasta: Path) -> Path | None:
    """The sibling folder whose name sorts just before `pasta` and holds a captura.json.

    Snapshots live in `data/tse/<eleicao>/<captura>/` with sortable timestamp names, so the
    previous reading is the previous sibling.
    """
    parent = pasta.resolve().parent
    name = pasta.resolve().name
    candidates = sorted(
        p for p in parent.iterdir() if p.is_dir() and p.name < name and (p / CAPTURE_FILE).is_file()
    )
    return candidates[-1] if candidates else None


def read_output(pasta: Path | None) -> dict[str, Any] | None:
    """The model output stored in a snapshot folder (`saida.json`), or None when absent or unreadable
    (the live drift check then starts afresh: `model/drift_check.py`)."""
    if pasta is None:
        return None
    try:
        out = json.loads((pasta / OUTPUT_FILE).read_bytes())
    except (OSError, *JSON_ERRORS):
        return None
    return out if isinstance(out, dict) else None
