# Two commands a newcomer needs: `make demo` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.instalado

.PHONY: demo test lint typecheck unit build bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/eleicoes demo

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q

build: $(STAMP)
	$(BIN)/eleicoes build --strict

bench: $(STAMP)
	$(BIN)/python benchmarks/build_bench.py

clean:
	rm -rf public .cache .pytest_cache .mypy_cache .ruff_cache
