"""Checks on everything the network or the configuration hands the poller before it becomes a URL or a
path (issue 22, items 2 and 3).

The catalogue (`ele-c.json`) and the municipality config (`mun-e<ele>-cm.json`) are not signed: a
URL template or a code from them is only used once it is made of known parts. Every URL the poller
asks for must stay on the configured base (scheme, host, port, path prefix), and every file name
written under the data folder must be a plain name of the TSE's own patterns.
"""

from __future__ import annotations

import re
import urllib.parse

from jobs.tse.config import ELEICAO, SEGMENT, UFS

# The 27 UFs, abroad (`zz`) and Brazil (`br`): the only codes that name a folder of `dados/`.
ABRANGENCIAS = frozenset(UFS) | {"zz", "br"}
MUNICIPIO = re.compile(r"[0-9]{5}")  # TSE municipality code, zero-padded
ZONA = re.compile(r"[0-9]{4}")
# Placeholders the TSE's `arq[]` templates use (TSE-FORMAT.md §1.1).
MARCADORES = frozenset({"ambiente", "ciclo", "cd_eleicao", "uf", "cd_pleito", "municipio", "zona", "secao"})
MARCADOR = re.compile(r"<([a-z_]+)>")
# Names written in a snapshot folder: TSE result files and their twins, coverage and config files.
NOME_ARQUIVO = re.compile(
    r"(?:[a-z]{2}(?:[0-9]{5})?(?:-z[0-9]{4})?-c[0-9]{4}-e[0-9]{6}-[uv]\.(?:json|jws)"
    r"|[a-z]{2}-e[0-9]{6}-ab\.json|mun-e[0-9]{6}-cm\.json)"
)
NOME_SIMPLES = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")  # no leading dot, no separator
REJEITADOS = "rejeitados"


class ValidacaoError(ValueError):
    """A URL, code or name that is not one of the known parts (Portuguese message)."""


def is_election_code(codigo: str) -> bool:
    """ASCII digits, at most 6 (`str.isdigit` accepts "²")."""
    return ELEICAO.fullmatch(codigo) is not None


def check_uf(uf: str, onde: str) -> str:
    """A lower-case UF, `zz` or `br`; ValidacaoError otherwise."""
    if uf not in ABRANGENCIAS:
        raise ValidacaoError(f"{onde}: código de UF desconhecido {uf[:20]!r}")
    return uf


def check_segment(valor: str, onde: str) -> str:
    """A single literal path segment (configured `ambiente`/`ciclo`, a template's literal part)."""
    if SEGMENT.fullmatch(valor) is None:
        raise ValidacaoError(f"{onde}: {valor[:40]!r} não é um segmento de caminho válido")
    return valor


def check_template(modelo: str, onde: str) -> str:
    """A folder template: `<base>` then `/`-separated segments, each a known placeholder or a
    plain literal. Anything else (`<base>@outro-host`, `..`, `%2e`, a query, an unknown
    placeholder) is refused."""
    if not modelo.startswith("<base>/"):
        raise ValidacaoError(f"{onde}: modelo de URL não começa com '<base>/': {modelo[:80]!r}")
    for parte in modelo[len("<base>/") :].split("/"):
        m = MARCADOR.fullmatch(parte)
        if m is not None:
            if m[1] not in MARCADORES:
                raise ValidacaoError(f"{onde}: marcador desconhecido <{m[1][:20]}> no modelo de URL")
            continue
        check_segment(parte, onde)
    return modelo


def base_parts(url_base: str) -> tuple[str, str, int | None, str]:
    """(scheme, host, port, path prefix) of the configured base; ValidacaoError when it is not a
    plain http(s) URL (no user info, query or fragment)."""
    try:
        u = urllib.parse.urlsplit(url_base)
        porta = u.port
    except ValueError as exc:
        raise ValidacaoError(f"url_base inválida: {exc}") from exc
    if u.scheme not in ("http", "https") or not u.hostname:
        raise ValidacaoError(f"url_base deve ser http:// ou https:// com um host, não {url_base!r}")
    if u.username is not None or u.password is not None or "@" in u.netloc:
        raise ValidacaoError("url_base não pode ter usuário ou senha")
    if u.query or u.fragment:
        raise ValidacaoError("url_base não pode ter consulta (?) nem fragmento (#)")
    prefixo = u.path.rstrip("/")
    for parte in prefixo.split("/")[1:]:
        check_segment(parte, "url_base")
    return u.scheme, u.hostname.lower(), porta, prefixo


def check_on_base(url: str, url_base: str) -> str:
    """`url` unless it leaves the configured base (another scheme, host, port or path prefix, a
    `..` segment, user info, a query); ValidacaoError then."""
    esquema, host, porta, prefixo = base_parts(url_base)
    try:
        u = urllib.parse.urlsplit(url)
        porta_url = u.port
    except ValueError as exc:
        raise ValidacaoError(f"URL inválida: {url[:120]!r}") from exc
    fora = (
        u.scheme != esquema
        or (u.hostname or "").lower() != host
        or porta_url != porta
        or "@" in u.netloc
        or u.query
        or u.fragment
        or not u.path.startswith(prefixo + "/")
    )
    segmentos = u.path[len(prefixo) + 1 :].split("/")
    if fora or any(s in ("", ".", "..") or "%" in s or "\\" in s for s in segmentos):
        raise ValidacaoError(f"URL fora da base configurada {url_base}: {url[:120]!r}")
    return url


def check_tse_name(nome: str) -> str:
    """A file name of the TSE's own patterns (result, twin, coverage, municipality config)."""
    if NOME_ARQUIVO.fullmatch(nome) is None:
        raise ValidacaoError(f"nome de arquivo fora do padrão do TSE: {nome[:80]!r}")
    return nome


def check_member(nome: str) -> str:
    """A file name inside a snapshot folder: one plain name, or `rejeitados/<plain name>`; never a
    path that could leave the folder (`..`, `/`, `\\`, a leading dot, control characters)."""
    partes = nome.split("/")
    if len(partes) == 2 and partes[0] == REJEITADOS:
        partes = partes[1:]
    if len(partes) != 1 or NOME_SIMPLES.fullmatch(partes[0]) is None:
        raise ValidacaoError(f"nome de arquivo recusado na pasta de dados: {nome[:80]!r}")
    return nome


def is_member(nome: str) -> bool:
    """Whether `check_member` accepts the name."""
    try:
        check_member(nome)
    except ValidacaoError:
        return False
    return True


def check_race_folder(eleicao: str, pasta: str) -> None:
    """The race folder `<eleicao>/<presidente|governador-uf>`: a checked code and a known UF."""
    uf = pasta.removeprefix("governador-")
    if not is_election_code(eleicao) or not (pasta == "presidente" or (uf != pasta and uf in UFS)):
        raise ValidacaoError(f"pasta de corrida recusada: {eleicao[:20]!r}/{pasta[:30]!r}")
