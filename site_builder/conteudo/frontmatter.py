"""Front matter of content files: a TOML block between two `+++` lines, then the Markdown body.

TOML rather than YAML: it is in the standard library, it has no implicit type guessing
(`no` stays a string, `2026-10-25` is a real date) and its errors name a line.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from pathlib import Path
from typing import Any

from site_builder.conteudo.toml_simples import ler_simples
from site_builder.errors import ContentError

DELIMITER = "+++"


def normalizar_linhas(text: str) -> str:
    """`text` with Windows line endings (CRLF) as Unix ones: an editor on Windows saves a file
    that reads, builds and shows line numbers exactly as the same file saved elsewhere."""
    return text.replace("\r\n", "\n")


def _split(text: str, path: str) -> tuple[str, str]:
    """(TOML header, Markdown body) of a content file; ContentError when the delimiters are wrong."""
    text = normalizar_linhas(text.removeprefix("\ufeff"))
    lines = text.split("\n")
    if lines[0].strip() != DELIMITER:
        raise ContentError(path, f"o arquivo deve começar com uma linha '{DELIMITER}' (front matter em TOML)")
    for index in range(1, len(lines)):
        if lines[index].strip() == DELIMITER:
            return "\n".join(lines[1:index]), "\n".join(lines[index + 1 :]).lstrip("\n")
    raise ContentError(path, f"front matter sem a linha '{DELIMITER}' de fechamento")


def _to_utc(value: Any) -> Any:
    """Aware date-times in UTC (the project's storage convention); naive ones stay naive."""
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.astimezone(dt.UTC)
    if isinstance(value, dict):
        return {k: _to_utc(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_to_utc(v) for v in value]
    return value


def parse_front_matter(text: str, path: str) -> dict[str, Any]:
    """The front matter of a content file as a dict; ContentError (with the file's line and the
    field) when malformed."""
    header, _body = _split(text, path)
    try:
        meta: dict[str, Any] = _to_utc(ler_toml(header, path, HEADER_OFFSET))
    except tomllib.TOMLDecodeError as exc:
        linha, campo, problema = erro_toml(exc, header)
        raise ContentError(path, problema, linha + HEADER_OFFSET if linha else 0, campo) from exc
    return meta


MAX_ANINHAMENTO = 32  # levels of lists and inline tables inside one another; a real file uses 2
_ABRE = frozenset("[{")
_FECHA = frozenset("]}")


def linha_aninhada_demais(toml: str, limite: int = MAX_ANINHAMENTO) -> int:
    """The line (from 1) where lists and inline tables of `toml` nest deeper than `limite`, 0 when
    they do not: a linear scan that skips strings and comments, run before parsing (the standard
    library's parser recurses once per level, and a few hundred levels exhaust Python's stack)."""
    # Nesting deeper than `limite` takes more than `limite` brackets and braces: a header with
    # fewer (every real one) needs no scan (0.2 ms a header of build_bench, measured).
    if toml.count("[") + toml.count("{") <= limite:
        return 0
    depth, linha, i, fim = 0, 1, 0, len(toml)
    while i < fim:
        c = toml[i]
        if c == "\n":
            linha += 1
        elif c == "#":
            fim_da_linha = toml.find("\n", i)
            i = fim if fim_da_linha < 0 else fim_da_linha
            continue
        elif c in "\"'":
            delim = c * 3 if toml.startswith(c * 3, i) else c
            j = i + len(delim)
            while j < fim and not toml.startswith(delim, j):
                if toml[j] == "\n":
                    if len(delim) == 1:
                        break  # an unclosed one-line string: the parser reports it
                    linha += 1
                j += 2 if c == '"' and toml[j] == "\\" else 1
            i = j + len(delim)
            continue
        elif c in _ABRE:
            depth += 1
            if depth > limite:
                return linha
        elif c in _FECHA:
            depth = max(depth - 1, 0)
        i += 1
    return 0


def ler_toml(toml: str, path: str, offset: int = 0) -> dict[str, Any]:
    """`tomllib.loads(toml)` for the file `path` (where `toml` starts after `offset` lines; plain
    TOML read by `toml_simples.ler_simples`, which gives the same): ContentError naming the file
    and line for nesting deeper than `MAX_ANINHAMENTO`, checked first; tomllib's own errors are
    left to the caller, which words them."""
    if len(toml) > MAX_TOML:
        raise ContentError(
            path,
            f"o TOML tem {len(toml)} caracteres, acima do limite de {MAX_TOML}; "
            "um arquivo real cabe com folga",
        )
    if linha := linha_aninhada_demais(toml):
        raise ContentError(path, aninhamento_excessivo(), linha + offset)
    if (simples := ler_simples(toml)) is not None:
        return simples  # the same dict, five times faster, for the plain TOML of most headers
    try:
        return tomllib.loads(toml)
    except RecursionError as exc:  # the scan above is stricter; this is only a second line
        raise ContentError(path, aninhamento_excessivo()) from exc


def aninhamento_excessivo() -> str:
    """The message for TOML nested deeper than `MAX_ANINHAMENTO` levels."""
    return (
        f"listas ou tabelas umas dentro das outras em mais de {MAX_ANINHAMENTO} níveis; "
        "o arquivo não foi lido (um arquivo real usa dois ou três)"
    )


# The header's first line is the file's second: the opening `+++` comes before it.
HEADER_OFFSET = 1
_POSITION = re.compile(
    r"^(?P<message>.*) \((?:at line (?P<line>\d+), column \d+|at end of document)\)$", re.S
)
_DATE = re.compile(r"=\s*\d{4}-")
_KEY = re.compile(r"""^\s*(?P<key>[A-Za-z0-9_-]+|"[^"]*"|'[^']*')\s*[.=]""")
_TABLE = re.compile(r"^\s*(?P<open>\[\[?)\s*(?P<name>[A-Za-z0-9_.-]+)")
_LOOKBACK = 200  # lines scanned back for a statement's start (a header is a few dozen lines)
# Characters of TOML one file may hold: a real front matter has a few thousand, the editors'
# registry a few hundred per person. tomllib reads some 10,000 characters per 50 ms here, and
# locating an error parses prefixes again: both bounded by this and by `_LOOKBACK_CHARS`.
MAX_TOML = 64 * 1024
_LOOKBACK_CHARS = 16 * MAX_TOML  # characters parsed again, in all, to locate one error
DATA_INVALIDA = "data inválida: use o formato 2026-10-12 ou 2026-10-12T14:30:00-03:00, sem aspas"
# The desk's time zone: dates are stored in UTC, and shown back to editors in it (site.toml's default).
FUSO_REDACAO = "America/Sao_Paulo"
# `01/12/2026` (day/month/year, as Brazilians write dates): TOML reads no such value.
_DATA_BARRAS = re.compile(r"=\s*(?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<a>\d{4})\b")
# tomllib's messages (Python 3.11+) in the desk's words; the first matching prefix wins.
_MESSAGES = (
    ("Invalid date or datetime", DATA_INVALIDA),
    ("Illegal character '\\n'", "texto sem fechamento: faltam as aspas que fecham o texto"),
    ("Unterminated string", "texto sem fechamento: faltam as aspas que fecham o texto"),
    ("Expected \"'", "texto sem fechamento: faltam as aspas que fecham o texto"),
    ("Expected '\"", "texto sem fechamento: faltam as aspas que fecham o texto"),
    ("Cannot overwrite a value", "chave repetida: este campo já foi definido antes"),
    ("Cannot declare", "chave repetida: esta tabela já foi definida antes"),
    ("Duplicate inline table key", "chave repetida: este campo já foi definido antes"),
    ("Cannot redefine namespace", "chave repetida: este campo já foi definido antes"),
    ("Cannot mutate immutable namespace", "chave repetida: este campo já foi definido antes"),
    ("Invalid value", "valor inválido: textos vão entre aspas; datas, números e true/false, sem aspas"),
    (
        "Expected newline or end of document after a statement",
        "valor inválido: há algo depois do valor na mesma linha (textos vão entre aspas)",
    ),
    ("Unclosed array", "lista sem fechamento: falta o ']'"),
    ("Unclosed inline table", "tabela sem fechamento: falta o '}'"),
    ("Unescaped '\\'", "barra invertida (\\) no texto: escreva \\\\ ou use aspas simples"),
    ("Invalid hex value", "código \\u inválido no texto"),
    ("Escaped character", "código \\u inválido no texto"),
    ("Illegal character", "caractere não permitido (caractere de controle); apague-o"),
    ("Expected '=' after a key", "linha inválida: escreva campo = valor"),
    ("Invalid statement", "linha inválida: escreva campo = valor"),
    ("Invalid initial character for a key part", "nome de campo inválido: use letras, números, '_' e '-'"),
    ("Expected ']", "cabeçalho de tabela sem fechamento: falta ']' (ou ']]')"),
)


def erro_toml(exc: tomllib.TOMLDecodeError, toml: str) -> tuple[int, str, str]:
    """(line in `toml`, field or "", Portuguese problem) for tomllib's error on `toml`.

    The line is where the faulty statement starts (tomllib reports where it noticed, which for
    an unclosed list or text is the end of the document); the field is that statement's key,
    written as the rules write fields (`fontes[2].url`).
    """
    found = _POSITION.match(str(exc))
    message = found.group("message") if found else str(exc)
    lines = toml.split("\n")
    noticed = int(found.group("line")) if found and found.group("line") else len(lines)
    linha = _statement_start(lines, noticed)
    texto_linha = lines[linha - 1] if 0 < linha <= len(lines) else ""
    problema = next((pt for en, pt in _MESSAGES if message.startswith(en)), "")
    if message.startswith("Expected newline") and _DATE.search(texto_linha):
        problema = DATA_INVALIDA  # `2026-13-45` does not even read as a date
    elif barras := _DATA_BARRAS.search(texto_linha):
        iso = f"{barras['a']}-{int(barras['m']):02d}-{int(barras['d']):02d}"
        problema = f"data no formato dia/mês/ano: escreva {iso} (ano-mês-dia), sem aspas"
    return linha, _campo_da_linha(lines, linha), problema or "erro de sintaxe no front matter (TOML)"


def _parses(lines: list[str]) -> bool:
    try:
        tomllib.loads("\n".join(lines))
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return True


def _statement_start(lines: list[str], noticed: int) -> int:
    """The first line of the statement that holds line `noticed` (1-based): the line after the
    longest prefix that still parses, skipping blank lines and comments."""
    budget = _LOOKBACK_CHARS
    for kept in range(min(noticed, len(lines)) - 1, max(noticed - 1 - _LOOKBACK, -1), -1):
        budget -= sum(len(line) + 1 for line in lines[:kept])
        if budget < 0:
            break
        if _parses(lines[:kept]):
            start = kept
            while start < noticed - 1 and (not lines[start].strip() or lines[start].lstrip().startswith("#")):
                start += 1
            return start + 1
    return noticed


def _campo_da_linha(lines: list[str], linha: int) -> str:
    """The field written on line `linha` (1-based) as the rules name it, or "" if none."""
    if not 0 < linha <= len(lines):
        return ""
    table, index = "", 0
    for text in lines[: linha - 1]:
        if header := _TABLE.match(text):
            name = header.group("name")
            index = (index + 1 if name == table else 1) if header.group("open") == "[[" else 0
            table = name
    if header := _TABLE.match(lines[linha - 1]):
        return header.group("name")
    key = _KEY.match(lines[linha - 1])
    if key is None:
        return ""
    nome = key.group("key").strip("\"'")
    if not table:
        return nome
    return f"{table}[{index}].{nome}" if index else f"{table}.{nome}"


def linha_do_campo(toml: str, campo: str) -> int:
    """The line (1-based) of `toml` where `campo` (`publicado_em`, `fontes[2].url`) is written:
    its table's header when the key itself is absent, 0 when not found."""
    lines = toml.split("\n")
    found = re.fullmatch(r"(?P<table>[A-Za-z0-9_-]+)\[(?P<index>\d+)\]\.?(?P<key>[A-Za-z0-9_-]*)", campo)
    table, wanted, key = (found["table"], int(found["index"]), found["key"]) if found else ("", 0, campo)
    current, index, header_line = "", 0, 0
    for number, text in enumerate(lines, start=1):
        if header := _TABLE.match(text):
            name = header.group("name")
            index = index + 1 if name == current else 1
            current = name
            if (current, index) == (table, wanted):
                header_line = number
            elif header_line:
                break  # past the wanted table
            continue
        in_place = (current, index) == (table, wanted) if table else not current
        if in_place and key and (m := _KEY.match(text)) and m.group("key").strip("\"'") == key:
            return number
    return header_line


def split_front_matter(text: str, path: str) -> tuple[dict[str, Any], str]:
    """(front matter, Markdown body) of a content file; ContentError when malformed."""
    return parse_front_matter(text, path), _split(text, path)[1]


def split_body(text: str, path: str) -> str:
    """The Markdown body of a content file, its front matter left unparsed; ContentError when
    the delimiters are wrong."""
    return _split(text, path)[1]


def read_body(path: Path) -> str:
    """The Markdown body of a content file, read again at render time (bodies are not cached)."""
    return _split(path.read_text(encoding="utf-8"), str(path))[1]


def linha_no_arquivo(text: str, campo: str) -> int:
    """The file's line (from 1) where `campo` of a content file's front matter is written, 0 if
    not found (see `linha_do_campo`)."""
    try:
        header, _body = _split(text, "")
    except ContentError:
        return 0
    linha = linha_do_campo(header, campo)
    return linha + HEADER_OFFSET if linha else 0
