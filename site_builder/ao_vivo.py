"""Live pages (issue 17): what a race or debate page tells its script (`static/ao-vivo.js`) so it
refreshes its numbers from the published JSON without a reload. The page is complete without it."""

from __future__ import annotations

import json
from typing import Any

INTERVALO_S = 30  # how often an open page asks for new numbers
# The publication criterion whose limit says how old the TSE's files may be (model/criteria.py):
# the script warns when the data on screen is older than that limit.
CRITERIO_IDADE = "idade_arquivo_referencia"
# A live debate's scoreboard changes with every utterance a candidate adds (talk time) and every
# finished turn; unchanged for longer than this (in minutes, more than a commercial break), the
# page warns that the processing may have stopped.
ATRASO_DEBATE_MIN = 10


def projection_hooks(
    api_url: str, nomes: dict[int, str], nao_atendidos: list[str], fuso: str
) -> dict[str, Any]:
    """Data attributes of a race page's live block: where its JSON is and how to read it."""
    return {
        "api": api_url,
        "intervalo": INTERVALO_S,
        "criterio": CRITERIO_IDADE,
        "fuso": fuso,
        # Candidate names as the page writes them (candidate files), keyed by ballot number.
        "nomes": json.dumps({str(n): nome for n, nome in sorted(nomes.items())}, ensure_ascii=False),
        "nao_atendidos": json.dumps(nao_atendidos, separators=(",", ":")),
    }


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
