"""`eleicoes checagens ...` (the desk: validation, queue, drafts) and `eleicoes redes ...` (capture)."""

from __future__ import annotations

from typing import Any

from jobs.checagens import cli_mesa, cli_redes


def register(sub: Any) -> None:
    """Add `eleicoes checagens` and `eleicoes redes` with their subcommands to the `eleicoes` parser."""
    checagens = sub.add_parser("checagens", help="mesa de checagem: validar, fila, rascunhos")
    checagens_sub = checagens.add_subparsers(dest="subcomando", metavar="SUBCOMANDO", required=True)
    redes = sub.add_parser("redes", help="captura de publicações dos candidatos nas redes")
    redes_sub = redes.add_subparsers(dest="subcomando", metavar="SUBCOMANDO", required=True)
    cli_mesa.register(checagens_sub)
    cli_redes.register(checagens_sub, redes_sub)
