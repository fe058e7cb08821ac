"""Subcommands of `eleicoes checagens` for the desk's content (validation)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jobs.checagens import aprovacao_pr, registrar, validar


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
    aprovacao = checagens_sub.add_parser(
        "aprovacao",
        help="confere que quem aprovou o pull request é o revisor registrado (o que o CI roda)",
        description=(
            "Lê o evento do GitHub Actions ($GITHUB_EVENT_PATH) e confere, para cada checagem publicada "
            "que o pull request muda, que a conta do GitHub que aprovou é a do revisor no registro de "
            "editores (content/editores.toml da branch de destino). Sai com 1 se não for."
        ),
    )
    aprovacao.add_argument("--evento", type=Path, required=True, help="arquivo JSON do evento do GitHub")
    aprovacao.add_argument(
        "--base", metavar="REV", default=None, help="revisão da branch de destino (padrão: a do evento)"
    )
    aprovacao.add_argument("--raiz", type=Path, default=None, help="pasta do projeto (padrão: a atual)")
    aprovacao.set_defaults(func=aprovacao_pr.run)
    registro = checagens_sub.add_parser(
        "registrar",
        help="atualiza content/checagens/publicadas.json, o registro do que foi publicado (o build confere)",
        description=(
            "Grava em content/checagens/publicadas.json o veredito, a data e a soma de verificação do texto "
            "de cada checagem publicada. O build compara cada checagem com esse registro (e com o que o "
            "próprio site publicou) e recusa mudança de veredito ou de texto sem correção."
        ),
    )
    registro.add_argument(
        "--verificar", action="store_true", help="não grava: sai com 1 se o registro estiver desatualizado"
    )
    registro.add_argument("--raiz", type=Path, default=None, help="pasta do projeto (padrão: a atual)")
    registro.set_defaults(func=registrar.run)
