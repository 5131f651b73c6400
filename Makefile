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

# JupyterLab's terminals are login shells, and a login shell resets PATH (/etc/profile): the
# course's commands (`grader check`, `python exercises/...`) would then miss the venv. So the
# lab's terminals run bash with LAB_RC, which reads what a login shell reads and then puts the
# venv first again. VIRTUAL_ENV is the server's, inherited by every terminal and kernel.
VENV_DIR := $(abspath $(VENV))
LAB_RC   := $(VENV_DIR)/lab-terminal.rc
ARGS     ?=

$(LAB_RC): Makefile $(STAMP)
	@printf '%s\n' \
	  '# Written by `make lab`: a JupyterLab terminal of this course. It reads what a login' \
	  '# shell reads, then puts the course venv ($$VIRTUAL_ENV) first on PATH.' \
	  '[ -r /etc/profile ] && . /etc/profile' \
	  'for f in ~/.bash_profile ~/.bash_login ~/.profile; do [ -r "$$f" ] && { . "$$f"; break; }; done' \
	  'if [ -n "$$VIRTUAL_ENV" ]; then PATH="$$VIRTUAL_ENV/bin:$$PATH"; export PATH; PS1="(venv) $${PS1-}"; fi' \
	  > $@

lab: setup $(LAB_RC)  ## JupyterLab at the course root; `make lab ARGS="--port 8890"` passes options
	VIRTUAL_ENV="$(VENV_DIR)" PATH="$(VENV_DIR)/bin:$$PATH" $(VENV)/bin/jupyter lab \
	  --ServerApp.root_dir="$(CURDIR)" \
	  --ServerApp.terminado_settings="shell_command=['bash', '--rcfile', '$(LAB_RC)', '-i']" \
	  $(ALLOW_ROOT) $(ARGS)

# The quick subset, on the suite's workers and with the bytecode cache (TEST_ENV, below); its
# `alone` tests afterwards, by themselves.
test-fast: setup  ## the quick subset: no slow tests (notebooks, release, sandbox e2e) and no services
	$(TEST_ENV) $(PY) -m pytest -n $(TEST_JOBS) --dist loadgroup -q \
	  -m "not slow and not integration and not alone"; parallel=$$?; \
	$(TEST_ENV) $(PY) -m pytest -q -m "alone and not slow and not integration" $(ALONE_TESTS); \
	alone=$$?; [ $$alone -eq 5 ] && alone=0; \
	exit $$(( parallel ? parallel : alone ))

# The suite often waits (kernels, workers, wall limits, a user's turns), so it runs on TEST_JOBS
# pytest-xdist workers, two more than the machine has cores (at most 8): on 2 cores, taken in
# turn, the parallel part took 470 s on 3 workers with the CPU idle 12% of it, and 434 s on 4
# with it idle 4% (README, "How long").
# Tests sharing something a second worker would disturb are in one xdist_group, and
# the tests marked `alone` (busy loops on purpose) run afterwards, by themselves. Bytecode is
# written even where PYTHONDONTWRITEBYTECODE is set: a sandboxed run cannot write bytecode,
# so every module the suite's runs import for the first time is then compiled once, on disk.
TEST_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$(( n < 6 ? n + 2 : 8 )))
TEST_ENV  := PYTHONDONTWRITEBYTECODE=

# The `alone` modules, named so that their pass imports only them (not the whole suite);
# tests/unit/test_makefile.py fails when a module marked `alone` is missing here.
ALONE_TESTS := tests/e2e/test_loaded_machine_cli.py tests/unit/grader/runner/test_runner_fair_wall.py

# The student-side modules run a second time on the portable runner (GRADER_ISOLATION=
# portable: what `grader check` and check() use on Windows and macOS). A portable check costs
# about 3.5 times a forked one (a fresh interpreter imports SQLAlchemy per run), so the
# exercises' corpus is not run twice: tests/e2e/test_portable_check.py already grades each
# way of running a probe, and each way of failing, in both modes and compares the
# verdicts, so this pass leaves test_check_cli's wrong probes out (PORTABLE_SKIP) and keeps
# the command's own path: solutions, starters, root finding, notebooks, check(). It also
# leaves out the two notebook tests that force a mode themselves: the first pass ran them.
PORTABLE_TESTS := tests/e2e/test_check_cli.py tests/e2e/test_notebook_api.py
PORTABLE_SKIP  := not test_wrong_probes_fail_naming_the_mistake \
  and not test_a_forced_isolation_mode_is_honoured and not test_check_works_in_the_portable_mode

test: setup  ## the whole suite (integration tests skip, with the reason, if a service is unreachable)
	$(TEST_ENV) $(PY) -m pytest -n $(TEST_JOBS) --dist loadgroup -m "not alone" --durations=30; parallel=$$?; \
	$(TEST_ENV) $(PY) -m pytest -m alone $(ALONE_TESTS); alone=$$?; \
	$(TEST_ENV) GRADER_ISOLATION=portable $(PY) -m pytest -n $(TEST_JOBS) --dist loadgroup \
	  -m "not alone" -k "$(PORTABLE_SKIP)" $(PORTABLE_TESTS); portable=$$?; \
	exit $$(( parallel ? parallel : alone ? alone : portable ))

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
