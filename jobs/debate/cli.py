"""`eleicoes debate ...`: the engine's commands (issue 7) and the audio front end's (issue 8)."""

from __future__ import annotations

from typing import Any

from jobs.debate import cli_audio, cli_motor


def register(sub: Any) -> None:
    """Add `eleicoes debate` and its subcommands to the `eleicoes` parser."""
    parser = sub.add_parser("debate", help="placar ao vivo dos debates: transcrição, turnos, avaliações")
    debate_sub = parser.add_subparsers(dest="subcomando", metavar="SUBCOMANDO", required=True)
    cli_motor.register(debate_sub)
    cli_audio.register(debate_sub)
