"""The parts import each other in one direction only (docs/ARCHITECTURE.md), with no circle.

Every module of `model/`, `site_builder/`, `jobs/` and the top-level modules (`scheduler.py`,
`demo.py`, the `eleicoes.py` dispatcher) is read with `ast`: imports at the top, inside
functions and under `if TYPE_CHECKING:`, plus `importlib.import_module("...")` with a literal name.
Nothing is imported to find out. Type-only imports (`if TYPE_CHECKING:`) count for the directions
(a type is a dependency) but not for circles (they never run).

An edge goes to the most specific project module an import names (`from a.b import c` is an edge
to `a.b.c` when that is a module, else to `a.b`), and to each package `__init__` Python runs on the
way, unless the importer is inside that package (its `__init__` already ran): an empty `__init__`
has no imports of its own, so it can never close a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[1]
PACOTES = ("model", "site_builder", "jobs")

# What each part may import (a part is the first component of a module name). Top-level entry
# modules other than the scheduler (the demo, the CLI dispatcher) may import any part.
PERMITIDO: dict[str, frozenset[str]] = {
    "model": frozenset({"model"}),  # standard library only: auditors run it alone
    "site_builder": frozenset({"site_builder"}),  # reads files: content/, data/, templates/
    "jobs": frozenset({"jobs", "model", "site_builder"}),
    "scheduler": frozenset({"scheduler", "jobs", "site_builder", "model"}),
}

# Imports allowed against the directions above, each with its reason. Empty: keep it so (the demo
# moved beside the scheduler, issue 13); test_known_exceptions_are_still_needed keeps it honest.
KNOWN_EXCEPTIONS: frozenset[tuple[str, str]] = frozenset()
_FUNCOES_DE_IMPORT = frozenset({"import_module", "_import", "__import__"})


@dataclass(frozen=True)
class Aresta:
    """One import: who imports what, where."""

    origem: str
    destino: str
    arquivo: str
    linha: int
    so_tipos: bool = False  # under `if TYPE_CHECKING:`: never executed
    pacote: bool = False  # a package __init__ run on the way to the module named

    def __str__(self) -> str:
        nota = ", só tipos" if self.so_tipos else ""
        return f"{self.origem} -> {self.destino} ({self.arquivo}:{self.linha}{nota})"


def modulos(raiz: Path = RAIZ) -> dict[str, Path]:
    """Every project module by dotted name (a package by its own name, from its `__init__.py`)."""
    encontrados: dict[str, Path] = {}
    for pacote in PACOTES:
        for caminho in sorted((raiz / pacote).rglob("*.py")):
            partes = caminho.relative_to(raiz).with_suffix("").parts
            if partes[-1] == "__init__":
                partes = partes[:-1]
            encontrados[".".join(partes)] = caminho
    for caminho in sorted(raiz.glob("*.py")):
        encontrados[caminho.stem] = caminho
    return encontrados


def _so_tipos(arvore: ast.AST) -> set[int]:
    """Ids of the nodes inside `if TYPE_CHECKING:` blocks."""
    dentro: set[int] = set()
    for no in ast.walk(arvore):
        if isinstance(no, ast.If) and _nome(no.test) == "TYPE_CHECKING":
            dentro |= {id(filho) for corpo in no.body for filho in ast.walk(corpo)}
    return dentro


def _nome(no: ast.expr) -> str:
    """`x` of `x` or of `a.x` ("" for anything else)."""
    return no.attr if isinstance(no, ast.Attribute) else no.id if isinstance(no, ast.Name) else ""


def _nomes_importados(
    arvore: ast.AST, modulo: str, pacote: bool
) -> Iterator[tuple[str, ast.stmt | ast.expr]]:
    """(dotted name, node) of everything a module imports, with `from x import y` as `x.y`."""
    for no in ast.walk(arvore):
        if isinstance(no, ast.Import):
            for alias in no.names:
                yield alias.name, no
        elif isinstance(no, ast.ImportFrom):
            base = no.module or ""
            if no.level:
                partes = modulo.split(".") if pacote else modulo.split(".")[:-1]
                partes = partes[: len(partes) - (no.level - 1)]
                base = ".".join([*partes, base] if base else partes)
            for alias in no.names:
                yield f"{base}.{alias.name}", no
        elif isinstance(no, ast.Call) and no.args:
            argumento = no.args[0]
            if (
                _nome(no.func) in _FUNCOES_DE_IMPORT
                and isinstance(argumento, ast.Constant)
                and isinstance(argumento.value, str)
            ):
                yield argumento.value, no


def arestas(raiz: Path = RAIZ) -> list[Aresta]:
    """Every import edge between project modules, once per importing line."""
    todos = modulos(raiz)
    saida: set[Aresta] = set()
    for modulo, caminho in todos.items():
        arvore = ast.parse(caminho.read_text(encoding="utf-8"), filename=str(caminho))
        tipos = _so_tipos(arvore)
        rel = caminho.relative_to(raiz).as_posix()
        for nome, no in _nomes_importados(arvore, modulo, caminho.name == "__init__.py"):
            partes = nome.split(".")
            # The most specific module named: `from a.b import c` names a.b.c or an attribute of a.b.
            candidatos = (".".join(partes[:n]) for n in range(len(partes), 0, -1))
            destino = next((c for c in candidatos if c in todos), None)
            if destino is None:
                continue  # not a project module (standard library, third party)
            alvos = [(destino, False)]
            # Packages whose __init__ runs on the way, except those the importer is already inside.
            for n in range(1, destino.count(".") + 1):
                ancestral = ".".join(destino.split(".")[:n])
                if ancestral in todos and not (modulo == ancestral or modulo.startswith(ancestral + ".")):
                    alvos.append((ancestral, True))
            tipo = id(no) in tipos
            saida |= {Aresta(modulo, a, rel, no.lineno, tipo, p) for a, p in alvos if a != modulo}
    return sorted(saida, key=lambda a: (a.origem, a.destino, a.linha))


def _parte(modulo: str) -> str:
    return modulo.split(".")[0]


def violacoes(todas: list[Aresta]) -> list[Aresta]:
    """Imports going a forbidden way (type-only ones included: a type is a dependency too)."""
    return [
        a
        for a in todas
        if not a.pacote
        and _parte(a.origem) in PERMITIDO
        and _parte(a.destino) not in PERMITIDO[_parte(a.origem)]
        and (a.origem, a.destino) not in KNOWN_EXCEPTIONS
    ]


def ciclos(todas: list[Aresta]) -> list[list[Aresta]]:
    """One circle of runtime imports through each strongly connected group of modules (Tarjan).
    Imports under `if TYPE_CHECKING:` are left out: they never run, so they cannot form a circle."""
    grafo: dict[str, dict[str, Aresta]] = {}
    for a in todas:
        if not a.so_tipos and (a.origem, a.destino) not in KNOWN_EXCEPTIONS:
            grafo.setdefault(a.origem, {}).setdefault(a.destino, a)
    indice: dict[str, int] = {}
    baixo: dict[str, int] = {}
    pilha: list[str] = []
    na_pilha: set[str] = set()
    grupos: list[set[str]] = []

    def visitar(v: str) -> None:
        indice[v] = baixo[v] = len(indice)
        pilha.append(v)
        na_pilha.add(v)
        for w in grafo.get(v, {}):
            if w not in indice:
                visitar(w)
                baixo[v] = min(baixo[v], baixo[w])
            elif w in na_pilha:
                baixo[v] = min(baixo[v], indice[w])
        if baixo[v] == indice[v]:
            grupo = set()
            while True:
                w = pilha.pop()
                na_pilha.discard(w)
                grupo.add(w)
                if w == v:
                    break
            if len(grupo) > 1:
                grupos.append(grupo)

    for v in sorted(grafo):
        if v not in indice:
            visitar(v)
    return [_circulo(grafo, grupo) for grupo in grupos]


def _circulo(grafo: dict[str, dict[str, Aresta]], grupo: set[str]) -> list[Aresta]:
    """A shortest circle through the group's first module (breadth-first inside the group)."""
    inicio = min(grupo)
    vindo_de: dict[str, Aresta] = {}
    fila = [inicio]
    for v in fila:
        for w, aresta in sorted(grafo.get(v, {}).items()):
            if w == inicio:
                caminho = [aresta]
                while caminho[0].origem != inicio:
                    caminho.insert(0, vindo_de[caminho[0].origem])
                return caminho
            if w in grupo and w not in vindo_de:
                vindo_de[w] = aresta
                fila.append(w)
    raise AssertionError(f"grupo sem circuito: {sorted(grupo)}")


def _relatorio(titulo: str, linhas: list[str]) -> str:
    return titulo + "\n  " + "\n  ".join(linhas)


# --------------------------------------------------------------------------- the checks


def test_no_import_circle() -> None:
    encontrados = ciclos(arestas())
    assert not encontrados, _relatorio(
        "circuitos de import (cada um: uma volta completa)",
        [" | ".join(str(a) for a in circulo) for circulo in encontrados],
    )


def test_imports_go_one_way() -> None:
    erradas = violacoes(arestas())
    assert not erradas, _relatorio(
        "imports na direção proibida (veja docs/ARCHITECTURE.md)", [str(a) for a in erradas]
    )


def test_known_exceptions_are_still_needed() -> None:
    existentes = {(a.origem, a.destino) for a in arestas()}
    sobrando = sorted(KNOWN_EXCEPTIONS - existentes)
    assert not sobrando, f"KNOWN_EXCEPTIONS lista imports que não existem mais; apague-os: {sobrando}"


def test_the_checks_catch_a_bad_import(tmp_path: Path) -> None:
    """A project with a forbidden direction and a circle (one of them inside functions, one through
    a package __init__) is reported; an empty __init__ and a type-only import close no circle."""
    arquivos = {
        "model/__init__.py": "",
        "model/calc.py": "def f():\n    from site_builder.pages import x\n",
        "site_builder/__init__.py": "",
        "site_builder/pages.py": "from site_builder import records\n",
        "site_builder/records.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from site_builder.pages import P\n"
        ),
        "jobs/__init__.py": "",
        "jobs/pub/__init__.py": "from jobs.pub.envio import enviar\n",
        "jobs/pub/envio.py": "import jobs.pub.alvos\n",
        "jobs/pub/alvos.py": "",
        "jobs/tse.py": "import importlib\ndef g():\n    importlib.import_module('jobs.ciclo')\n",
        "jobs/ciclo.py": "from jobs.pub import envio\nfrom jobs import tse\n",
        "scheduler.py": "",
    }
    for rel, texto in arquivos.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(texto, encoding="utf-8")
    todas = arestas(tmp_path)
    assert [str(a) for a in violacoes(todas)] == ["model.calc -> site_builder.pages (model/calc.py:2)"]
    circulos = [[(a.origem, a.destino) for a in c] for c in ciclos(todas)]
    assert circulos == [[("jobs.ciclo", "jobs.tse"), ("jobs.tse", "jobs.ciclo")]]
    # jobs.pub.envio -> jobs.pub.alvos does not pass through jobs.pub's __init__ (already running).
    assert ("jobs.pub.envio", "jobs.pub") not in {(a.origem, a.destino) for a in todas}
    assert ("jobs.ciclo", "jobs.pub") in {(a.origem, a.destino) for a in todas}
