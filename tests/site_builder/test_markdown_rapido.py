"""The fast Markdown path (`markdown_rapido`) gives exactly Python-Markdown's HTML and link
addresses for every body it takes, and leaves every body outside its subset to Python-Markdown.

Compared on every body of the repository (content, test fixtures, the build benchmark's) and on
generated bodies: the subset's constructs, and near misses of them that it must refuse."""

from __future__ import annotations

import markdown
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from benchmarks.build_bench import BODY
from site_builder import markdown_rapido
from site_builder.conteudo.frontmatter import split_front_matter
from site_builder.errors import ContentError
from site_builder.markdown_render import MarkdownRenderer
from tests.site_builder.conftest import REPO
from tests.site_builder.test_enderecos import TRICKY

FULL = MarkdownRenderer(fast_path=False)  # Python-Markdown alone: what the fast path must equal


def _full(text: str) -> tuple[str, list[str]]:
    return FULL.convert_with_addresses(text)


def _same_or_refused(text: str) -> bool:
    """Whether the fast path gave Python-Markdown's output (True) or refused the body (False);
    fails the test when it gave anything else."""
    fast = markdown_rapido.convert(text)
    if fast is None:
        return False
    assert fast == _full(text), f"fast path differs from Python-Markdown on {text!r}"
    return True


def _repository_bodies() -> dict[str, str]:
    """Every Markdown body of the repository: content, the tests' fixtures, the benchmark's."""
    bodies = {}
    for path in sorted([*REPO.glob("content/**/*.md"), *REPO.glob("tests/**/*.md")]):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # a fixture in another encoding: never converted
            continue
        try:
            bodies[str(path.relative_to(REPO))] = split_front_matter(text, path.name)[1]
        except ContentError:  # no front matter: the whole text as a body
            bodies[str(path.relative_to(REPO))] = text
    for i in range(3):
        bodies[f"BODY {i}"] = BODY.format(i=i, pct=i % 40, a=1000 + i, b=1000 + i + i % 40)
    return bodies


BODIES = _repository_bodies()


@pytest.mark.parametrize("name", sorted(BODIES))
def test_every_body_of_the_repository_converts_as_python_markdown(name: str) -> None:
    _same_or_refused(BODIES[name])


def test_the_fast_path_takes_the_benchmark_body_and_every_sample_check() -> None:
    checks = [name for name in BODIES if name.startswith(("content/checagens/", "BODY"))]
    assert len(checks) > 30
    assert [name for name in checks if markdown_rapido.convert(BODIES[name]) is None] == []


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_link_bodies_convert_as_python_markdown(text: str) -> None:
    _same_or_refused(text)


# ----------------------------------------------------------------------------- generated bodies

_WORD = st.text(alphabet="abcxyzÁçõé019", min_size=1, max_size=6)
_ADDRESS = st.sampled_from(
    ["/metodologia/", "https://x.test/a?b=1&c=2", "/a_b*c", "mailto:a@x.test", "javascript:x", "#n", "/&amp;"]
)
# Text a real body holds: atoms (words, emphasis, links) between separators; and near misses of
# the subset, each of which must be refused or converted exactly: stray or unequal `*`, `_`,
# entities, `<`, `>`, brackets, pipes, `#`, code, escapes, odd whitespace, marks at a line start.
_SEPARATORS = [" ", " ", " ", ", ", ". ", " (", ") ", ": ", " — ", "\n", " & ", "% ", "! ", "'", '"']
_NEAR_MISS = ["*", "**", "***", "_", "__", "&amp;", "&#58;", "&x", "<", ">", "[", "]", "](", "|", "#"]
_NEAR_MISS += ["`", "\\*", "  \n", "\t", "\u00a0", "![i](/i.png)", "[r][r]", "<https://x.test>", "&"]
_NEAR_MISS += ["\n- ", "\n+", "\n=", "\n1. ", "\n> ", "\n ", "\n#", "\n---", "**a*", "*a**", "** a**"]


@st.composite
def _inline(draw: st.DrawFn, near_miss: bool) -> str:
    words = st.lists(_WORD, min_size=1, max_size=3).map(" ".join)
    atoms = [
        _WORD,
        _WORD,
        words.map(lambda w: f"*{w}*"),
        words.map(lambda w: f"**{w}**"),
        st.tuples(words, _ADDRESS).map(lambda t: f"[{t[0]}]({t[1]})"),
        st.tuples(words, _ADDRESS).map(lambda t: f"*veja [{t[0]}]({t[1]})*"),
        st.tuples(words, _ADDRESS).map(lambda t: f"[**{t[0]}**]({t[1]})"),
    ]
    separators = [st.sampled_from(_SEPARATORS)]
    if near_miss:
        atoms.append(st.sampled_from(_NEAR_MISS))
        separators.append(st.sampled_from(_NEAR_MISS))
    parts = [draw(st.one_of(atoms))]
    for _ in range(draw(st.integers(0, 8))):
        parts += [draw(st.one_of(separators)), draw(st.one_of(atoms))]
    return "".join(parts)


@st.composite
def _block(draw: st.DrawFn, near_miss: bool) -> str:
    text = _inline(near_miss)
    line = text.map(lambda t: t.replace("\n", " "))
    kind = draw(st.sampled_from(["p", "p", "h", "ul", "ol", "quote", "table"]))
    if kind == "h":
        hashes = draw(st.integers(1, 7 if near_miss else 6))
        return (
            "#" * hashes + draw(st.sampled_from([" ", "  ", ""] if near_miss else [" ", "  "])) + draw(line)
        )
    if kind in ("ul", "ol"):
        items = draw(st.lists(text, min_size=1, max_size=4))
        marker = draw(st.sampled_from(["- ", "* ", "+ "])) if kind == "ul" else None
        first = draw(st.sampled_from(["1", "1", "3", "01"]))
        return "\n".join((marker or f"{first if i == 0 else i + 1}. ") + item for i, item in enumerate(items))
    if kind == "quote":
        inner = draw(st.lists(st.one_of(text, _block(near_miss=False)), min_size=1, max_size=3))
        quoted = "\n".join("> " + line if line else ">" for line in "\n\n".join(inner).split("\n"))
        marks = ["", "\n>", "\n> ", "\n>>"] if near_miss else [""]  # an empty last line, a nested quote
        return quoted + draw(st.sampled_from(marks))
    if kind == "table":
        columns = draw(st.integers(1 if near_miss else 2, 3))
        cells = st.lists(line.map(lambda t: t.replace("|", "")), min_size=columns, max_size=columns + 1)
        separator = "|" + "|".join(
            draw(st.sampled_from(["---", ":--", "--:", ":-:", " - "])) for _ in range(columns)
        )
        rows = draw(st.lists(cells, min_size=1, max_size=3))
        return "\n".join(
            ["|" + "|".join(draw(cells)) + "|", separator + "|", *("|" + "|".join(r) + "|" for r in rows)]
        )
    return draw(text)


@st.composite
def _body(draw: st.DrawFn, near_miss: bool) -> str:
    blocks = draw(st.lists(_block(near_miss), min_size=1, max_size=5))
    joints = [draw(st.sampled_from(["\n\n", "\n\n", "\n\n", "\n", "\n\n\n"])) for _ in blocks]
    return "".join(b + j for b, j in zip(blocks, joints, strict=True))


@settings(max_examples=200)
@given(_body(near_miss=False))
@example("**Conteúdo de demonstração.** Os registros\nmostram *300* leitos.\n")
@example("## Título\nlogo abaixo\n- item\n\n> citação *com* [link](/a)\n")
def test_generated_bodies_of_the_subset_convert_as_python_markdown(text: str) -> None:
    event("fast path" if _same_or_refused(text) else "refused")  # `--hypothesis-show-statistics`


@settings(max_examples=200)
@given(_body(near_miss=True))
def test_generated_near_misses_are_refused_or_convert_as_python_markdown(text: str) -> None:
    event("fast path" if _same_or_refused(text) else "refused")


# ----------------------------------------------------------------------------- the fallback

OUTSIDE = [
    "texto com `código`",
    "texto com <b>tag</b>",
    "um &amp; outro",
    "escape \\* aqui",
    "![imagem](/i.png)",
    "[referência][r]\n\n[r]: /r",
    "_ênfase_ com sublinhado",
    "linha com quebra  \nforçada",
    "    bloco de código",
    "- item\n\n- lista frouxa",
    "***forte e ênfase***",
    "*a **aninhada** b*",
    "Título\n======",
    "a\n\n---\n\nb",
    "> a\n\n> citação continuada",
    "> citação com a última linha vazia\n>",
    '[link](/a "com título")',
    "| sem | borda\n|---|---|\n| a | b |",
    "texto\u00a0com espaço inseparável",
]


@pytest.mark.parametrize("text", OUTSIDE)
def test_a_body_outside_the_subset_goes_to_python_markdown(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert markdown_rapido.convert(text) is None
    parses = [0]
    real = markdown.blockparser.BlockParser.parseDocument

    def counted(self: markdown.blockparser.BlockParser, lines: list[str]) -> object:
        parses[0] += 1
        return real(self, lines)

    monkeypatch.setattr(markdown.blockparser.BlockParser, "parseDocument", counted)
    assert MarkdownRenderer().convert_with_addresses(text) == _full(text)
    assert parses[0] == 2  # the renderer's conversion and the reference's


def test_a_body_of_the_subset_skips_python_markdown(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(self: markdown.blockparser.BlockParser, lines: list[str]) -> object:
        raise AssertionError("Python-Markdown parsed a body of the fast path's subset")

    text = BODIES["BODY 1"]
    expected = _full(text)
    monkeypatch.setattr(markdown.blockparser.BlockParser, "parseDocument", refused)
    assert MarkdownRenderer().convert_with_addresses(text) == expected
    assert MarkdownRenderer().addresses(text) == expected[1]


def test_unsafe_addresses_are_replaced_and_still_read() -> None:
    html, addresses = MarkdownRenderer().convert_with_addresses("[a](javascript:x) e [b](/b)")
    assert html == '<p><a href="#">a</a> e <a href="/b">b</a></p>'
    assert addresses == ["javascript:x", "/b"]


def test_the_refused_whitespace_is_all_whitespace_but_space_and_newline() -> None:
    """`_OUT_ANYWHERE` lists by hand what `\\s` and `str.strip` take besides space and newline."""
    spaces = {chr(c) for c in range(0x110000) if chr(c).isspace()} - {" ", "\n"}
    assert {c for c in spaces if markdown_rapido._OUT_ANYWHERE.match(c)} == spaces
    assert markdown_rapido._OUT_ANYWHERE.match(" ") is None
    assert markdown_rapido._OUT_ANYWHERE.match("\n") is None
