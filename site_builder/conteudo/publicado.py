"""The record of what the site published of each check, and the correction rule against it.

`eleicoes checagens validar` compares a check with its previous version in git; the build reads
files only, so it compares with a record instead (issue 23, item 10): per check id, the verdict,
a checksum of the claim and of the explanation, the checksum of each correction, the dates and
the checksum of the file it came from. Two copies are read, either may be missing:

- the site's own record, `checagens/publicadas.json` in the output folder, written by every
  build through the same atomic commit as the pages it describes (so it never claims a page that
  was not published), and published with the site for auditors;
- the ledger committed next to the checks, `content/checagens/publicadas.json`, written by
  `eleicoes checagens registrar` (it survives a fresh clone and a wiped `public/`).

A stale copy is only weaker, never wrong: a check whose corrections outnumber the recorded ones
passes, so the build refuses a change when any copy refuses it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from site_builder.conteudo import regras
from site_builder.conteudo.frontmatter import linha_no_arquivo
from site_builder.conteudo.registros import Correcao, Fonte

SAIDA = "checagens/publicadas.json"  # in the output folder: the site's own record
LEDGER = "content/checagens/publicadas.json"  # committed beside the checks
VERSAO_FORMATO = 1
DESDE = "a última publicação do site"  # what the rule's messages compare with
NA = "na última publicação do site"


def _sha(texto: str) -> str:
    return hashlib.sha256(texto.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Registro:
    """What the site published of one check."""

    id: str
    arquivo: str  # content/checagens/<file>.md
    sha256_arquivo: str  # an unchanged file is not read again
    veredito: str
    afirmacao: str  # SHA-256 of the claim, whitespace collapsed
    explicacao: str  # SHA-256 of the body, whitespace collapsed (re-wrapping is no change)
    correcoes: tuple[tuple[str, str], ...]  # (date ISO 8601, SHA-256 of its explanation)
    publicado_em: str
    atualizado_em: str  # the latest correction's date, "" when never corrected

    def versao(self) -> regras.Versao:
        """The record as the correction rule compares versions (texts as checksums)."""
        return regras.Versao(
            "publicada",
            self.veredito,
            self.afirmacao,
            self.explicacao,
            tuple(Correcao(dt.datetime.fromisoformat(d), h) for d, h in self.correcoes),
        )


def explicacao_sha256(corpo: str) -> str:
    """What the record keeps of a check's explanation (its Markdown body): the checksum of its
    text, whitespace collapsed as `regras.versao` does."""
    return _sha(regras.normalizar(corpo))


def registro(
    id_: str,
    fonte: Fonte,
    veredito: str,
    afirmacao: str,
    explicacao: str,
    correcoes: Iterable[Correcao],
    publicado_em: dt.datetime | None,
) -> Registro:
    """The record of one published check: its fields as the content rules read them, the texts
    normalized as `regras.versao` does; `explicacao` is its body's `explicacao_sha256`."""
    hashes = tuple((c.data.isoformat(), _sha(c.explicacao)) for c in correcoes)
    return Registro(
        id=id_,
        arquivo=fonte.caminho,
        sha256_arquivo=fonte.sha256,
        veredito=veredito,
        afirmacao=_sha(regras.normalizar(afirmacao)),
        explicacao=explicacao,
        correcoes=hashes,
        publicado_em=publicado_em.isoformat() if publicado_em else "",
        atualizado_em=hashes[-1][0] if hashes else "",
    )


def problemas(anteriores: Iterable[Registro], atual: Registro, texto: str) -> list[regras.Problema]:
    """The correction rule (`regras.regra_correcao_publica`) of `atual` against each earlier record
    of the same check, each problem once, located at its field's line (the front matter's first
    line when the field is not written)."""
    achados: list[regras.Problema] = []
    for anterior in anteriores:
        if anterior.sha256_arquivo == atual.sha256_arquivo:
            continue
        regra = regras.regra_correcao_publica(anterior.versao(), atual.versao(), atual.arquivo, DESDE, NA)
        for p in regra:
            if p not in achados:
                achados.append(p)
    return [
        regras.Problema(p.arquivo, p.campo, p.mensagem, linha_no_arquivo(texto, p.campo) or 1)
        for p in achados
    ]


AVISO = (
    "o que foi publicado de cada checagem; gerado pelo build e por eleicoes checagens registrar, "
    "não edite à mão"
)


def dados_json(registros: Mapping[str, Registro]) -> dict[str, Any]:
    """The record file's content, as `de_json` reads it back."""
    return {
        "formato": VERSAO_FORMATO,
        "aviso": AVISO,
        "checagens": {
            k: {
                "arquivo": r.arquivo,
                "sha256_arquivo": r.sha256_arquivo,
                "veredito": r.veredito,
                "afirmacao_sha256": r.afirmacao,
                "explicacao_sha256": r.explicacao,
                "correcoes": [{"data": d, "explicacao_sha256": h} for d, h in r.correcoes],
                "publicado_em": r.publicado_em,
                "atualizado_em": r.atualizado_em,
            }
            for k, r in sorted(registros.items())
        },
    }


def para_json(registros: Mapping[str, Registro]) -> bytes:
    """The record file's bytes: `dados_json` as `json.dumps(..., ensure_ascii=False, indent=1,
    sort_keys=True)` writes it (sorted, stable: the same checks give the same bytes). Written here
    record by record: json writes indented text with its pure-Python encoder, 3 times slower (0.057
    s against 0.018 s for 10,000 checks), and every rebuild that changes a check writes the whole
    file. tests/site_builder/test_registro_json.py holds the two texts equal."""
    try:
        checagens = ",\n  ".join(
            f"{_TEXTO_JSON(k)}: {_registro_json(r)}" for k, r in sorted(registros.items())
        )
    except TypeError:  # a field that is not a string (never made by `registro` or `de_json`): json's own
        texto = json.dumps(dados_json(registros), ensure_ascii=False, indent=1, sort_keys=True)
    else:
        checagens = "{\n  " + checagens + "\n }" if registros else "{}"
        aviso = _TEXTO_JSON(AVISO)
        texto = f'{{\n "aviso": {aviso},\n "checagens": {checagens},\n "formato": {VERSAO_FORMATO}\n}}'
    return (texto + "\n").encode("utf-8")


_TEXTO_JSON = json.encoder.encode_basestring  # json's escaping of a string with ensure_ascii=False (in C)


def _registro_json(r: Registro) -> str:
    """One record of `dados_json`, as json writes it at its depth (keys sorted)."""
    j = _TEXTO_JSON
    correcoes = "[]"
    if r.correcoes:
        itens = ",\n    ".join(
            f'{{\n     "data": {j(d)},\n     "explicacao_sha256": {j(h)}\n    }}' for d, h in r.correcoes
        )
        correcoes = f"[\n    {itens}\n   ]"
    return (
        f'{{\n   "afirmacao_sha256": {j(r.afirmacao)},\n   "arquivo": {j(r.arquivo)},'
        f'\n   "atualizado_em": {j(r.atualizado_em)},\n   "correcoes": {correcoes},'
        f'\n   "explicacao_sha256": {j(r.explicacao)},\n   "publicado_em": {j(r.publicado_em)},'
        f'\n   "sha256_arquivo": {j(r.sha256_arquivo)},\n   "veredito": {j(r.veredito)}\n  }}'
    )


class RegistroInvalidoError(ValueError):
    """A record file that cannot be read (its message is in Portuguese)."""


def de_json(dados: bytes, origem: str) -> dict[str, Registro]:
    """The records of a record file; RegistroInvalidoError naming `origem` when it is malformed."""
    try:
        bruto = json.loads(dados.decode("utf-8"))
        if bruto.get("formato") != VERSAO_FORMATO:
            raise RegistroInvalidoError(f"{origem}: formato desconhecido ({bruto.get('formato')!r})")
        saida = {}
        for k, v in bruto["checagens"].items():
            correcoes = tuple((str(c["data"]), str(c["explicacao_sha256"])) for c in v["correcoes"])
            for data, _h in correcoes:
                dt.datetime.fromisoformat(data)
            saida[str(k)] = Registro(
                str(k),
                str(v["arquivo"]),
                str(v["sha256_arquivo"]),
                str(v["veredito"]),
                str(v["afirmacao_sha256"]),
                str(v["explicacao_sha256"]),
                correcoes,
                str(v["publicado_em"]),
                str(v["atualizado_em"]),
            )
    except RegistroInvalidoError:
        raise
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RegistroInvalidoError(f"{origem}: registro de checagens publicadas ilegível ({exc})") from exc
    return saida


def ler(caminho: Path, origem: str) -> dict[str, Registro]:
    """The records of the file at `caminho` (empty when it does not exist); RegistroInvalidoError when
    it cannot be read."""
    try:
        dados = caminho.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise RegistroInvalidoError(
            f"{origem}: não foi possível ler o registro: {exc.strerror or exc}"
        ) from exc
    return de_json(dados, origem)


def juntar(anterior: Mapping[str, Registro], atuais: Mapping[str, Registro]) -> dict[str, Registro]:
    """The ledger to write: every check it ever recorded (a published check never leaves it, so
    deleting and restoring one does not escape the rule), updated by `atuais`."""
    return {**anterior, **atuais}


def anteriores_de(id_: str, fontes: Iterable[Mapping[str, Any]]) -> list[Registro]:
    """The earlier records of check `id_` in each source that has one."""
    return [f[id_] for f in fontes if id_ in f]
