# cosmodeck: `make run` plays, `make test` runs the whole suite (both set everything up first).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench install clean system-deps

# setup.py compiles every .pyx (the Cython fast paths) in place; a changed .pyx or .pxd rebuilds them.
$(BIN)/cosmodeck: pyproject.toml setup.py $(shell find src -name '*.pyx' -o -name '*.pxd')
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(BIN)/cosmodeck

install: $(BIN)/cosmodeck

run: install
	$(BIN)/cosmodeck serve

lint: install
	$(BIN)/ruff check src tests
	$(BIN)/mypy

system-deps:
	bash scripts/system-deps.sh

# Browser tests run after the rest, alone, so a loaded machine does not starve Chromium.
test: system-deps lint
	$(BIN)/pytest -n auto -q -m "not browser"
	$(BIN)/pytest -n 2 -q -m browser tests/web

bench: install
	$(BIN)/cosmodeck benchmark

clean:
	rm -rf $(VENV) build dist src/*.egg-info
