"""Live pages (issues 17 and 21): what a race or debate page tells its script (`static/ao-vivo.js`).

A race page left open asks for its own built HTML every `intervalo` seconds (conditionally, with the
ETag of the last answer, so a CDN answers 304 while nothing changed), parses it and swaps the parts
marked `data-regiao` in place: every figure is what the Python build rendered. A debate page still
refreshes its scoreboard's numbers from `placar.json`. Both pages are complete without the script.
"""

from __future__ import annotations

import json
from typing import Any

# How often an open page asks for new data, in seconds: at least as often as readings are published
# (the TSE poller's cadence is 15 s). The site setting `intervalo_ao_vivo_s` overrides it.
INTERVALO_S = 15
# The race page's structure: bump it when the regions, the script's hooks or anything an open page
# cannot take in place change. An open page whose marker differs from the new build's asks for a
# reload (one line at the top) instead of swapping regions into a page of another shape.
ESTRUTURA = "corrida-2"
# The publication criterion whose limit says how old the TSE's files may be (model/criteria.py):
# the script warns when the data on screen is older than that limit.
CRITERIO_IDADE = "idade_arquivo_referencia"
# A live debate's scoreboard changes with every utterance a candidate adds (talk time) and every
# finished turn; unchanged for longer than this (in minutes, more than a commercial break), the
# page warns that the processing may have stopped.
ATRASO_DEBATE_MIN = 10


def projection_hooks(
    intervalo_s: int, leitura: str, idade_min: float | None, limite_min: float | None
) -> dict[str, Any]:
    """What a race page's live block and its reading line tell the script: how often to ask, the
    page's structure marker, the reading on screen and how old its oldest TSE file was then."""
    return {
        "intervalo": intervalo_s,
        "estrutura": ESTRUTURA,
        "leitura": leitura,
        "idade": "" if idade_min is None else repr(float(idade_min)),
        "limite": "" if limite_min is None else repr(float(limite_min)),
    }


def section_hooks(intervalo_s: int) -> dict[str, Any]:
    """What the home page's and the projection index's live block tell the script: they swap their
    headline regions like a race page, with no reading of their own to age."""
    return {"intervalo": intervalo_s, "estrutura": ESTRUTURA}


def debate_hooks(api_url: str, manchete: object, fuso: str) -> dict[str, Any]:
    """Data attributes of a live debate page: its scoreboard JSON, the headline it shows and how old
    the scoreboard may be before the page warns."""
    return {
        "api": api_url,
        "intervalo": INTERVALO_S,
        "fuso": fuso,
        "limite": ATRASO_DEBATE_MIN,
        "manchete": json.dumps(manchete, ensure_ascii=False, sort_keys=True, separators=(",", ":")),
    }
