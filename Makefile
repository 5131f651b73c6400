# Two commands on a fresh machine:  `make demo`  and  `make test`  (see README.md).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP)

demo: setup  ## the embedded default: eager Celery + in-memory SQLite, no server needed
	$(PY) -m ticketflow_lab tour
	$(VENV)/bin/grader list

test: setup  ## the whole suite (integration tests skip, with the reason, if a service is unreachable)
	$(PY) -m pytest

lint: setup
	$(VENV)/bin/ruff check src grader tests benchmarks
	$(VENV)/bin/mypy

bench: setup
	$(PY) benchmarks/bench_effects.py
	$(PY) benchmarks/bench_check.py
	$(PY) benchmarks/bench_notebooks.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
