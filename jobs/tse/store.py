"""Snapshots on disk: `data/tse/<eleicao>/<corrida>/<captura UTC>/` plus the `latest` pointer (PINS.md).

A snapshot is built in `<corrida>/.staging/<captura>/` and renamed into place in one step, then
`latest` is replaced atomically, so a reader sees either the old or the new reading, never half of
one. Snapshots are never modified after the rename; a reading that did not change is hard-linked
from the previous snapshot (same bytes, no copy), falling back to a copy where links fail.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jobs.tse.config import Corrida
from jobs.tse.validacao import check_member, check_race_folder
from model.snapshot import OUTPUT_FILE as OUTPUT_FILE  # re-exported: one name for the output file
from model.snapshot import previous_snapshot_dir
from site_builder.lock import HeldLock, take_lock
from site_builder.writer import write_atomic

CAPTURE_FORMAT = "%Y-%m-%dT%H-%M-%SZ"
LATEST = "latest"
STAGING = ".staging"
CAPTURE_FILE = "captura.json"
REJECTED_DIR = "rejeitados"  # bytes the job refused (bad signature, not JSON, refused by the model)


def capture_name(t: dt.datetime) -> str:
    """Folder name of a capture taken at `t` (UTC, second resolution)."""
    return t.astimezone(dt.UTC).strftime(CAPTURE_FORMAT)


def parse_capture_name(nome: str) -> dt.datetime | None:
    """The UTC instant of a capture folder name; None when it is not one."""
    try:
        return dt.datetime.strptime(nome, CAPTURE_FORMAT).replace(tzinfo=dt.UTC)
    except ValueError:
        return None


def next_capture_name(t: dt.datetime, ultima: str | None) -> str:
    """`capture_name(t)`, moved one second past the last capture when the clock has not passed it,
    so names stay unique and sort in capture order."""
    if ultima is not None:
        prev = parse_capture_name(ultima)
        if prev is not None and t < prev + dt.timedelta(seconds=1):
            t = prev + dt.timedelta(seconds=1)
    return capture_name(t)


POLL_LOCK = ".coleta-tse.lock"  # in the data folder: one TSE poller per folder (CLI or scheduler)


def take_poll_lock(dados: Path, what: str) -> HeldLock:
    """The TSE poller's lock for data folder `dados`; LockBusyError (Portuguese) when another
    `eleicoes tse poll` or scheduler TSE job writes there: two pollers would overwrite each
    other's snapshots and double the request rate."""
    return take_lock(
        dados / POLL_LOCK,
        "coleta do TSE",
        f"outra coleta do TSE já está gravando em {dados} (eleicoes tse poll ou o agendador)",
    )


def race_dir(dados: Path, corrida: Corrida) -> Path:
    """`<dados>/tse/<eleicao>/<presidente|governador-uf>`."""
    check_race_folder(corrida.eleicao, corrida.pasta)  # never a path built from an unchecked code
    return dados / "tse" / corrida.eleicao / corrida.pasta


def read_latest(pasta_corrida: Path) -> str | None:
    """The capture named by `latest`, if it exists and is a complete snapshot."""
    try:
        nome = (pasta_corrida / LATEST).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if parse_capture_name(nome) is None:
        return None
    snap = pasta_corrida / nome
    return nome if (snap / CAPTURE_FILE).is_file() and (snap / OUTPUT_FILE).is_file() else None


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))


def capture_json_bytes(captura: Mapping[str, Any]) -> bytes:
    """Deterministic serialization of captura.json: sorted keys, one line per file entry.

    One line per file keeps `git log -p` readable (a changed reading is one changed line) and
    lets the C encoder do the work (an indented dump of 5,700 entries costs about a second).
    """
    linhas = ["{"]
    chaves = sorted(captura)
    for i, chave in enumerate(chaves):
        fim = "," if i < len(chaves) - 1 else ""
        valor = captura[chave]
        if isinstance(valor, Mapping) and valor and all(isinstance(v, Mapping) for v in valor.values()):
            linhas.append(f" {_compact(chave)}: {{")
            nomes = sorted(valor)
            for j, nome in enumerate(nomes):
                sep = "," if j < len(nomes) - 1 else ""
                linhas.append(f"  {_compact(nome)}: {_compact(valor[nome])}{sep}")
            linhas.append(f" }}{fim}")
        else:
            linhas.append(f" {_compact(chave)}: {_compact(valor)}{fim}")
    linhas.append("}")
    return ("\n".join(linhas) + "\n").encode("utf-8")


@dataclass(frozen=True)
class Conteudo:
    """One file of a snapshot: new bytes, or an identical file of the previous snapshot to link."""

    dados: bytes | None = None
    origem: Path | None = None


def _place(destino: Path, conteudo: Conteudo) -> None:
    destino.parent.mkdir(parents=True, exist_ok=True)
    if conteudo.origem is not None:
        try:
            os.link(conteudo.origem, destino)
            return
        except OSError:
            if conteudo.dados is None:
                shutil.copyfile(conteudo.origem, destino)
                return
    assert conteudo.dados is not None
    destino.write_bytes(conteudo.dados)


def write_snapshot(
    pasta_corrida: Path,
    nome: str,
    arquivos: Mapping[str, Conteudo],
    captura: Mapping[str, Any],
    projetar: Callable[[Path, Path | None], bytes],
) -> Path:
    """Write one snapshot atomically and point `latest` at it; returns its folder.

    `projetar(staging, anterior)` returns the bytes of `saida.json` for the staged folder, with the
    snapshot that precedes it (the one `eleicoes projetar` will take as the previous sibling).
    """
    final = pasta_corrida / nome
    if final.exists():
        raise FileExistsError(f"snapshot já existe: {final}")
    staging_root = pasta_corrida / STAGING
    staging = staging_root / nome
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    try:
        for nome_arquivo, conteudo in sorted(arquivos.items()):
            _place(staging / check_member(nome_arquivo), conteudo)
        (staging / CAPTURE_FILE).write_bytes(capture_json_bytes(captura))
        # The model's own rule for "previous": the sibling folder that sorts just before.
        anterior = previous_snapshot_dir(final)
        (staging / OUTPUT_FILE).write_bytes(projetar(staging, anterior))
        staging.rename(final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    write_atomic(pasta_corrida / LATEST, f"{nome}\n".encode())
    return final


def clean_staging(pasta_corrida: Path) -> None:
    """Remove what an interrupted run left in `.staging/` (never a published snapshot)."""
    shutil.rmtree(pasta_corrida / STAGING, ignore_errors=True)
