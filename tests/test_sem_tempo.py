"""No test asserts on wall-clock time: a loaded machine makes any such limit flaky. Tests bound work
(bytes read, requests made); timing figures belong in benchmarks/ (docs/PERFORMANCE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time", "time_ns", "process_time"}


def _is_clock(node: ast.AST) -> bool:
    """`time.monotonic()` and the like, or `monotonic()` imported by name."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr in CLOCKS and isinstance(func.value, ast.Name) and func.value.id == "time"
    return isinstance(func, ast.Name) and func.id in CLOCKS - {"time"}


NUMERIC = {"abs", "round", "int", "float", "min", "max", "sum"}  # they pass a duration through


def _timed(node: ast.AST, names: set[str], functions: set[str]) -> bool:
    """Whether the value of `node` is a clock reading or derived from one (through a name holding
    one, a function returning one or arithmetic). A reading passed as an argument to another call
    (a deadline handed to the code under test) does not make that call's result a duration."""
    if _is_clock(node) or (isinstance(node, ast.Name) and node.id in names):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id in functions:
            return True
        if not (isinstance(func, ast.Name) and func.id in NUMERIC):
            return False
    return any(_timed(child, names, functions) for child in ast.iter_child_nodes(node))


def _targets(node: ast.AST) -> list[str]:
    """Names bound by an assignment target (`a`, `a, b`, `*a`); not `obj` in `obj.attr = ...`."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Tuple | ast.List):
        return [name for item in node.elts for name in _targets(item)]
    if isinstance(node, ast.Starred):
        return _targets(node.value)
    return []


def timed_asserts(source: str, filename: str = "<teste>") -> list[str]:
    """`file:line` of every assert that compares something measured with a clock."""
    tree = ast.parse(source, filename)
    scopes = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    names: dict[ast.AST, set[str]] = {scope: set() for scope in [tree, *scopes]}
    functions: set[str] = set()
    changed = True
    while changed:  # to a fixed point: readings flow through assignments and return values
        changed = False
        for scope, tainted in names.items():
            for node in ast.walk(scope):
                value: ast.AST | None = None
                targets: list[str] = []
                if isinstance(node, ast.Assign):
                    value, targets = node.value, [t for target in node.targets for t in _targets(target)]
                elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
                    value, targets = node.value, _targets(node.target)
                if value is not None and _timed(value, tainted, functions) and not set(targets) <= tainted:
                    tainted.update(targets)
                    changed = True
                if (
                    isinstance(node, ast.Return)
                    and node.value is not None
                    and isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef)
                    and scope.name not in functions
                    and _timed(node.value, tainted, functions)
                ):
                    functions.add(scope.name)
                    changed = True
    found = set()
    for scope, tainted in names.items():
        for node in ast.walk(scope):
            if isinstance(node, ast.Assert) and _timed(node.test, tainted, functions):
                found.add(f"{filename}:{node.lineno}")
    return sorted(found)


def test_no_test_asserts_on_elapsed_time() -> None:
    found = [
        hit
        for path in sorted(TESTS.rglob("*.py"))
        if "fixtures" not in path.parts
        for hit in timed_asserts(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS.parent)))
    ]
    assert found == [], "asserts sobre tempo de relógio (mova para benchmarks/):\n" + "\n".join(found)


def test_the_scan_finds_a_timed_assert_in_every_shape() -> None:
    shapes = {
        "direct": "import time\ndef test():\n    t0 = time.perf_counter()\n    work()\n"
        "    assert time.perf_counter() - t0 < 30\n",
        "through a name": "import time\ndef test():\n    inicio = time.monotonic()\n    work()\n"
        "    duracao = time.monotonic() - inicio\n    assert duracao < 30, duracao\n",
        "through a helper": "import time\ndef run():\n    t0 = time.time()\n    work()\n"
        "    return 1, time.time() - t0\ndef test():\n    files, elapsed = run()\n    assert elapsed < 60\n",
        "imported by name": "from time import monotonic\ndef test():\n    t = monotonic()\n"
        "    assert 0.25 < monotonic() - t < 5\n",
        "rounded": "import time\ndef test():\n    t0 = time.perf_counter()\n"
        "    assert round(time.perf_counter() - t0) <= 2\n",
    }
    for name, source in shapes.items():
        assert timed_asserts(source) != [], name
    bounded_wait = (
        "import time\ndef until(p):\n    deadline = time.monotonic() + 60\n    while not p():\n"
        "        if time.monotonic() > deadline:\n            raise AssertionError('x')\n"
        "def test():\n    until(lambda: True)\n    assert work() == 3\n"
    )
    assert timed_asserts(bounded_wait) == []  # a generous limit on a wait is not a timed assertion
    deadline_argument = (
        "import time\ndef test():\n    far = time.monotonic() + 3600\n    c.prazo = time.monotonic()\n"
        "    assert read(data, far) == b'{}' and c.get() is None\n"
    )
    assert timed_asserts(deadline_argument) == []  # a deadline handed to the code is not measured
