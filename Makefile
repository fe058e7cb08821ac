# Two commands a newcomer needs: `make demo` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.instalado
# `make test BIN=/some/venv/bin` uses that venv's tools as they are and installs nothing
# (benchmarks/suite_bench.py runs a fresh clone's suite that way).
ifeq ($(origin BIN),command line)
STAMP :=
endif
# The suite in parallel, one worker per core (pytest-xdist); tests sharing a module-scoped
# fixture stay in one worker (groups set in tests/conftest.py). Rules for tests: tests/README.md.
# More workers than cores (-n 4 on 2) was no faster on a loaded machine and cost more CPU
# (docs/PERFORMANCE.md, "Test suite"); compare at idle with PYTEST_PARALELO=... suite_bench.py.
PYTEST_PARALELO ?= -n auto --dist loadgroup

.PHONY: demo test lint typecheck unit build bench clean

ifneq ($(STAMP),)
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)
endif

demo: $(STAMP)
	$(BIN)/eleicoes demo

# mypy and pytest side by side: mypy (a minute of one core on a fresh clone) fills the gaps the
# suite leaves while it waits on servers, browsers and subprocesses.
test: lint
	@$(MAKE) --no-print-directory -j2 typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# Bytecode written even where the environment turns it off (PYTHONDONTWRITEBYTECODE): without the
# .pyc files every xdist worker and every `eleicoes` subprocess of the tests compiles the project's
# modules again, and pytest rewrites the assertions of every test module again (docs/PERFORMANCE.md,
# "Test suite"). __pycache__/ is git-ignored.
unit: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q $(PYTEST_PARALELO)

build: $(STAMP)
	$(BIN)/eleicoes build --strict

bench: $(STAMP)
	$(BIN)/python benchmarks/build_bench.py

clean:
	rm -rf public .cache .pytest_cache .mypy_cache .ruff_cache
