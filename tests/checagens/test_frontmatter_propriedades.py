"""Property-based tests of the front-matter reader (issue 22): whatever bytes a content file
holds, reading it gives a record or a clear refusal (ContentError / a Recusa naming the file),
never another exception, and the content rules give a ChecagemLida. Derandomized, so CI runs
the same examples every time."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from site_builder.conteudo import regras
from site_builder.conteudo.frontmatter import parse_front_matter, split_front_matter
from site_builder.conteudo.registros import Fonte
from site_builder.errors import ContentError
from site_builder.reader import Recusa, parse_bytes

ARQUIVO = "content/checagens/x.md"
CONFIG = settings(
    max_examples=80, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# Pieces editors (and attackers) put in front matter: delimiters, TOML syntax, brackets, quotes,
# line endings, a BOM, control and invisible characters.
PECAS = st.sampled_from(
    [
        "+++",
        "\n",
        "\r\n",
        "\r",
        "\ufeff",
        "id",
        " = ",
        '"',
        "'",
        '"""',
        "[",
        "]",
        "{",
        "}",
        "[[",
        "]]",
        "fontes",
        ".",
        ",",
        "#",
        "\\",
        "\\u",
        "2026-10-10",
        "T10:00:00-03:00",
        "true",
        "1e999",
        "status",
        "publicada",
        "\x00",
        "\u202e",
        "é",
        "`",
        "](",
        "(",
        ")",
        "!",
    ]
)
TEXTOS = st.one_of(st.text(max_size=300), st.lists(PECAS, max_size=80).map("".join))


def _le(texto: str) -> None:
    try:
        meta, corpo = split_front_matter(texto, ARQUIVO)
    except ContentError as exc:
        assert str(exc).startswith(ARQUIVO)
        assert exc.problem
        return
    assert isinstance(meta, dict)
    assert isinstance(corpo, str)
    assert parse_front_matter(texto, ARQUIVO) == meta


PROFUNDO = "x = " + "[" * 3_000  # tomllib recursed past Python's stack: RecursionError escaped


@CONFIG
@given(TEXTOS)
@example(PROFUNDO)
@example("y = " + "{a = " * 3_000)
def test_qualquer_texto_da_um_registro_ou_uma_recusa(texto: str) -> None:
    _le(texto)
    _le("+++\n" + texto)
    _le("+++\n" + texto + "\n+++\n")


@CONFIG
@given(st.binary(max_size=300) | TEXTOS.map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_quaisquer_bytes_dao_um_registro_ou_uma_recusa_que_nomeia_o_arquivo(dados: bytes) -> None:
    for conteudo in (dados, b"+++\n" + dados, b"+++\n" + dados + b"\n+++\n"):
        lido = parse_bytes(
            conteudo, Fonte(ARQUIVO, ""), lambda texto, f: parse_front_matter(texto, f.caminho)
        )
        if isinstance(lido, Recusa):
            assert lido.mensagem.startswith(ARQUIVO)
        else:
            assert isinstance(lido, dict)


@CONFIG
@given(TEXTOS)
@example(PROFUNDO)
def test_as_regras_leem_qualquer_checagem_sem_excecao(texto: str) -> None:
    for conteudo in ("+++\n" + texto + "\n+++\n\ncorpo", '+++\nid = "a"\n+++\n\n' + texto):
        lida = regras.ler_checagem(conteudo, Fonte(ARQUIVO, ""), None, None)
        assert all(p.arquivo == ARQUIVO for p in lida.problemas)
