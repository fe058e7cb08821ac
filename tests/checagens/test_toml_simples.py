"""The fast reader of plain TOML headers (`toml_simples.ler_simples`) gives exactly what tomllib
gives, or nothing: generated headers of its subset and near misses, every real header, and the
errors, which stay tomllib's."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from site_builder.conteudo.frontmatter import _split, parse_front_matter
from site_builder.conteudo.toml_simples import ler_simples
from site_builder.errors import ContentError
from tests.site_builder.conftest import REPO

_CHAVES_BOAS = ["id", "slug", "veredito", "data", "url", "fontes", "a-b_1", "1"]
_CHAVES_RUINS = ["Ç", "a.b", '"q"', "a b", ""]
_VALORES_BONS = [
    '"texto simples"',
    '"com acentuação e ç"',
    '""',
    '"tab\tdentro"',
    "true",
    "false",
    "0",
    "-0",
    "+7",
    "42",
    "2026-10-02",
    "2026-10-02T01:01:00-03:00",
    "2026-10-02T01:01:00+05:30",
    "2026-10-02T01:01:00Z",
    "2026-10-02T01:01:00-00:00",
]
_VALORES_RUINS = [
    '"aspas \\" escapada"',
    '"barra \\\\ escapada"',
    '"sem fim',
    '"controle \x01"',
    '"del \x7f"',
    "'literal'",
    "True",
    "TRUE",
    "007",
    "1_000",
    "3.5",
    "1e3",
    "inf",
    "2026-13-02",
    "2026-02-30",
    "2026-10-02T01:01:00z",
    "2026-10-02t01:01:00Z",
    "2026-10-02 01:01:00Z",
    "2026-10-02T24:01:00Z",
    "2026-10-02T01:01:60Z",
    "2026-10-02T01:01:00+05:60",
    "2026-10-02T01:01:00+24:00",
    "2026-10-02T01:01:00.5Z",
    "2026-10-02T01:01:00",
    "01:01:00",
    "[1, 2]",
    "{ a = 1 }",
    '"x" # comentário',
    "",
]
_ESPACO = st.sampled_from(["", " ", "  ", "\t"])
_TEXTO_QUALQUER = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)


def _par(chaves: st.SearchStrategy[str], valores: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(
        lambda e1, k, e2, e3, v, e4: f"{e1}{k}{e2}={e3}{v}{e4}",
        _ESPACO,
        chaves,
        _ESPACO,
        _ESPACO,
        valores,
        _ESPACO,
    )


_BOA = st.one_of(
    _par(st.sampled_from(_CHAVES_BOAS), st.sampled_from(_VALORES_BONS)),
    st.builds(lambda k, e: f"[[{e}{k}{e}]]", st.sampled_from(_CHAVES_BOAS), _ESPACO),
    st.sampled_from(["", "  "]),
)
# Any line: of the subset, or a near miss of it (a bad key, a value outside the subset or
# malformed, any string, a line of another kind).
_QUALQUER = st.one_of(
    _BOA,
    _par(st.sampled_from(_CHAVES_BOAS + _CHAVES_RUINS), st.sampled_from(_VALORES_BONS + _VALORES_RUINS)),
    _par(st.sampled_from(_CHAVES_BOAS), _TEXTO_QUALQUER.map(lambda t: f'"{t}"')),
    st.sampled_from(["# comentário", "[tabela]", "[[fontes]] # x", "[[a.b]]", "chave", "= 1", "\r", "\x0c"]),
)
# Headers of the subset with at most two other lines somewhere in them.
_TOML = st.builds(
    lambda boas, outras, onde: "\n".join(
        [*boas[: onde % (len(boas) + 1)], *outras, *boas[onde % (len(boas) + 1) :]]
    ),
    st.lists(_BOA, max_size=20),
    st.lists(_QUALQUER, max_size=2),
    st.integers(min_value=0, max_value=40),
)


def _tomllib(texto: str) -> str | None:
    """What tomllib reads, as a type-aware text (True is not 1), or None when it refuses."""
    try:
        return repr(tomllib.loads(texto))
    except tomllib.TOMLDecodeError:
        return None


@settings(max_examples=300)
@given(_TOML)
@example('id = "a"\n[[fontes]]\nurl = "u"\n[[fontes]]\nurl = "v"\ndata = 2026-10-02T01:01:00-03:00')
@example('fontes = "a"\n[[fontes]]')
@example("a = 1\na = 2")
@example("[[a]]\nx = 1\n[[a]]\nx = 1")
def test_o_leitor_rapido_da_o_que_o_tomllib_da_ou_nada(texto: str) -> None:
    lido = ler_simples(texto)
    if lido is not None:
        assert repr(lido) == _tomllib(texto)


@pytest.mark.parametrize("valor", _VALORES_BONS + _VALORES_RUINS)
@pytest.mark.parametrize("chave", _CHAVES_BOAS[:2] + _CHAVES_RUINS)
def test_cada_valor_e_chave_perto_do_subconjunto(chave: str, valor: str) -> None:
    """Each value and key near the subset's edge, alone, in an array of tables and repeated."""
    for texto in (
        f"{chave} = {valor}",
        f'x = 1\n[[fontes]]\n{chave} = {valor}\nz = "a"',
        f"{chave} = {valor}\n" * 2,
    ):
        lido = ler_simples(texto)
        if lido is not None:
            assert repr(lido) == _tomllib(texto)
    if chave in _CHAVES_BOAS and valor in _VALORES_BONS:  # the subset is read, not left to tomllib
        assert ler_simples(f"{chave} = {valor}") is not None


def _cabecalhos() -> list[Path]:
    return sorted((REPO / "content").rglob("*.md"))


@pytest.mark.parametrize("arquivo", _cabecalhos(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_todo_cabecalho_do_conteudo_e_lido_pelo_caminho_rapido(arquivo: Path) -> None:
    """The content's headers are all in the subset: the fast path is the one the build takes."""
    cabecalho, _corpo = _split(arquivo.read_text(encoding="utf-8"), str(arquivo))
    lido = ler_simples(cabecalho)
    assert lido is not None, "o cabeçalho saiu do subconjunto que o leitor rápido lê"
    assert repr(lido) == _tomllib(cabecalho)


def test_um_erro_continua_sendo_o_do_tomllib_com_a_linha() -> None:
    texto = '+++\nid = "a"\nid = "b"\n+++\n\nCorpo.\n'
    assert ler_simples('id = "a"\nid = "b"') is None
    with pytest.raises(ContentError) as erro:
        parse_front_matter(texto, "content/checagens/x.md")
    assert erro.value.line == 3
