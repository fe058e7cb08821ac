"""The `eleicoes` console script: it only dispatches.

A table maps each subcommand to the module that owns it. `eleicoes --help` prints the table without
importing any of those modules; `eleicoes COMANDO ...` imports only the module that owns COMANDO,
which registers its parser(s) with its `register(sub)` function, then runs it. Every failure ends as
one Portuguese line on stderr and a non-zero exit status (set ELEICOES_DEBUG=1 to see the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from model.ptbr_cli import ArgumentParser, run_reporting_errors

PROG = "eleicoes"
DESCRIPTION = "Cobertura aberta das eleições de 2026: projeção, debates e checagens."


@dataclass(frozen=True)
class Command:
    """Where a subcommand lives and its line in `eleicoes --help`."""

    module: str
    help: str


# The help lines are the ones each module gives its own parser; tests/test_cli.py checks they agree.
COMMANDS: dict[str, Command] = {
    "build": Command("site_builder.cli", "gera o site estático a partir de content/ e data/"),
    "publicar": Command(
        "jobs.publish.cli", "envia o site gerado (public/) ao bucket S3 ou à pasta de publicação"
    ),
    "projetar": Command("model.cli", "projeta o resultado final a partir de um snapshot do TSE"),
    "baseline": Command("model.cli", "gera model/baselines/ a partir dos arquivos finais do 1º turno"),
    "backtest": Command(
        "model.cli", "reproduz noites de apuração, ajusta a calibração e gera docs/BACKTEST.md"
    ),
    "backtest-regional": Command(
        "model.cli", "reproduz as noites na ordem real de chegada por região e escolhe a calibração"
    ),
    "simular-noite": Command(
        "model.cli", "grava uma noite simulada (capturas no formato do TSE) para o servidor de replay"
    ),
    "tse": Command("jobs.tse.cli", "noite da apuração: coleta do TSE, snapshots, servidor de reprodução"),
    "auditar": Command("jobs.tse.cli", "refaz a projeção de um snapshot e compara com a saida.json guardada"),
    "checagens": Command("jobs.checagens.cli", "mesa de checagem: validar, fila, rascunhos"),
    "redes": Command("jobs.checagens.cli", "captura de publicações dos candidatos nas redes"),
    "debate": Command("jobs.debate.cli", "placar ao vivo dos debates: transcrição, turnos, avaliações"),
    "demo": Command(
        "demo", "roda a noite de demonstração (apuração, debate, checagens) em http://127.0.0.1:8000"
    ),
    "servir": Command("demo", "serve uma pasta já gerada em http://127.0.0.1:8000"),
}


def _root_parser() -> tuple[ArgumentParser, argparse._SubParsersAction[ArgumentParser]]:
    parser = ArgumentParser(
        prog=PROG, description=DESCRIPTION, epilog=f"Ajuda de um comando: {PROG} COMANDO --help"
    )
    sub = parser.add_subparsers(dest="comando", metavar="COMANDO", title="comandos", required=True)
    return parser, sub


def overview_parser() -> ArgumentParser:
    """The top-level parser, listing every subcommand from the table (imports none of their modules)."""
    parser, sub = _root_parser()
    for name, command in COMMANDS.items():
        sub.add_parser(name, help=command.help)
    return parser


def command_parser(module_name: str) -> ArgumentParser:
    """The top-level parser with the subcommands registered by one module (imported here)."""
    parser, sub = _root_parser()
    importlib.import_module(module_name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen subcommand; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    name = arguments[0] if arguments else ""
    command = COMMANDS.get(name)
    if command is None:
        overview_parser().parse_args(arguments)  # prints the help or a one-line error, and exits
        return 2

    def run() -> int:
        args = command_parser(command.module).parse_args(arguments)
        status: int = args.func(args)
        return status

    return run_reporting_errors(f"{PROG} {name}", run)


if __name__ == "__main__":
    sys.exit(main())
