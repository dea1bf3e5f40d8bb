# `make run` starts the platform on the embedded default (SQLite + a private Redis);
# `make test` runs the whole suite. Both create .venv/ on first use.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: run test bench lint typecheck clean

$(BIN)/.installed: requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

run: $(BIN)/.installed
	$(BIN)/python manage.py migrate --noinput
	PORT=$(PORT) $(BIN)/python manage.py runplatform

test: $(BIN)/.installed
	$(BIN)/python -m config.testrun

bench: $(BIN)/.installed
	$(BIN)/python -m bench.engine

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .hypothesis
