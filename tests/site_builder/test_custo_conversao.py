"""The conversion-cost bound (`texto_seguro._custo_do_trecho`) jumps between the characters that
count; it must give exactly what reading every character gave (the reference below, the code of
before the jump), on generated text and on every body the project and the benchmark hold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.conteudo import texto_seguro
from site_builder.conteudo.frontmatter import read_body
from tests.site_builder.conftest import FIXTURE_CONTENT, REPO

_ESCAPADOS = frozenset("\\`[]()")
_MARCADOR = 16


def _reference(trecho: str) -> int:
    """The bound read character by character (the implementation this one replaced)."""
    fim = len(trecho)
    crase = trecho.find("`")
    ate_crase = fim if crase < 0 else crase
    custo = 0
    colchetes: list[int] = []
    parenteses: list[tuple[int, bool, int]] = []
    ate_o_fim: list[int] = []
    aspas = 0
    i = p = 0
    while i < fim:
        c = trecho[i]
        if c == "\\" and i + 1 < fim and trecho[i + 1] in _ESCAPADOS:
            i, p = i + 2, p + _MARCADOR
            continue
        if c == "[":
            colchetes.append(p)
        elif c == "]":
            if colchetes and i < ate_crase:
                custo += p - colchetes.pop()
            if i + 1 < fim and trecho[i + 1] == "(":
                parenteses.append((p + 1, True, aspas))
                i, p = i + 2, p + 2
                continue
        elif c == "(":
            parenteses.append((p, False, aspas))
        elif c == ")":
            if parenteses and i < ate_crase:
                inicio, de_link, antes = parenteses.pop()
                if de_link and aspas == antes:
                    custo += p - inicio
                elif de_link:
                    ate_o_fim.append(inicio)
        elif c in "'\"":
            aspas += 1
        elif c == "`":
            p += _MARCADOR // 2 - 1
        i, p = i + 1, p + 1
    custo += sum(p - inicio for inicio in colchetes)
    custo += sum(p - inicio for inicio, de_link, _antes in parenteses if de_link)
    custo += sum(p - inicio for inicio in ate_o_fim)
    return custo


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="\\`[]()'\"ab \n(é", max_size=120))
def test_the_jumping_bound_is_the_bound_read_character_by_character(trecho: str) -> None:
    assert texto_seguro._custo_do_trecho(trecho) == _reference(trecho)


def _bodies() -> list[str]:
    from benchmarks.build_bench import BODY

    folders = [REPO / "content", FIXTURE_CONTENT]
    bodies = [read_body(p) for folder in folders for p in sorted(folder.rglob("*.md"))]
    return [*bodies, BODY.format(i=7, pct=3, a=1000, b=1003)]


def test_every_body_of_the_project_and_the_benchmark_costs_what_it_cost() -> None:
    bodies = _bodies()
    assert len(bodies) > 10
    for corpo in bodies:
        for trecho in corpo.split("\n\n"):
            assert texto_seguro._custo_do_trecho(trecho) == _reference(trecho), trecho[:80]
