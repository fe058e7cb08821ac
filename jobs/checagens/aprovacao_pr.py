"""`eleicoes checagens aprovacao --evento ARQUIVO`: in the pull-request workflow, the GitHub
account that approved is the reviewer registered for every published check the pull request
changes (two-person rule by identity, not by what the file says).

It reads the event GitHub Actions wrote (`$GITHUB_EVENT_PATH`): on a `pull_request_review` event
the review must be an approval of the commit checked out, by the account that the editors'
registry gives the check's `revisor`, and neither the check's author nor the pull request's author
may be that account. The registry is read from the target branch (`pull_request.base.sha`): a
pull request cannot register the person that approves it. On a `pull_request` event (a new push)
a pull request that changes a published check waits for that approval. A pull request that
changes no published check has nothing to verify.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jobs.checagens import historico_git
from jobs.checagens.validar import PASTA_CHECAGENS, UsageError
from site_builder.conteudo import regras
from site_builder.conteudo.editores import ARQUIVO as EDITORES
from site_builder.conteudo.editores import Registro, ler_registro
from site_builder.conteudo.registros import Checagem, Fonte


@dataclass
class Aprovacao:
    """What the verification found: problems (any fails the check) and notes."""

    problemas: list[str] = field(default_factory=list)
    notas: list[str] = field(default_factory=list)


def _campo(dados: Any, *chaves: str) -> str:
    """A string deep in the event payload; UsageError naming the path when it is not there."""
    for chave in chaves:
        if not isinstance(dados, dict) or chave not in dados:
            raise UsageError(f"o evento do GitHub não tem {'.'.join(chaves)}")
        dados = dados[chave]
    if not isinstance(dados, str):
        raise UsageError(f"o evento do GitHub não tem {'.'.join(chaves)} como texto")
    return dados


def _registro_da_base(raiz: Path, commit: str) -> Registro:
    dados = historico_git.conteudo(raiz, commit, EDITORES)
    if dados is None:
        raise UsageError(f"{EDITORES} não existe na branch de destino ({commit[:12]})")
    registro, problemas = ler_registro(dados.decode("utf-8", "replace"))
    if problemas:
        raise UsageError(f"{EDITORES} da branch de destino tem problemas; corrija-o antes")
    return registro


def _publicadas_alteradas(raiz: Path, base: str, registro: Registro) -> list[Checagem]:
    publicadas = []
    for rel in historico_git.alterados(raiz, base, PASTA_CHECAGENS):
        path = raiz / rel
        if not rel.endswith(".md") or not path.is_file():
            continue  # a deleted check is refused by `validar` (published checks never leave)
        lida = regras.ler_checagem(
            path.read_text(encoding="utf-8", errors="replace"), Fonte(rel, ""), registro, None
        )
        if lida.checagem is not None and lida.checagem.status == "publicada":
            publicadas.append(lida.checagem)
    return publicadas


def verificar(raiz: Path, evento: dict[str, Any], base: str | None = None) -> Aprovacao:
    """Check the approval in `evento` against the published checks the pull request changes.

    `base` overrides the target branch's commit (default: `pull_request.base.sha`). Raises
    UsageError when the event or the repository cannot be used.
    """
    resultado = Aprovacao()
    base_rev = base or _campo(evento, "pull_request", "base", "sha")
    commit_base = historico_git.revisao(raiz, base_rev)
    if commit_base is None:
        raise UsageError(f"revisão de base desconhecida no repositório: {base_rev}")
    registro = _registro_da_base(raiz, commit_base)
    checagens = _publicadas_alteradas(raiz, commit_base, registro)
    if EDITORES in historico_git.alterados(raiz, commit_base, EDITORES.rsplit("/", 1)[0]):
        resultado.notas.append(
            f"{EDITORES} muda neste pull request: a aprovação é conferida com o registro da branch de destino"
        )
    if not checagens:
        resultado.notas.append("nenhuma checagem publicada muda neste pull request: nada a conferir")
        return resultado
    if "review" not in evento:
        resultado.problemas.append(
            "aguardando a aprovação do revisor registrado de: "
            + ", ".join(c.fonte.caminho for c in checagens)
        )
        return resultado
    conta = _campo(evento, "review", "user", "login")
    estado = _campo(evento, "review", "state").lower()
    if estado != "approved":
        resultado.problemas.append(
            f"a revisão de @{conta} não é uma aprovação (estado '{estado}'); "
            "o revisor registrado precisa aprovar"
        )
        return resultado
    cabeca = _campo(evento, "pull_request", "head", "sha")
    if _campo(evento, "review", "commit_id") != cabeca:
        resultado.problemas.append(
            f"a aprovação de @{conta} é de um commit anterior; aprove o último ({cabeca[:12]})"
        )
    if historico_git.revisao(raiz, "HEAD") != cabeca:
        resultado.problemas.append(f"o commit verificado não é o último do pull request ({cabeca[:12]})")
    if _campo(evento, "pull_request", "user", "login").casefold() == conta.casefold():
        resultado.problemas.append(f"@{conta} abriu o pull request e não pode aprová-lo")
    aprovador = registro.por_github(conta)
    for c in checagens:
        revisor = registro.editores.get(c.revisor)
        autor = registro.editores.get(c.autor)
        onde = c.fonte.caminho
        if revisor is None:
            resultado.problemas.append(
                f"{onde}: o revisor '{c.revisor}' não está no registro da branch de destino"
            )
        elif revisor.github.casefold() != conta.casefold():
            quem = f" ('{aprovador.id}')" if aprovador else ", que não está no registro de editores"
            resultado.problemas.append(
                f"{onde}: quem aprovou foi @{conta}{quem}, mas o revisor da checagem é '{revisor.id}' "
                f"(@{revisor.github}); a aprovação precisa ser dessa pessoa"
            )
        if autor is not None and autor.github.casefold() == conta.casefold():
            resultado.problemas.append(f"{onde}: @{conta} é a conta da autora ou do autor ('{autor.id}')")
    if not resultado.problemas:
        resultado.notas.append(f"aprovado por @{conta}, revisor registrado de {len(checagens)} checagem(ns)")
    return resultado


def run(args: argparse.Namespace) -> int:
    """Exit 0 when the approval holds, 1 when it does not, 2 on bad usage."""
    raiz: Path = args.raiz or Path.cwd()
    try:
        evento = json.loads(Path(args.evento).read_bytes())
        if not isinstance(evento, dict):
            raise UsageError("o arquivo do evento não contém um objeto JSON")
        resultado = verificar(raiz, evento, args.base)
    except (OSError, ValueError, UsageError, historico_git.GitError) as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2
    for nota in resultado.notas:
        print(nota, file=sys.stderr)
    for problema in resultado.problemas:
        print(problema)
    return 1 if resultado.problemas else 0
