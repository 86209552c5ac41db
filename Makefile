# Two commands on a fresh machine: `make run` and `make test`. Both build .venv from nothing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The compiled build (setup.py, src/slipstream/_native.py): rebuilt when a source it compiles changes.
NATIVE := src/slipstream/_native_build.json
NATIVE_SOURCES := setup.py src/slipstream/_native.py $(wildcard src/slipstream/engine/*.py src/slipstream/games/*/*.py)

.PHONY: run test lint typecheck pytest pytest-pure bench golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==26.3 setuptools==80.9.0
	$(BIN)/python -m pip install --quiet -e '.[dev,sim,web,ray,interop,rl]'
	touch $(STAMP)

$(NATIVE): $(NATIVE_SOURCES) | $(STAMP)
	$(BIN)/python setup.py --quiet build_ext --inplace

run: $(NATIVE)
	$(BIN)/slipstream serve

test: lint typecheck pytest pytest-pure

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts examples setup.py

typecheck: $(STAMP)
	$(BIN)/mypy --strict src examples

pytest: $(NATIVE)
	$(BIN)/pytest -n 2 --timeout=900

# The rules again on the pure-Python sources, the fallback for a stale build (src/slipstream/_native.py).
pytest-pure: $(STAMP)
	SLIPSTREAM_PURE=1 $(BIN)/pytest -n 2 --timeout=900 tests/conformance tests/games

bench: $(NATIVE)
	$(BIN)/python -m benchmarks.run

golden: $(NATIVE)
	$(BIN)/python scripts/make_golden.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build $(NATIVE)
	find src -name '*.so' -delete
