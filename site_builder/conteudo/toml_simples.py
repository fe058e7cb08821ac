"""A fast reader for the plain TOML that content headers are written in, exactly as `tomllib`.

Nearly every header is lines of `key = value` (a string without escapes, an integer, a boolean,
a date or a date and time with an offset) and `[[array]]` headers. For such a text,
`ler_simples` gives what `tomllib.loads` gives, in a fifth of its time (the standard library's
parser goes character by character in Python; at 2,000 checks that was a tenth of a cold
build's CPU, docs/PERFORMANCE.md). Anything else it does not try to read, and returns None: a
comment, an escape, a quote inside a string, a list, an inline table, a float, a `[table]`, a
dotted or quoted key, a repeated key, a value it cannot parse, or anything malformed. The caller
then reads the text with `tomllib`, which also words every error, so no error is decided here.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

# `key = value`, spaces or tabs around the `=` and at the ends of the line.
_PAR = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*?)[ \t]*")
_LISTA = re.compile(r"[ \t]*\[\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\]\][ \t]*")
# A basic string with no escape, no quote and no control character but the tab (TOML forbids
# those unescaped); what is inside is the value as it is.
_TEXTO = re.compile(r'"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"')
_INTEIRO = re.compile(r"[+-]?(?:0|[1-9][0-9]*)")
_DATA = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_DATA_HORA = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:(Z)|([+-])([0-9]{2}):([0-9]{2}))"
)


class _ForaDoSubconjuntoError(Exception):
    """Something `ler_simples` leaves to `tomllib`."""


def _valor(texto: str) -> Any:
    if (achado := _TEXTO.fullmatch(texto)) is not None:
        return achado.group(1)
    if texto == "true":
        return True
    if texto == "false":
        return False
    if _INTEIRO.fullmatch(texto) is not None:
        return int(texto)
    try:
        if (achado := _DATA_HORA.fullmatch(texto)) is not None:
            ano, mes, dia, hora, minuto, segundo, z, sinal, horas, minutos = achado.groups()
            if z:
                fuso = dt.UTC
            elif int(horas) > 23 or int(minutos) > 59:  # an offset TOML does not allow
                raise _ForaDoSubconjuntoError
            else:
                desvio = dt.timedelta(hours=int(horas), minutes=int(minutos))
                fuso = dt.timezone(-desvio if sinal == "-" else desvio)
            return dt.datetime(
                int(ano), int(mes), int(dia), int(hora), int(minuto), int(segundo), tzinfo=fuso
            )
        if (achado := _DATA.fullmatch(texto)) is not None:
            return dt.date(*map(int, achado.groups()))
    except ValueError as exc:  # a day or an offset out of range: tomllib says how
        raise _ForaDoSubconjuntoError from exc
    raise _ForaDoSubconjuntoError


def ler_simples(toml: str) -> dict[str, Any] | None:
    """`tomllib.loads(toml)` for a text of the plain subset (see the module), or None for any
    other text (then read it with `tomllib`)."""
    documento: dict[str, Any] = {}
    tabela = documento
    try:
        for linha in toml.split("\n"):
            if not linha.strip(" \t"):
                continue
            if (par := _PAR.fullmatch(linha)) is not None:
                chave, texto = par.groups()
                if chave in tabela:
                    return None  # a repeated key: an error tomllib words
                tabela[chave] = _valor(texto)
            elif (lista := _LISTA.fullmatch(linha)) is not None:
                existente = documento.setdefault(lista.group(1), [])
                if not isinstance(existente, list):
                    return None  # an array of tables over a value: an error tomllib words
                tabela = {}
                existente.append(tabela)
            else:
                return None
    except _ForaDoSubconjuntoError:
        return None
    return documento
