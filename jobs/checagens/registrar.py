"""`eleicoes checagens registrar`: write the ledger of published checks committed beside them
(`content/checagens/publicadas.json`), the record the build compares with when it has no site of
its own yet (a fresh clone, a wiped `public/`). See `site_builder/conteudo/publicado.py`.

It applies the build's correction rule first: a check that changed since the ledger without a new
correction is not recorded, and the ledger is left as it was.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from jobs.checagens.publicadas import checagens_publicadas
from site_builder.conteudo import publicado, regras
from site_builder.writer import write_atomic


def registrar(raiz: Path) -> tuple[bytes, list[regras.Problema]]:
    """The ledger's new bytes for the project at `raiz`, and the problems that forbid writing it."""
    anteriores = publicado.ler(raiz / publicado.LEDGER, publicado.LEDGER)
    publicadas, _avisos = checagens_publicadas(raiz / "content" / "checagens")
    atuais: dict[str, publicado.Registro] = {}
    problemas: list[regras.Problema] = []
    for p in publicadas:
        c = p.checagem
        explicacao = publicado.explicacao_sha256(p.corpo)
        atual = publicado.registro(
            c.id, c.fonte, c.veredito, c.afirmacao, explicacao, c.correcoes, c.publicado_em
        )
        texto = p.arquivo.read_text(encoding="utf-8")
        problemas += publicado.problemas(publicado.anteriores_de(c.id, [anteriores]), atual, texto)
        atuais[c.id] = atual
    return publicado.para_json(publicado.juntar(anteriores, atuais)), problemas


def run(args: argparse.Namespace) -> int:
    """Write the ledger (or, with --verificar, only say whether it is up to date): 0 when done or
    up to date, 1 on a problem or an outdated ledger."""
    raiz: Path = args.raiz or Path.cwd()
    try:
        dados, problemas = registrar(raiz)
    except publicado.RegistroInvalidoError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 1
    for problema in problemas:
        print(problema)
    if problemas:
        print(f"{publicado.LEDGER} não foi alterado: corrija os problemas acima", file=sys.stderr)
        return 1
    caminho = raiz / publicado.LEDGER
    atual = caminho.read_bytes() if caminho.is_file() else b""
    if atual == dados:
        print(f"{publicado.LEDGER} está em dia", file=sys.stderr)
        return 0
    if args.verificar:
        print(
            f"{publicado.LEDGER} está desatualizado: rode 'eleicoes checagens registrar' e faça o commit",
            file=sys.stderr,
        )
        return 1
    write_atomic(caminho, dados)
    print(f"{publicado.LEDGER} atualizado; faça o commit dele junto com as checagens", file=sys.stderr)
    return 0
