"""What lets the suite run in parallel (tests/README.md): xdist groups from module-scoped fixtures,
read-only folders built once per run, one chromium per worker with a fresh context per tab."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import LENTOS_PRIMEIRO, _grupos
from tests.support.navegador import CHROMIUM, Navegador
from tests.support.paginas import ServidorPaginas
from tests.support.uma_vez import pasta_compartilhada

pytest_plugins = ["pytester"]

MODULO = """
import pytest

@pytest.fixture(scope="module")
def site():
    return 1

@pytest.fixture(scope="module")
def noite(site):
    return 2

@pytest.fixture(scope="module")
def outro():
    return 3

@pytest.fixture
def barato():
    return 4

def test_a(site): pass
def test_b(noite): pass
def test_c(outro): pass
def test_d(barato): pass
def test_e(): pass
"""


def test_tests_sharing_a_module_fixture_get_one_group(pytester: pytest.Pytester) -> None:
    items = pytester.getitems(MODULO)
    grupos = {item.name: grupo for item in items if (grupo := _grupos(items).get(item.nodeid))}
    # test_b's `noite` depends on `site`: both are in test_a's group; `outro` makes its own.
    assert set(grupos) == {"test_a", "test_b", "test_c"}
    assert grupos["test_a"] == grupos["test_b"] != grupos["test_c"]
    assert all(g.startswith(items[0].nodeid.split("::")[0] + "::") for g in grupos.values())


def test_the_slow_modules_listed_exist() -> None:
    tests = Path(__file__).resolve().parent
    assert [m for m in LENTOS_PRIMEIRO if not (tests.parent / m).is_file()] == []


class _Fabrica:
    """The part of pytest's TempPathFactory that pasta_compartilhada uses."""

    def __init__(self, base: Path) -> None:
        self.base = base

    def getbasetemp(self) -> Path:
        return self.base


def test_a_shared_folder_is_built_once_and_shared_by_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    construcoes: list[Path] = []

    def construir(pasta: Path) -> None:
        construcoes.append(pasta)
        (pasta / "feito.txt").write_text("1", encoding="utf-8")

    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    primeira = pasta_compartilhada(_Fabrica(tmp_path / "popen-gw0"), "site", construir)  # type: ignore[arg-type]
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    segunda = pasta_compartilhada(_Fabrica(tmp_path / "popen-gw1"), "site", construir)  # type: ignore[arg-type]
    assert primeira == segunda == tmp_path / "compartilhado-site"
    assert construcoes == [primeira] and (primeira / "feito.txt").is_file()


def test_a_build_that_failed_is_started_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)

    def falhar(pasta: Path) -> None:
        (pasta / "metade.txt").write_text("x", encoding="utf-8")
        raise RuntimeError("falhou no meio")

    with pytest.raises(RuntimeError):
        pasta_compartilhada(_Fabrica(tmp_path), "site", falhar)  # type: ignore[arg-type]
    pasta = pasta_compartilhada(_Fabrica(tmp_path), "site", lambda p: (p / "ok.txt").touch())  # type: ignore[arg-type]
    assert sorted(p.name for p in pasta.iterdir()) == ["ok.txt"]  # the half-built folder was dropped


@pytest.mark.skipif(CHROMIUM is None, reason="chromium (pacote Debian) não está instalado")
def test_the_shared_browser_gives_each_tab_a_fresh_context() -> None:
    with ServidorPaginas() as servidor:
        url = servidor.rota("/p", "<!doctype html><title>p</title><p>p</p>")
        with Navegador() as primeiro, primeiro.aba(url, 390, 844) as aba:
            aba.avaliar("localStorage.setItem('marca', '1'), document.cookie = 'marca=1', true")
            assert aba.avaliar("localStorage.getItem('marca')") == "1"
        with Navegador() as segundo, segundo.aba(url, 390, 844) as aba:
            assert segundo is primeiro  # one chromium for the process
            assert aba.avaliar("localStorage.getItem('marca')") is None
            assert aba.avaliar("document.cookie") == ""
