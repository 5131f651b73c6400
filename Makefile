# Two commands on a fresh machine:  `make demo`  and  `make test`  (see README.md).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# The course repository installs everything: dev (tests, linters) includes the notebooks and the
# instructor extras. A student copy (`grader release`) has no grader/instructor/: it installs
# only what students run, the lessons' notebooks and the grader's student side.
EXTRAS ?= $(if $(wildcard grader/instructor),dev,notebooks)

.PHONY: setup demo lab test test-fast lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $(STAMP)

setup: $(STAMP)

demo: setup  ## the embedded default: eager Celery + in-memory SQLite, no server needed
	$(PY) -m ticketflow_lab tour
	$(VENV)/bin/grader list

# Jupyter refuses to run as root unless told; a container or a lab VM often is root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

lab: setup  ## JupyterLab at the course root: lessons/, exercises/ and your answers in one tree
	$(VENV)/bin/jupyter lab --ServerApp.root_dir="$(CURDIR)" $(ALLOW_ROOT)

test-fast: setup  ## the quick subset: no slow tests (notebooks, release, sandbox e2e) and no services
	$(PY) -m pytest -m "not slow and not integration"

# The suite mostly waits (kernels, workers, wall limits), so it runs on TEST_JOBS pytest-xdist
# workers; tests sharing something a second worker would disturb are in one xdist_group, and
# the tests marked `alone` (busy loops on purpose) run afterwards, by themselves. Bytecode is
# written even where PYTHONDONTWRITEBYTECODE is set: a sandboxed run cannot write pytest's
# cache of rewritten plugin modules, so without one on disk every pytest-style probe run
# rewrites hypothesis again (about 1 s each).
TEST_JOBS ?= 2
TEST_ENV  := PYTHONDONTWRITEBYTECODE=

test: setup  ## the whole suite (integration tests skip, with the reason, if a service is unreachable)
	$(TEST_ENV) $(PY) -m pytest -n $(TEST_JOBS) --dist loadgroup -m "not alone" --durations=30; parallel=$$?; \
	$(TEST_ENV) $(PY) -m pytest -m alone; alone=$$?; \
	exit $$(( parallel ? parallel : alone ))

lint: setup  ## ruff (lint + format), mypy --strict, import-linter's layer contracts
	$(VENV)/bin/ruff check src grader tests benchmarks
	$(VENV)/bin/ruff format --check src grader tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

bench: setup  ## every performance target, measured (run on a quiet machine)
	$(PY) benchmarks/bench_effects.py
	$(PY) benchmarks/bench_check.py
	$(PY) benchmarks/bench_runner.py
	$(PY) benchmarks/bench_oracle.py
	$(PY) benchmarks/bench_rubric.py
	$(PY) benchmarks/bench_notebooks.py
	$(PY) benchmarks/bench_batch.py
	$(PY) benchmarks/bench_review.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
