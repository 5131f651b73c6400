"""Starters are generated from the solutions, and the committed ones are fresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.instructor.starters import MarkerError, stale_files, starter_from_solution
from grader.judge.starters import is_untouched_starter, starter_template

ROOT = Path(__file__).resolve().parents[4]


def test_committed_starters_and_fingerprints_are_not_stale() -> None:
    stale = stale_files(ROOT)
    assert stale == [], "run `grader build-starters` and commit the result"


def test_solution_blocks_become_a_todo_stub_with_the_same_indentation() -> None:
    solution = "import x\n\ndef f():\n    # BEGIN SOLUTION\n    return 42\n    # END SOLUTION\n"
    starter = starter_from_solution(solution, ".py", "EX-99-01")
    assert starter == (
        "import x\n\ndef f():\n"
        "    # TODO(EX-99-01): 在这里写你的代码，要求见 README.md。\n"
        '    raise NotImplementedError("EX-99-01: 尚未完成")\n'
    )


@pytest.mark.parametrize(
    "text",
    [
        "no markers\n",
        "# BEGIN SOLUTION\nx = 1\n",
        "# END SOLUTION\n",
        "# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION\n",
    ],
)
def test_unbalanced_markers_are_refused(text: str) -> None:
    with pytest.raises(MarkerError):
        starter_from_solution(text, ".py", "EX-99-01")


def test_an_untouched_starter_is_recognised_despite_line_endings_and_trailing_spaces() -> None:
    template = starter_template("EX-12-01")
    assert is_untouched_starter("EX-12-01", template)
    assert is_untouched_starter("EX-12-01", template.replace("\n", "  \r\n"))
    assert not is_untouched_starter("EX-12-01", template + "\nprint('started')\n")
    assert not is_untouched_starter("EX-11-01", template)
