"""`eleicoes build`: the site build from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from site_builder.build import build_site
from site_builder.errors import BuildError
from site_builder.lock import print_waiting, project_lock  # shared with `eleicoes publicar` and the scheduler

DEFAULT_OUTPUT = Path("public")
RECOVERY = {
    "desfeito": "os arquivos preparados foram descartados; a saída anterior estava intacta",
    "concluido": "a troca de arquivos foi concluída antes deste build",
    "refeito": "o diário da troca estava ilegível; todos os arquivos foram conferidos de novo",
}


def project_root() -> Path:
    """The project folder: the one holding `content/` and `templates/` (the current one by default)."""
    return Path.cwd()


def register(sub: Any) -> None:
    """Add `build` to the `eleicoes` parser."""
    parser = sub.add_parser(
        "build",
        help="gera o site estático a partir de content/ e data/",
        description="Gera o site em public/ (ou --saida). Só renderiza o que mudou desde o último build.",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="falha se houver qualquer aviso ou arquivo de conteúdo com erro (sem ele, a checagem com erro "
        "fica de fora e a última versão publicada dela continua no ar; uma seção, página de metodologia, "
        "candidato, registro de editores ou site.toml com erro é lido na última versão aceita)",
    )
    parser.add_argument("--saida", type=Path, default=DEFAULT_OUTPUT, help="pasta de saída (padrão: public/)")
    parser.add_argument("--raiz", type=Path, default=None, help="pasta do projeto (padrão: a atual)")
    parser.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    """Build the site and print a summary; errors go to stderr in Portuguese."""
    root = args.raiz or project_root()

    try:
        with project_lock(root, "eleicoes build", on_wait=print_waiting):
            report = build_site(root, args.saida, strict=args.strict)
    except BuildError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        print("o site publicado anteriormente foi mantido.", file=sys.stderr)
        return exc.exit_code
    if report.recuperacao:
        print(f"build interrompido anteriormente: {RECOVERY[report.recuperacao]}", file=sys.stderr)
    for warning in report.avisos:
        print(f"aviso: {warning}", file=sys.stderr)
    for problem in report.recusados:
        print(f"erro: {problem}", file=sys.stderr)
    print(report.resumo())
    if report.recusados:
        print(
            "arquivos com erro ficaram de fora deste build: checagens recusadas mantêm a última versão "
            "publicada; seções, metodologia, candidatos, editores e site.toml usam a última versão aceita; "
            "o resto do site (projeção, debates, as outras checagens) foi refeito.",
            file=sys.stderr,
        )
        return 1
    return 0
