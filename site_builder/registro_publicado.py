"""The build's correction rule: a published check that changed without a correction is refused,
compared with the record of what the site published (`conteudo/publicado.py` says which record
and why). Called once by the build, between collect and plan; in a lenient build the refused check
is left out like any other refused check (its last published page stays), in a strict one the
build fails."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import sys
from pathlib import Path

from site_builder.artifact import Artifact, raw
from site_builder.conteudo import publicado
from site_builder.conteudo.frontmatter import split_body
from site_builder.conteudo.registros import ChecagemResumo
from site_builder.errors import BuildError, ContentError
from site_builder.records import SiteContext


def _fontes(root: Path, out: Path) -> list[dict[str, publicado.Registro]]:
    try:
        return [
            publicado.ler(out / publicado.SAIDA, f"{out.name}/{publicado.SAIDA}"),
            publicado.ler(root / publicado.LEDGER, publicado.LEDGER),
        ]
    except publicado.RegistroInvalidoError as exc:
        # Without it the rule cannot be applied: withhold instead of publishing unchecked changes.
        raise BuildError(
            f"{exc}; sem ele não dá para conferir as correções. Restaure o arquivo (ou apague-o para "
            "recomeçar o registro a partir deste build)"
        ) from exc


def _ler(root: Path, check: ChecagemResumo) -> str:
    assert check.fonte is not None
    dados = (root / check.fonte.caminho).read_bytes()
    if hashlib.sha256(dados).hexdigest() != check.fonte.sha256:
        raise ContentError(check.fonte.caminho, "o arquivo mudou durante o build; rode o build de novo")
    return dados.decode("utf-8")


@functools.cache
def _codigo() -> str:
    """What else decides the record file's bytes: the code that writes it, Python's version (json)."""
    fonte = Path(publicado.__file__).read_bytes()
    return hashlib.sha256(fonte + repr(sys.version_info[:3]).encode()).hexdigest()


def _identidade(registros: dict[str, publicado.Registro]) -> str:
    """The identity of the record file's bytes without writing them (`para_json` is a function of
    the records alone; a no-op rebuild writes nothing): a checksum of every record's fields."""
    return hashlib.sha256(f"{_codigo()}\0{sorted(registros.items())!r}".encode()).hexdigest()


def conferir(ctx: SiteContext, root: Path, out: Path, *, isolar: bool) -> tuple[SiteContext, Artifact]:
    """`ctx` without the checks that changed since they were published with no new correction
    (BuildError naming them unless `isolar`), and the artifact of the site's updated record."""
    fontes = _fontes(root, out)
    atuais: dict[str, publicado.Registro] = {}
    recusas: list[str] = []
    recusadas: set[str] = set()
    for check in ctx.checagens:
        assert check.fonte is not None
        anteriores = publicado.anteriores_de(check.id, fontes)
        if anteriores and all(a.sha256_arquivo == check.fonte.sha256 for a in anteriores):
            atuais[check.id] = anteriores[0]  # the very file every record names: nothing to read
            continue
        texto = None
        explicacao = check.explicacao_sha256
        if not explicacao or anteriores:  # the rule locates its problems in the file's text
            texto = _ler(root, check)
            explicacao = publicado.explicacao_sha256(split_body(texto, check.fonte.caminho))
        atual = publicado.registro(
            check.id,
            check.fonte,
            check.veredito,
            check.afirmacao,
            explicacao,
            check.correcoes,
            check.publicado_em,
        )
        problemas = publicado.problemas(anteriores, atual, texto) if texto is not None else []
        if problemas:
            recusas += [str(p) for p in problemas]
            recusadas.add(check.id)
        else:
            atuais[check.id] = atual
    if recusas and not isolar:
        raise BuildError("conteúdo inválido:\n" + "\n".join(f"  - {e}" for e in recusas))
    # What the site shows now: a refused check keeps the record of its page still online. A
    # deleted check leaves (the same content gives the same record, whatever came before it);
    # `validar` refuses the deletion and the committed ledger keeps it.
    for id_ in recusadas:
        atuais[id_] = publicado.anteriores_de(id_, fontes)[0]
    artefato = raw(publicado.SAIDA, _identidade(atuais), functools.partial(publicado.para_json, atuais))
    if not recusadas:
        return ctx, artefato
    checagens = [c for c in ctx.checagens if c.id not in recusadas]
    return dataclasses.replace(ctx, checagens=checagens, recusas=[*ctx.recusas, *recusas]), artefato
