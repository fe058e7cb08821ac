"""Test-suite benchmark: `make test` (ruff, mypy, pytest) in a fresh clone, alone or under load.

Clones the given commit into a temporary folder (beside a link to the checkout's `../shared`, the
spec and datasets the tests read) and runs the README's test command there, as CI does on a clean
machine, timing the whole command and reading pytest's own summary line:

    python benchmarks/suite_bench.py [--commit HEAD]          # one clone, this venv's tools
    python benchmarks/suite_bench.py --carga                  # two clones at once plus a CPU hog
    python benchmarks/suite_bench.py --ci [--carga]           # `bash .ci/run` (creates each venv)

Without `--ci` the clone uses the tools of this interpreter's venv as they are (`make test
BIN=...`: nothing is installed) and finds its own code first (PYTHONPATH). `--ci` runs `.ci/run`,
which creates a venv in each clone and installs the package there (pip needs its index).
`PYTEST_ADDOPTS` passes through (e.g. `--durations=0`, with `--logs DIR` to keep each output). The
figures and the load average (1 min) before and after go to docs/PERFORMANCE.md, one section per
mode ("Test suite: one clone", "Test suite: two clones and a CPU hog").
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import write_section  # noqa: E402

SECAO_SOZINHA = "Test suite: one clone"
SECAO_CARGA = "Test suite: two clones and a CPU hog"
IDLE_TARGET_S = 300.0

# pytest's last line: "2203 passed, 2 skipped in 712.34s (0:11:52)" (with -q, or between "=" rules).
_RESUMO = re.compile(r"^=*\s*((?:\d+ [a-z]+(?:, )?)+) in ([\d.]+)s\b.*$", re.MULTILINE)
_CONTAGEM = re.compile(r"(\d+) ([a-z]+)")
_FALHA = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


@dataclass(frozen=True)
class ResumoPytest:
    """What pytest's summary line says: counts per outcome and its own wall time."""

    contagens: dict[str, int]
    segundos: float
    falhas: tuple[str, ...]  # node ids of FAILED / ERROR lines of the short summary

    def texto(self) -> str:
        """`2203 passed, 2 skipped` (outcomes in pytest's order)."""
        return ", ".join(f"{n} {nome}" for nome, n in self.contagens.items())


def resumo_pytest(saida: str) -> ResumoPytest | None:
    """The last pytest summary line of `saida` (None when pytest did not get that far)."""
    achados = list(_RESUMO.finditer(saida))
    if not achados:
        return None
    ultimo = achados[-1]
    contagens = {nome: int(n) for n, nome in _CONTAGEM.findall(ultimo.group(1))}
    return ResumoPytest(contagens, float(ultimo.group(2)), tuple(_FALHA.findall(saida)))


@dataclass(frozen=True)
class Execucao:
    """One `make test` (or `.ci/run`) in one clone."""

    comando: str
    segundos: float
    status: int
    pytest: ResumoPytest | None
    log: Path

    @property
    def verde(self) -> bool:
        """Exit status 0 and no failed or erroring test."""
        sem_falha = self.pytest is not None and not (
            self.pytest.contagens.get("failed") or self.pytest.contagens.get("error")
        )
        return self.status == 0 and sem_falha

    def resultado(self) -> str:
        """`green: 2203 passed, 2 skipped` or what went wrong, for the table."""
        if self.pytest is None:
            return f"RED: exit status {self.status}, pytest gave no summary (see the log)"
        if self.verde:
            return f"green: {self.pytest.texto()}"
        falhas = ", ".join(f"`{f}`" for f in self.pytest.falhas[:5])
        return f"RED (exit status {self.status}): {self.pytest.texto()}" + (f"; {falhas}" if falhas else "")


def clonar(commit: str, destino: Path) -> str:
    """A fresh clone of this repository at `commit`; its full hash."""
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(REPO), str(destino)], check=True)
    subprocess.run(["git", "-C", str(destino), "checkout", "-q", commit], check=True)
    feito = subprocess.run(
        ["git", "-C", str(destino), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    )
    return feito.stdout.strip()


def ao_lado(pasta: Path) -> None:
    """Link the shared spec and datasets (`../shared` of the checkout, which many tests read) beside
    the clones in `pasta`, where a clone's `REPO.parent / "shared"` looks for them."""
    compartilhada = (REPO.parent / "shared").resolve()
    if compartilhada.is_dir():
        (pasta / "shared").symlink_to(compartilhada, target_is_directory=True)


def comando_de_teste(ci: bool, bin_dir: Path) -> list[str]:
    """`bash .ci/run`, or `make test` with the given venv's tools (nothing installed)."""
    return ["bash", ".ci/run"] if ci else ["make", "test", f"BIN={bin_dir}"]


def rodar(clone: Path, comando: Sequence[str], log: Path) -> Execucao:
    """Run `comando` in `clone` (output to `log`), timed from start to exit."""
    env = {**os.environ, "CI": "true", "PYTHONPATH": str(clone)}  # PYTEST_ADDOPTS passes through
    inicio = time.monotonic()
    with log.open("w", encoding="utf-8") as saida:
        feito = subprocess.run(list(comando), cwd=clone, env=env, stdout=saida, stderr=subprocess.STDOUT)
    segundos = time.monotonic() - inicio
    texto = log.read_text(encoding="utf-8", errors="replace")
    return Execucao(" ".join(comando), segundos, feito.returncode, resumo_pytest(texto), log)


def _ocupar() -> None:  # runs in a child process
    while True:
        pass


@contextlib.contextmanager
def cpu_ocupada(processos: int) -> Iterator[None]:
    """`processos` busy loops (one core each) for the duration of the block."""
    filhos = [multiprocessing.Process(target=_ocupar, daemon=True) for _ in range(processos)]
    for filho in filhos:
        filho.start()
    try:
        yield
    finally:
        for filho in filhos:
            filho.terminate()
            filho.join()


def carga() -> float:
    """The 1-minute load average."""
    return os.getloadavg()[0]


def tabela(execucoes: Sequence[Execucao], commit: str, antes: float, depois: float) -> str:
    """The Markdown table of one benchmark run."""
    linhas = [
        "| clone | command | commit | load before → after | whole command | pytest | result |",
        "|---|---|---|---|---:|---:|---|",
    ]
    for i, e in enumerate(execucoes, start=1):
        pytest_s = f"{e.pytest.segundos:.1f} s" if e.pytest is not None else "—"
        linhas.append(
            f"| {i} | `{e.comando}` | {commit[:7]} | {antes:.1f} → {depois:.1f} | {e.segundos:.0f} s "
            f"| {pytest_s} | {e.resultado()} |"
        )
    return "\n".join(linhas)


def corpo(execucoes: Sequence[Execucao], commit: str, antes: float, depois: float, ocupacao: int) -> str:
    """The section's text: what ran, the table, and the target."""
    if len(execucoes) == 1:
        contexto = "One fresh clone, nothing else started by the benchmark."
    else:
        contexto = (
            f"{len(execucoes)} fresh clones at once, plus {ocupacao} CPU hog process(es) (a busy loop) "
            "for as long as they run."
        )
    alvo = ""
    if len(execucoes) == 1:
        e = execucoes[0]
        dentro = "within" if e.segundos <= IDLE_TARGET_S else "OVER"
        alvo = (
            f"\n\nTarget on an otherwise idle machine: ≤ {IDLE_TARGET_S:.0f} s "
            f"({dentro} it: {e.segundos:.0f} s)."
        )
    return (
        f"{contexto} 1-minute load average before and after: {antes:.1f} and {depois:.1f} "
        f"({os.cpu_count()} cores).\n\n{tabela(execucoes, commit, antes, depois)}{alvo}\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and record it; exit status 1 if any run was red."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--commit", default="HEAD", help="commit a testar (padrão: HEAD)")
    parser.add_argument(
        "--carga", action="store_true", help="dois clones ao mesmo tempo e um processo ocupando a CPU"
    )
    parser.add_argument(
        "--ocupar", type=int, default=1, help="processos ocupando a CPU com --carga (padrão: 1)"
    )
    parser.add_argument("--ci", action="store_true", help="rodar bash .ci/run (cria o venv em cada clone)")
    parser.add_argument("--nao-gravar", action="store_true", help="não escrever em docs/PERFORMANCE.md")
    parser.add_argument("--logs", type=Path, help="pasta onde guardar a saída de cada clone")
    args = parser.parse_args(argv)
    commit = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", args.commit], check=True, capture_output=True, text=True
    ).stdout.strip()
    clones = 2 if args.carga else 1
    ocupacao = args.ocupar if args.carga else 0
    with tempfile.TemporaryDirectory(prefix="suite-bench-") as tmp:
        ao_lado(Path(tmp))
        pastas = [Path(tmp) / f"clone-{i}" for i in range(1, clones + 1)]
        for pasta in pastas:
            clonar(commit, pasta)
        comando = comando_de_teste(args.ci, Path(sys.executable).parent)
        antes = carga()
        resultados: list[Execucao | None] = [None] * clones

        def um(i: int) -> None:
            resultados[i] = rodar(pastas[i], comando, Path(tmp) / f"clone-{i + 1}.log")

        with cpu_ocupada(ocupacao):
            linhas = [threading.Thread(target=um, args=(i,)) for i in range(clones)]
            for linha in linhas:
                linha.start()
            for linha in linhas:
                linha.join()
        depois = carga()
        execucoes = [r for r in resultados if r is not None]
        for e in execucoes:
            print(f"{e.comando}: {e.segundos:.1f} s, {e.resultado()}")
            if not e.verde:
                print(e.log.read_text(encoding="utf-8", errors="replace")[-4000:], file=sys.stderr)
        if args.logs is not None:
            args.logs.mkdir(parents=True, exist_ok=True)
            for e in execucoes:
                shutil.copy2(e.log, args.logs / e.log.name)
        texto = corpo(execucoes, commit, antes, depois, ocupacao)
        print(texto)
        if not args.nao_gravar:
            reproduzir = (
                "python benchmarks/suite_bench.py"
                + (" --ci" if args.ci else "")
                + (" --carga" if args.carga else "")
            )
            write_section(SECAO_CARGA if args.carga else SECAO_SOZINHA, reproduzir, texto)
    return 0 if all(e.verde for e in execucoes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
