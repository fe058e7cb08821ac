"""Candidate colours (issue 17): a candidate keeps the colour of their candidate file
(`content/candidatos/<id>.toml`, field `cor`) on every page, chart and share image."""

from __future__ import annotations

from collections.abc import Iterable

from site_builder.conteudo.registros import Candidato

SEM_ARQUIVO = "#4a4a4a"  # a candidate without a candidate file (the stylesheet's --sem-dados)


def colour_by_name(candidatos: Iterable[Candidato]) -> dict[str, str]:
    """Candidate name as the candidate file writes it -> its colour."""
    return {c.nome: c.cor for c in candidatos}
