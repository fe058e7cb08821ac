"""The checks the site build publishes, read from the desk's folder.

One function for every job that reuses a published verdict (the claim memory's suggestions to
editors, the debate's search index and its reuse of desk verdicts), applying the build's own rules:
every rule of the file (`regras.lida_publicavel`: status `publicada`, approved by a second person,
no date in the future) and the rules across files (`regras.regras_do_conjunto`: unknown candidate,
repeated id or address), which fail the build, so the files they name are left out too.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from pathlib import Path

from jobs.checagens.validar import ler_editores
from site_builder.conteudo import regras
from site_builder.conteudo.frontmatter import split_front_matter
from site_builder.conteudo.registros import Checagem, Fonte


@dataclass(frozen=True)
class Publicada:
    """A check the build publishes, with its explanation (Markdown) and its file."""

    checagem: Checagem
    corpo: str
    arquivo: Path


def _lidas(pasta: Path, sufixo: str, avisos: list[str]) -> list[tuple[str, Path, Fonte]]:
    """(text, file, source) of every readable UTF-8 file of a content folder; a warning for the rest."""
    saida = []
    for arquivo in sorted(pasta.glob(f"*{sufixo}")) if pasta.is_dir() else []:
        try:
            dados = arquivo.read_bytes()
            texto = dados.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            avisos.append(f"{arquivo}: não foi possível ler o arquivo: {exc}")
            continue
        rel = f"{pasta.parent.name}/{pasta.name}/{arquivo.name}"
        saida.append((texto, arquivo, Fonte(rel, hashlib.sha256(dados).hexdigest())))
    return saida


def checagens_publicadas(pasta: Path) -> tuple[list[Publicada], list[str]]:
    """The checks of `pasta` (`content/checagens/`) that the build publishes, in file order, and a
    warning in Portuguese for each file left out for a reason other than its status."""
    avisos: list[str] = []
    editores, problemas = ler_editores(pasta.parent.parent)  # a broken registry publishes nobody
    avisos += [str(p) for p in problemas]
    agora = dt.datetime.now(dt.UTC)
    lidas = [
        (regras.ler_checagem(texto, fonte, editores, agora), texto, arquivo)
        for texto, arquivo, fonte in _lidas(pasta, ".md", avisos)
    ]
    candidatos = {}
    for texto, _arquivo, fonte in _lidas(pasta.parent / "candidatos", ".toml", avisos):
        lido = regras.ler_candidato(texto, fonte)
        if lido.candidato is not None:
            candidatos[lido.candidato.id] = lido.candidato
    resumos = [
        regras.resumo(lida.checagem)._replace(fonte=lida.checagem.fonte)
        for lida, _texto, _arquivo in lidas
        if lida.checagem is not None and lida.checagem.status != "rascunho"
    ]
    recusados: dict[str, list[str]] = {}
    for problema in regras.regras_do_conjunto(resumos, candidatos):
        recusados.setdefault(problema.arquivo, []).append(str(problema))
    publicadas = []
    for lida, texto, arquivo in lidas:
        c = lida.checagem
        if c is None:
            avisos += [str(p) for p in lida.problemas]
        elif c.fonte.caminho in recusados:
            avisos += recusados[c.fonte.caminho]
        elif regras.lida_publicavel(lida):
            publicadas.append(Publicada(c, split_front_matter(texto, c.fonte.caminho)[1], arquivo))
    return publicadas, avisos
