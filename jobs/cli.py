"""The `eleicoes` console script: one subcommand per job, registered by the module that owns it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from jobs import demo
from jobs.checagens import cli as checagens_cli
from jobs.debate import cli as debate_cli
from jobs.publish import cli as publish_cli
from jobs.tse import cli as tse_cli
from model import cli as model_cli
from site_builder import cli as build_cli


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand of the project."""
    parser = argparse.ArgumentParser(
        prog="eleicoes",
        description="Cobertura aberta das eleições de 2026: projeção, debates e checagens.",
    )
    sub = parser.add_subparsers(dest="comando", metavar="COMANDO", required=True)
    build_cli.register(sub)
    model_cli.register(sub)
    tse_cli.register(sub)
    checagens_cli.register(sub)
    debate_cli.register(sub)
    publish_cli.register(sub)
    demo.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen subcommand; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
