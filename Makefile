# `make run` starts the platform on the embedded default (SQLite + a private Redis), with
# the runtime packages only; `make test` runs the whole suite, with the test tools too.
# Both create .venv/ on first use.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: run test bench lint typecheck clean

# Debian and Ubuntu ship venv's pip bootstrap (ensurepip) apart: name the package to
# install instead of showing venv's long complaint.
$(BIN)/python:
	@out=$$($(PYTHON) -m venv $(VENV) 2>&1) || { \
	  rm -rf $(VENV); \
	  if printf '%s' "$$out" | grep -q ensurepip; then \
	    echo "python3-venv is missing: sudo apt-get install python$$($(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')-venv" >&2; \
	  else printf '%s\n' "$$out" >&2; fi; \
	  exit 1; }

# What `make run` needs.
$(BIN)/.installed-runtime: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

# And the test tools, for `make test`, `bench` and `lint`.
$(BIN)/.installed-dev: requirements-dev.txt $(BIN)/.installed-runtime
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

run: $(BIN)/.installed-runtime
	PORT=$(PORT) $(BIN)/python run.py

test: $(BIN)/.installed-dev
	$(BIN)/python -m config.testrun

bench: $(BIN)/.installed-dev
	$(BIN)/python -m bench.engine

lint: $(BIN)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .hypothesis
