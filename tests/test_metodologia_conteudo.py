"""Checks on the public methodology pages in content/metodologia/.

The seeds in shared/seeds are the published method; every rule, weight, threshold, table and
verdict in them must reach the pages, written in new words (no seed sentence copied).
"""

from __future__ import annotations

import ast
import datetime as dt
import os
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from jobs.dados_compartilhados import pasta_compartilhada

ROOT = Path(__file__).resolve().parent.parent
PAGES_DIR = ROOT / "content" / "metodologia"
SEED_NAMES = ("metodologia-projecao.txt", "metodologia-debates-e-checagens.txt")
MIN_WORDS = 12
INTERNAL_PREFIXES = ("/metodologia/", "/projecao/", "/debates/", "/checagens/")

PAGE_FILES = (
    "projecao.md",
    "debates.md",
    "checagens.md",
    "vereditos.md",
    "correcoes-e-imparcialidade.md",
    "historico-do-metodo.md",
)


@dataclass(frozen=True)
class Page:
    name: str
    meta: dict[str, Any]
    body: str


def _seeds_dir() -> Path:
    """The methodology seeds (missing seeds fail the test, see `_project_seeds_dir`)."""
    return _project_seeds_dir()


def _parse(path: Path) -> Page:
    text = path.read_text(encoding="utf-8")
    match = re.match(r"\A\+\+\+\n(.*?)\n\+\+\+\n(.*)\Z", text, flags=re.DOTALL)
    assert match is not None, f"{path.name}: front matter must be delimited by '+++' lines"
    meta = tomllib.loads(match.group(1))
    return Page(name=path.name, meta=meta, body=match.group(2))


def _page(name: str) -> Page:
    return _parse(PAGES_DIR / name)


def _all_pages() -> list[Page]:
    return [_parse(path) for path in sorted(PAGES_DIR.glob("*.md"))]


def _words(text: str) -> list[str]:
    """Lower-cased word tokens, ignoring punctuation and Markdown markup."""
    normalized = unicodedata.normalize("NFC", text).lower()
    return re.findall(r"\w+", normalized)


def _seed_sentences(text: str) -> list[str]:
    return [part for part in re.split(r"[.!?\n]+", text) if part.strip()]


def _prose_length(words: list[str]) -> int:
    """Words that carry letters; table rows of figures are data to carry over, not prose."""
    return sum(1 for word in words if re.search(r"[^\W\d_]", word))


# ---------------------------------------------------------------- structure


def test_all_expected_pages_exist() -> None:
    present = {path.name for path in PAGES_DIR.glob("*.md")}
    missing = set(PAGE_FILES) - present
    assert not missing, f"missing methodology pages: {sorted(missing)}"


@pytest.mark.parametrize("name", PAGE_FILES)
def test_front_matter(name: str) -> None:
    page = _page(name)
    assert set(page.meta) == {"titulo", "descricao", "ordem", "atualizado_em"}
    assert isinstance(page.meta["atualizado_em"], dt.date)
    assert page.meta["atualizado_em"] <= dt.datetime.now(dt.UTC).date()
    titulo = page.meta["titulo"]
    descricao = page.meta["descricao"]
    ordem = page.meta["ordem"]
    assert isinstance(titulo, str)
    assert titulo.strip()
    assert isinstance(descricao, str)
    assert descricao.strip()
    assert "\n" not in descricao
    # one sentence: a single final full stop, no inner sentence break
    assert re.search(r"[.!?]\s+[A-ZÀ-Ú]", descricao) is None, descricao
    assert isinstance(ordem, int)
    assert not isinstance(ordem, bool)
    assert ordem >= 1


def test_ordem_is_unique() -> None:
    orders = [page.meta["ordem"] for page in _all_pages()]
    assert len(orders) == len(set(orders))


@pytest.mark.parametrize("name", PAGE_FILES)
def test_no_html_and_no_h1(name: str) -> None:
    body = _page(name).body
    assert re.search(r"<[A-Za-z!/]", body) is None, "raw HTML is escaped; do not use it"
    in_fence = False
    for line in body.splitlines():
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if not in_fence:
            assert not re.match(r"#\s", line), f"single '#' heading: {line!r}"


@pytest.mark.parametrize("name", PAGE_FILES)
def test_links_are_internal_and_well_formed(name: str) -> None:
    body = _page(name).body
    slugs = {f"/metodologia/{path.stem}/" for path in PAGES_DIR.glob("*.md")}
    for target in re.findall(r"\]\(([^)]*)\)", body):
        assert target.startswith(INTERNAL_PREFIXES), f"unexpected link target {target!r}"
        assert target.endswith("/"), target
        if target.startswith("/metodologia/"):
            assert target in slugs, f"link to a page that does not exist: {target}"


@pytest.mark.parametrize("name", PAGE_FILES)
def test_tables_are_rectangular(name: str) -> None:
    rows: list[int] = []
    for line in [*_page(name).body.splitlines(), ""]:
        if line.startswith("|"):
            rows.append(line.strip().strip("|").count("|") + 1)
        elif rows:
            assert len(set(rows)) == 1, f"table with uneven columns: {rows}"
            rows = []


# ---------------------------------------------------------------- content

EXPECTED: dict[str, tuple[str, ...]] = {
    "projecao.md": (
        # independence and sources
        "não é o resultado oficial",
        "independente",
        "Pesquisas eleitorais",
        "boca de urna",
        "`model/`",
        # strata
        "27 unidades da federação",
        "exterior",
        "| 28 |",
        "| 22 |",
        "| 62 |",
        "| 78 |",
        "| 167 |",
        "| 139 |",
        "| 19 |",
        "zonas eleitorais",
        # steps
        "eleitorado ainda não totalizado × (votos válidos ÷ eleitorado já totalizado, na mesma parte)",
        "brancos e nulos",
        "1º turno de 2026",
        "swing",
        "logit",
        "A + B = 100%",
        "Passo 4b",
        "deriva das urnas tardias",
        "a cada 5 pontos",
        "interpolada",
        "de 1,3 para 0,2 ponto",
        "de 20% a 60% apurado",
        "`sem_correcao`",
        "`correcao_pp`",
        "duas vezes a faixa",
        '"Tendência"',
        '"indefinido"',
        '"Definido matematicamente"',
        "2,7 pontos",
        "0,8 ponto",
        "capital e o interior",
        # what it does not do
        "chance de vitória",
        "duas vezes mais ampla",
        "5.700 arquivos",
        "transferência de votos",
        "Não anuncia quem ganhou",
        # band table: its values are the calibration file's (tests/test_metodologia_calibracao.py)
        "| Eleitorado apurado | Presidente (com correção da deriva): faixa |",
        "| 10-20% |",
        "| acima de 98% |",
        "provisória",
        "ordem real de chegada",
        "modo degradado",
        "`docs/BACKTEST.md`",
        "cujo texto não foi publicado nem está neste repositório",
        "| Governador do Rio de Janeiro | municípios do estado | 92 |",
        "75% do próprio tamanho da correção",
        "entre 80% e 104%",
        "entre 25% e 175%",
        "69%",
        "±2,3",
        "±1,4 ponto com 50-60%",
        "`presidente_sem_correcao`",
        "`erro_medio_esperado.projecao`",
        "`erro_medio_esperado.parcial`",
        "metade da faixa",
        "errou em média, nos testes, ±X ponto",
        "4,4 pontos com 10-20%",
        "90% dos instantes",
        "38 disputas",
        "12 disputas reais de 2º turno",
        "26 simulações",
        "6 disputas de governador",
        "81% (AM) a 100%",
        "25/10",
        "congelada",
        # confidence labels
        "| menos de 25% (< 25%) | baixa |",
        "| de 25% a 70% (25-70%) | média |",
        "| mais de 70% (> 70%) | alta |",
        # publication criteria
        "`criterios_nao_atendidos`",
        "totalizado ≤ eleitorado",
        "| ≥ 10% | ≥ 20% |",
        "| ≥ 50% das 28 | ≥ 50% dos municípios/zonas |",
        "| 0% | ≤ 2% |",
        "| ≤ 5% | ≤ 5% |",
        "leitura preservada",
        "100% das seções",
        "≤ 5 min do arquivo mais antigo ao mais recente",
        "≤ 5 min entre o arquivo da UF e cada município/zona",
        "≤ 5 min (vale o mais antigo entre os arquivos das UFs)",
        "≤ 5 min (vale o arquivo da UF)",
        # sources and audit
        "https://resultados.tse.jus.br/oficial/ele2026/6258/dados/{uf}/{uf}-c0001-e006258-u.json",
        "https://resultados.tse.jus.br/oficial/ele2026/6260/dados/{uf}/{uf}{municipio}-c0003-e006260-u.json",
        "https://resultados.tse.jus.br/oficial/ele2026/6260/dados/df/df97012-z{zona}-c0003-e006260-u.json",
        "6257 e 6259",
        "`model/baselines/`",
        "cdn.tse.jus.br/estatistica/sead/eleicoes/eleicoes2022/buweb/",
        "`modelo.versao`",
        "`modelo.calibracao`",
        "`forecast`",
        "`criterios`",
        "`estratos`",
        "`python -m model.cli projetar PASTA`",
        "3.1.0",
        "bt2022h26-v31-2026-10-24",
        "25/10/2026",
        "`model/calibracao.json`",
        "09472377c7a0d3cc5abd2c6058f35b6a03ab45e2419c618007c4c446209b2593",
        "SHA-256",
    ),
    "debates.md": (
        "são automáticas e podem ter erros",
        "análise por regras, sem inteligência artificial",
        "fontes",
        "candidato, mediador, jornalista ou eleitor",
        "nunca recebe nota",
        "1 ou 2 minutos",
        "respostas diretas, substância, clareza e respeito",
        "números, datas, comparações e fatos",
        "de 0 a 100",
        "seis métricas",
        "pesos das demais são recalculados",
        "| Veracidade | 35 |",
        "| Respostas diretas | 30 |",
        "| Substância | 10 |",
        "| Propostas | 10 |",
        "| Clareza | 10 |",
        "| Respeito | 5 |",
        "entre 5 s e 180 s",
        "20 s fictícios com nota 50",
        "20 segundos fictícios valendo 50 (100 no caso do respeito)",
        "w = min(max(duração, 5), 180)",
        "s = 100 × (partes respondidas ÷ partes da pergunta) × (1 − evasão ÷ 10)",
        "(Σ w·s + 20 × 50) ÷ (Σ w + 20)",
        "s = 10 × nota",
        "(Σ w·s + 20 × 100) ÷ (Σ w + 20)",
        "100 × (Σ c·k·v + 3 × 0,5) ÷ (Σ c·k + 3)",
        "35 × n ÷ (n + 3)",
        "| Verdadeiro | 1 | 1 checagem |",
        "| Impreciso | 0,75 | 1 checagem |",
        "| Enganoso | 0 | 1,5 checagem |",
        "| Falso | 0 | 2 checagens |",
        "| alta | 1 |",
        "| baixa | 0,5 |",
        "3 checagens fictícias com nota 50",
        "aparece com 50",
        "25 pontos por item",
        "(Σ notas das propostas + 2 × 50) ÷ (m + 2)",
        "10 × m ÷ (m + 2)",
        "sem punição",
        "Σ (peso × métrica) ÷ Σ peso",
        "pelo menos 3 turnos avaliados",
        "3 pontos",
        "diferença < max(3, 10/√n)",
        "não conta para a nota",
        "réplicas e tréplicas",
        "candidato, o senhor tem 2 minutos",
        "provocação feita pelo adversário",
        "direito de resposta",
        "considerações finais",
        "segurança e sobre maioridade penal",
        "| 0 a 2 |",
        "| 3 a 5 |",
        "| 6 a 8 |",
        "| 9 e 10 |",
        "contra-ataque",
        "adiamento",
        "troca de tema",
        "generalidade",
        '"vou cuidar da saúde"',
        '| O quê | "prontuário único no SUS" | "vou cuidar da saúde" |',
        '| Quanto ou meta | "meio milhão de vagas" | "mais vagas" |',
        '| Como (ou de onde vem o dinheiro) | "usando o espaço de R$ 200 bi" | "tem dinheiro" |',
        '| Prazo | "até 2028" | sem prazo |',
        "2 propostas fictícias de nota 50",
        "disfarçado de proposta",
        "Afirmações compostas",
        "leva a veredito impreciso",
        '"sem dados"',
        "vereditos contraditórios",
        "Falso ou enganoso que não tenha fonte",
        'selo "revisado"',
        "remete à checagem original",
        "vale a versão deixada por ele",
        "contado de novo a cada repetição",
        "baixa confiança pesa menos",
    ),
    "checagens.md": (
        "decide e aprova cada checagem publicada",
        "Captura",
        "cópia arquivada",
        "transcrição do vídeo",
        "edite ou apague",
        "Extração e triagem",
        "checabilidade",
        "dano potencial",
        "Memória de checagens",
        "mais uma ocorrência",
        "rascunho",
        "nunca vai ao ar sozinho",
        "duas etapas",
        "sempre outra pessoa",
        "Cada etapa fica registrada",
        "ClaimReview",
        "schema.org",
        "| Checabilidade |",
        "| Alcance |",
        "| Dano potencial |",
        "saúde, à segurança ou ao processo eleitoral",
        "opiniões, promessas nem previsões",
        "quem decide o que sai é a redação",
    ),
    "vereditos.md": (
        "| Verdadeiro |",
        "| 5 de 5 |",
        "| Impreciso |",
        "| 4 de 5 |",
        "| Enganoso |",
        "| 2 de 5 |",
        "| Falso |",
        "| 1 de 5 |",
        "| Sem dados |",
        "| 3 de 5 |",
        "Sem dados suficientes",
        "ponto do meio",
        "de 1 a 5",
        "ClaimReview",
        "0,75",
        "1,5 checagem",
        "2 checagens",
    ),
    "correcoes-e-imparcialidade.md": (
        "Política de correções",
        "correção pública",
        "data e explicação",
        "última atualização",
        "recalculada imediatamente",
        "contestação",
        "acompanhada de fonte",
        "mesmos critérios, pela mesma rubrica e com os mesmos pesos",
        "As cores servem apenas para identificar",
        "mesma triagem, pela mesma escala de vereditos e pelo mesmo processo de revisão",
        "não é placar nem nota",
        "alcance e pelo dano potencial",
        "Compromisso com as fontes",
        "sempre públicas",
        "em vez de arriscar um veredito",
    ),
    "historico-do-metodo.md": (
        "v1",
        "Band",
        "18 de outubro de 2026",
        "pedaço de fala",
        "cinco métricas",
        "| Veracidade | 40 | 35 |",
        "| Respostas diretas | 25 | 30 |",
        "| Substância | 20 | 10 |",
        "| Clareza | 10 | 10 |",
        "| Respeito | 5 | 5 |",
        "| Propostas | não existia | 10 |",
        "não eram revisadas",
        "duas leituras",
        "Uma nota para a resposta inteira",
        "A pergunta certa",
        "candidato, o senhor tem 2 minutos",
        "considerações finais",
        "| 0 a 2 |",
        "| 3 a 5 |",
        "| 6 a 8 |",
        "| 9 e 10 |",
        "contra-ataque, adiamento, troca de tema ou generalidade",
        "de 0 a 4",
        "o que será feito, o número ou a meta, o meio (ou a origem do dinheiro) e o prazo",
        "sem número e sem prazo",
        "afirmações irmãs",
        '"sem dados"',
        'selo "revisado"',
    ),
}

EXPECTED_CASES = [(name, text) for name, texts in EXPECTED.items() for text in texts]


def test_expected_covers_every_page() -> None:
    assert set(EXPECTED) == set(PAGE_FILES)


@pytest.mark.parametrize(("name", "expected"), EXPECTED_CASES)
def test_page_carries_seed_fact(name: str, expected: str) -> None:
    assert expected in _page(name).body, f"{name} must say {expected!r}"


def test_projection_disclaimer_is_near_the_top() -> None:
    body = _page("projecao.md").body
    assert body.index("não é o resultado oficial") < 400


def test_debate_ai_warning_is_near_the_top() -> None:
    """The warning comes first, and says what produces the scores by default (rules, not AI)."""
    body = _page("debates.md").body
    assert body.index("são automáticas e podem ter erros") < 400
    assert body.index("sem inteligência artificial") < 400


@pytest.mark.parametrize("name", PAGE_FILES)
def test_decimal_commas(name: str) -> None:
    """Numbers use decimal commas; dots only inside code, versions, paths and thousands."""
    body = _page(name).body
    prose = re.sub(r"```.*?```", "", body, flags=re.DOTALL)
    prose = re.sub(r"`[^`]*`", "", prose)
    prose = prose.replace("3.1.0", "")
    prose = re.sub(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?![\d.,])", "", prose)  # thousands: 5.700, 26.400
    assert re.search(r"\d\.\d", prose) is None


# ---------------------------------------------------------------- no copied sentence


def test_no_seed_sentence_copied() -> None:
    seeds_dir = _seeds_dir()
    pages_words = " ".join(" ".join(_words(page.body)) for page in _all_pages())
    pages_text = f" {pages_words} "
    copied: list[str] = []
    for seed_name in SEED_NAMES:
        seed_text = (seeds_dir / seed_name).read_text(encoding="utf-8")
        for sentence in _seed_sentences(seed_text):
            words = _words(sentence)
            if _prose_length(words) >= MIN_WORDS and f" {' '.join(words)} " in pages_text:
                copied.append(" ".join(words))
    assert not copied, "seed sentences copied verbatim:\n" + "\n".join(copied)


# Issue 23, point 11: no run of this many consecutive words shared with the seeds, anywhere a reader
# or editor reads the project's words (templates, content, the builder's and the analysis' strings).
MAX_SHARED_RUN = 14
OVERLAP_TEXT_DIRS = ("templates", "content")
OVERLAP_CODE_DIRS = ("site_builder", "jobs/analise")
_JINJA = re.compile(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", re.DOTALL)
_URL = re.compile(r"https?://\S+")


def _project_seeds_dir() -> Path:
    """The seeds beside the repository (`../shared/seeds/` from its root; for a git worktree, from the
    main checkout's root), or ELEICOES_SEEDS_DIR. Missing seeds fail the test: no silent skip."""
    roots = [ROOT]
    git = ROOT / ".git"
    if git.is_file():  # a worktree: "gitdir: <main>/.git/worktrees/<name>"
        gitdir = Path(git.read_text(encoding="utf-8").split(":", 1)[1].strip())
        roots.append(gitdir.parents[2])
    candidates = [Path(os.environ["ELEICOES_SEEDS_DIR"])] if "ELEICOES_SEEDS_DIR" in os.environ else []
    candidates += [pasta_compartilhada(root) / "seeds" for root in roots]
    for candidate in candidates:
        if all((candidate / name).is_file() for name in SEED_NAMES):
            return candidate
    pytest.fail(f"sementes da metodologia não encontradas (procuradas em {[str(c) for c in candidates]})")


def _reader_strings(source: str) -> list[str]:
    """The string literals of a module that can reach a reader: docstrings (English, for developers)
    are left out; an f-string's placeholders break its text into separate runs."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    texts = []
    in_fstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                in_fstrings.add(id(value))
                text = value.value if isinstance(value, ast.Constant) else None
                parts.append(text if isinstance(text, str) else " | ")
            texts.append("".join(parts))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and id(node) not in in_fstrings
        ):
            texts.append(node.value)
    return texts


def _project_texts() -> list[tuple[str, str]]:
    """(file, text) of everything to compare with the seeds; template markup and addresses removed."""
    out = []
    for folder in OVERLAP_TEXT_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or path.suffix not in (".md", ".toml", ".html", ".xml", ".txt"):
                continue
            text = path.read_text(encoding="utf-8")
            if path.suffix in (".html", ".xml"):
                text = re.sub(r"<[^>]+>", " ", _JINJA.sub(" | ", text))
            out.append((path.relative_to(ROOT).as_posix(), _URL.sub(" | ", text)))
    for folder in OVERLAP_CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            out += [(rel, _URL.sub(" | ", t)) for t in _reader_strings(path.read_text(encoding="utf-8"))]
    return out


def shared_runs(text: str, seed_ngrams: set[tuple[str, ...]], n: int = MAX_SHARED_RUN) -> list[str]:
    """Every maximal run of `n` or more consecutive words of `text` that also occurs in the seeds."""
    words = _words(text)
    runs: list[list[int]] = []
    for i in range(len(words) - n + 1):
        if tuple(words[i : i + n]) in seed_ngrams:
            if runs and i <= runs[-1][1]:
                runs[-1][1] = i + n
            else:
                runs.append([i, i + n])
    return [" ".join(words[a:b]) for a, b in runs]


def _seed_ngrams(n: int = MAX_SHARED_RUN) -> set[tuple[str, ...]]:
    seeds = _project_seeds_dir()
    grams: set[tuple[str, ...]] = set()
    for name in SEED_NAMES:
        words = _words((seeds / name).read_text(encoding="utf-8"))
        grams.update(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
    return grams


def test_no_run_of_seed_words_in_the_projects_texts() -> None:
    grams = _seed_ngrams()
    found = [f"{rel}: {run}" for rel, text in _project_texts() for run in shared_runs(text, grams)]
    assert not found, f"trechos de {MAX_SHARED_RUN}+ palavras iguais às sementes:\n" + "\n".join(found)


def test_shared_run_finder_catches_a_copied_sentence() -> None:
    """The finder itself can fail: a seed sentence pasted into a template, with other case,
    punctuation and markup, is found; 13 words of it are not."""
    grams = _seed_ngrams()
    copied = (
        "<p>Ela NÃO é um placar, nem uma nota: porque a seleção do que checar depende de alcance e dano.</p>"
    )
    assert shared_runs(re.sub(r"<[^>]+>", " ", copied), grams)
    assert not shared_runs("nunca " + " ".join(_words(copied)[4:17]) + " jamais", grams)
    assert len(_project_texts()) > 100  # templates, content and code strings are all read


def test_sentence_splitter_finds_long_seed_sentences() -> None:
    seeds_dir = _seeds_dir()
    long_sentences = [
        sentence
        for name in SEED_NAMES
        for sentence in _seed_sentences((seeds_dir / name).read_text(encoding="utf-8"))
        if _prose_length(_words(sentence)) >= MIN_WORDS
    ]
    assert len(long_sentences) > 100


def test_president_by_municipality_is_not_called_calibrated() -> None:
    """Issue 14: the municipal president mode borrows the UF band until it is calibrated on the
    same nights; the page says so instead of calling it calibrated."""
    text = " ".join((PAGES_DIR / "projecao.md").read_text(encoding="utf-8").split())
    start = text.index("não faz a conta do presidente município a município")
    item = text[start : text.index("\n", start) if "\n" in text[start:] else start + 700]
    assert "ainda não foi calibrada" in item
    assert "pronta e calibrada" not in text and "implementada e calibrada" not in text
