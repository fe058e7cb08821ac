"""Subcommands of `eleicoes checagens` for the desk's content (validation)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jobs.checagens import validar


def register(checagens_sub: Any) -> None:
    """Add the desk's subcommands to the `eleicoes checagens` parser."""
    parser = checagens_sub.add_parser(
        "validar",
        help="verifica todas as regras das checagens e dos candidatos (o que o CI dos pull requests roda)",
        description=(
            "Verifica as checagens (content/checagens/*.md) e os candidatos (content/candidatos/*.toml): "
            "campos, vereditos, fontes, ocorrências, revisão por duas pessoas e a política de correções "
            "(compara cada checagem publicada com a versão de --base no git). Mensagens no formato "
            "arquivo:campo: problema; sai com 1 se houver qualquer problema."
        ),
    )
    parser.add_argument(
        "caminhos",
        nargs="*",
        type=Path,
        metavar="CAMINHO",
        help="arquivos ou pastas a verificar (padrão: content/checagens e content/candidatos)",
    )
    parser.add_argument(
        "--base",
        metavar="REV",
        default=None,
        help="revisão do git com que comparar as checagens publicadas (padrão: HEAD; "
        "num pull request, a branch de destino, ex.: origin/main)",
    )
    parser.add_argument("--raiz", type=Path, default=None, help="pasta do projeto (padrão: a atual)")
    parser.set_defaults(func=validar.run)
