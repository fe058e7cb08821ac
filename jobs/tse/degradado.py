"""When a governor race switches to the seed's "modo degradado", and back (issue 23, item 1).

Seed: "Governador sem os arquivos municipais (se o TSE não os publicar): a projeção vira a própria
parcial com a faixa larga da última coluna da tabela de erro". The model does it when a snapshot
lists no municipal (or zone) file for the race (`model/strata.py`, docs/MODELO.md item 12); these
rules decide when the poller stops asking for them:

* the race is by municipality or zone and the TSE does not publish those files: every one asked
  answered 404 and none was ever read (a file that was read and then fails is a missing part, not
  the degraded mode), or the UF is in no valid municipality config at all;
* while degraded, only the UF file is asked every cycle, plus ONE municipal file every
  `catalogo_intervalo_s` (a probe: the TSE publishes a race's municipal files together), so the
  404s stay at one per probe interval instead of one per municipality per cycle;
* a probe that answers with a valid file switches the race back at once: the same cycle asks every
  municipal file.

Pure functions: the cycle (`jobs/tse/cycle.py`) calls them and does the I/O.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from jobs.tse.config import Corrida
from model.tse_files import parse_file_name

NOT_FOUND = 404


def degradable(c: Corrida) -> bool:
    """Whether the race has a degraded mode: a governor by municipality or by zone."""
    return c.cargo == "governador" and c.nivel in ("municipio", "zona")


def is_part_file(nome: str) -> bool:
    """Whether a TSE result file name is a municipality's or a zone's (not the UF file)."""
    f = parse_file_name(nome)
    return f is not None and (f.municipio is not None or f.zona is not None)


def degraded_capture(c: Corrida, arquivos: Mapping[str, Any]) -> bool:
    """Whether a stored `captura.json` (its `arquivos`) is a degraded reading of a degradable race:
    files listed, none of them municipal or zone files (used to resume the mode after a restart)."""
    return degradable(c) and bool(arquivos) and not any(is_part_file(n) for n in arquivos)


def none_published(entradas: Iterable[Mapping[str, Any] | None], lidos: Iterable[bool]) -> bool:
    """Whether the TSE publishes none of a race's municipal files, from this cycle's answers.

    `entradas` are the captura.json entries of every municipal file of the race (None: not asked
    this cycle), `lidos` whether a valid reading of each is held. True only when at least one was
    asked, every one asked answered 404, and none was ever read.
    """
    pedidos = [e for e in entradas if e is not None]
    if not pedidos or any(lidos):
        return False
    return all(e.get("http") == NOT_FOUND for e in pedidos)


def probe_due(sondado_em: dt.datetime | None, agora: dt.datetime, intervalo_s: float) -> bool:
    """Whether a degraded race asks one municipal file again this cycle (never probed, or the
    last probe is `intervalo_s` old)."""
    return sondado_em is None or (agora - sondado_em).total_seconds() >= intervalo_s
