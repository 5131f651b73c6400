"""The two pytest commands of lesson 12's course text, run from a lesson cell.

The course text gives a local command (the bounded retry policy's unit test) with its
expected output ``. [100%]`` / ``1 passed``, and the course manifest's "remote" selector
(worker loss on a real RabbitMQ + PostgreSQL). Both tests exist in this repository's
``tests/``; ``run_pytest`` runs one exactly as the text writes it, from the course root,
and returns its output with the timing removed (``1 passed in 0.41s`` -> ``1 passed``),
so the lesson prints the same lines on every run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

COURSE_ROOT = Path(__file__).resolve().parents[2]
LOCAL_SELECTOR = (
    "tests/unit/test_messaging_core.py::"
    "test_retry_policy_dead_letters_after_bounded_retry_exhaustion"
)
REMOTE_SELECTOR = (
    "tests/integration/test_celery_delivery.py::"
    "test_worker_loss_redelivers_then_bounded_retry_dead_letters"
)
TIMING = re.compile(r" in \d+(\.\d+)?s( \([0-9:]+\))?")
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def command(selector: str) -> list[str]:
    return [sys.executable, "-m", "pytest", selector, "-q"]


def shown(selector: str) -> str:
    return f"$ python -m pytest {selector} -q"


def without_timing(output: str) -> list[str]:
    """pytest's lines, the timing taken out (pure, tested alone)."""
    plain = COLOUR.sub("", output)
    return [TIMING.sub("", line).rstrip() for line in plain.splitlines() if line.strip()]


def run_pytest(selector: str, *, root: Path = COURSE_ROOT, timeout: float = 600.0) -> list[str]:
    """Run ``python -m pytest <selector> -q`` in the course root; its lines, or why not."""
    test_file = root / selector.split("::", 1)[0]
    if not test_file.is_file():
        return [shown(selector), f"（这份课程副本里没有 {test_file.relative_to(root)}，无法运行）"]
    done = subprocess.run(
        command(selector),
        cwd=root,
        # Write nothing into the course (no cache folder) and print no colour codes.
        env={**os.environ, "PYTEST_ADDOPTS": "-p no:cacheprovider", "PY_COLORS": "0"},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        check=False,
    )
    return [shown(selector), *without_timing(done.stdout), f"（退出码 {done.returncode}）"]
