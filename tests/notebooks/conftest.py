"""Each lesson notebook is executed once per session and shared by the tests that read it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.notebooks.kernel import LESSONS_DIR, execute_file


@pytest.fixture(scope="session")
def executed_lesson() -> Callable[[str], Any]:
    """``executed_lesson("11-late-ack-and-prefetch")`` -> the executed notebook."""
    results: dict[str, Any] = {}

    def run(stem: str) -> Any:
        if stem not in results:
            try:
                results[stem] = execute_file(LESSONS_DIR / f"{stem}.ipynb")
            except Exception as error:  # remembered: a broken notebook runs only once
                results[stem] = error
        outcome = results[stem]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    return run
