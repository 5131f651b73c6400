"""The kernel the tests start is this interpreter: the repo's venv, not whatever is installed."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.kernel import execute, stream_text

pytestmark = [pytest.mark.notebooks, pytest.mark.slow]


def test_kernel_runs_this_interpreter_in_the_given_directory(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("import os, sys\nprint(sys.prefix)\nprint(os.getcwd())")
    ]
    execute(notebook, cwd=tmp_path)
    prefix, cwd = stream_text(notebook.cells[0]).splitlines()
    assert Path(prefix).resolve() == Path(sys.prefix).resolve()
    assert Path(cwd).resolve() == tmp_path.resolve()
