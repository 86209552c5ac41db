# Two commands on a fresh machine: `make run` and `make test`. Both build .venv from nothing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==26.3
	$(BIN)/python -m pip install --quiet -e '.[dev,sim,web,ray,interop]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/slipstream serve

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/slipstream/engine src/slipstream/games

pytest: $(STAMP)
	$(BIN)/pytest -n 2 --timeout=900

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

golden: $(STAMP)
	$(BIN)/python scripts/make_golden.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
