"""Append an occurrence to a check file: what confirming a claim-memory match writes.

The front matter gets one more `[[ocorrencias]]` block just before its closing `+++`; nothing
else in the file changes (TOML accepts array-of-tables blocks in any order), so the git diff an
editor reviews is exactly the new occurrence. An occurrence is not a change of verdict or text,
so it needs no correction (seed: "o novo post vira mais uma ocorrência da mesma checagem").

    [[ocorrencias]]
    url = "https://..."                                      # the post, public address
    plataforma = "instagram"                                 # a key of regras.PLATAFORMAS
    data = 2026-10-15T21:00:00-03:00                          # when it was posted, with offset
    arquivo = "data/redes/<...>.warc.gz"                      # archived copy, under data/redes/
    alcance = 66000                                          # optional: people reached
"""

from __future__ import annotations

from pathlib import Path

from site_builder.conteudo import regras
from site_builder.conteudo.frontmatter import DELIMITER, split_front_matter
from site_builder.conteudo.registros import Ocorrencia
from site_builder.errors import ContentError
from site_builder.writer import write_atomic


class OcorrenciaInvalidaError(ValueError):
    """The occurrence or the check file cannot take it; the message is in Portuguese."""


def _toml_texto(valor: str) -> str:
    """A TOML basic string (escapes what TOML requires, keeps accents as they are)."""
    partes = []
    for char in valor:
        if char in '"\\':
            partes.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            partes.append(f"\\u{ord(char):04x}")
        else:
            partes.append(char)
    return '"' + "".join(partes) + '"'


def problemas_ocorrencia(ocorrencia: Ocorrencia) -> list[str]:
    """Why an occurrence cannot be recorded (the same rules `validar` applies), in Portuguese."""
    problemas = []
    if problema := regras.url_publica(ocorrencia.url):
        problemas.append(f"url: {problema}")
    if ocorrencia.plataforma not in regras.PLATAFORMAS:
        nomes = ", ".join(regras.PLATAFORMAS)
        problemas.append(f"plataforma: '{ocorrencia.plataforma}' não existe (use {nomes})")
    if ocorrencia.data.tzinfo is None:
        problemas.append("data: informe o fuso horário")
    if problema := regras.caminho_copia_invalido(ocorrencia.arquivo):
        problemas.append(f"arquivo: {problema}")
    if ocorrencia.alcance is not None and ocorrencia.alcance < 0:
        problemas.append("alcance: deve ser um número inteiro não negativo")
    return problemas


def bloco(ocorrencia: Ocorrencia) -> str:
    """The `[[ocorrencias]]` TOML block of one occurrence."""
    linhas = [
        "[[ocorrencias]]",
        f"url = {_toml_texto(ocorrencia.url)}",
        f"plataforma = {_toml_texto(ocorrencia.plataforma)}",
        f"data = {ocorrencia.data.isoformat()}",
        f"arquivo = {_toml_texto(ocorrencia.arquivo)}",
    ]
    if ocorrencia.alcance is not None:
        linhas.append(f"alcance = {ocorrencia.alcance}")
    return "\n".join(linhas) + "\n"


def acrescentar_ocorrencia(texto: str, ocorrencia: Ocorrencia, arquivo: str = "checagem") -> str:
    """The check's text with `ocorrencia` appended to its front matter; unchanged if that post is
    already one of its occurrences. Raises OcorrenciaInvalidaError."""
    if problemas := problemas_ocorrencia(ocorrencia):
        raise OcorrenciaInvalidaError(f"{arquivo}: ocorrência inválida: " + "; ".join(problemas))
    try:
        meta, _corpo = split_front_matter(texto, arquivo)
    except ContentError as exc:
        raise OcorrenciaInvalidaError(str(exc)) from exc
    existentes = meta.get("ocorrencias", [])
    if isinstance(existentes, list) and any(
        isinstance(o, dict) and o.get("url") == ocorrencia.url for o in existentes
    ):
        return texto
    linhas = texto.split("\n")
    # The closing delimiter is the second line that is exactly `+++` (see frontmatter._split).
    fim = next(i for i in range(1, len(linhas)) if linhas[i].strip() == DELIMITER)
    antes = "\n".join(linhas[:fim]).rstrip("\n")
    depois = "\n".join(linhas[fim:])
    return f"{antes}\n\n{bloco(ocorrencia)}{depois}"


def acrescentar_ocorrencia_arquivo(caminho: Path, ocorrencia: Ocorrencia) -> bool:
    """Append `ocorrencia` to the check file at `caminho` (atomic write); False if already there."""
    texto = caminho.read_text(encoding="utf-8")
    novo = acrescentar_ocorrencia(texto, ocorrencia, str(caminho))
    if novo == texto:
        return False
    write_atomic(caminho, novo.encode("utf-8"))
    return True
