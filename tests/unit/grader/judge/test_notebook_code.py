"""Notebook cells read the way IPython reads them (issue 13: black-formatted continuation
lines, ``% (a, b)``, U+2028 in a string, ``display``), one module line per cell line."""

from __future__ import annotations

import contextlib
import io

import pytest

from grader.judge.notebook_code import cell_to_python, notebook_module

BLACK = """if (
    observed
    != expected
):
    raise AssertionError(
        "%s %d: %r"
        % (name, retries, observed)
    )
"""


def _run(cells: list[str]) -> tuple[dict[str, object], str]:
    text, _ = notebook_module([cell_to_python(cell) for cell in cells])
    namespace: dict[str, object] = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(text, "probe.ipynb", "exec"), namespace)
    return namespace, out.getvalue()


def test_continuation_lines_that_start_with_an_operator_are_python_not_magics() -> None:
    assert cell_to_python(BLACK) == BLACK
    namespace, _ = _run(["observed = expected = (True, 5, False)\nname, retries = 'E', 0", BLACK])
    assert namespace["observed"] == (True, 5, False)
    with pytest.raises(AssertionError, match="E 0"):
        _run(["observed, expected = 1, 2\nname, retries = 'E', 0", BLACK])


def test_magics_where_ipython_sees_them_become_calls_on_the_stand_in_shell() -> None:
    cell = "%matplotlib inline\n!pip list\nfiles = !ls\nx = 1\n%time y = x + 1\n"
    python = cell_to_python(cell)
    assert python.count("\n") == cell.count("\n")
    assert "get_ipython().run_line_magic('matplotlib', 'inline')" in python
    namespace, _ = _run([cell])
    assert (namespace["x"], namespace["y"], namespace["files"]) == (1, 2, [])


def test_a_line_separator_inside_a_string_literal_is_one_character() -> None:
    cell = 'text = "a\u2028b"\n%time n = len(text)\nassert n == 3\n'
    python = cell_to_python(cell)
    assert python.count("\n") == cell.count("\n") and "\u2028" in python
    namespace, _ = _run([cell])
    assert namespace["n"] == 3


def test_display_and_get_ipython_exist_as_in_a_kernel() -> None:
    namespace, out = _run(["display({'a': 1}, 'x')\nshell = get_ipython()\nns = shell.user_ns"])
    assert out == "{'a': 1}\n'x'\n"
    assert namespace["ns"] is namespace


@pytest.mark.parametrize(
    "cell",
    [
        "\n\n%load_ext autoreload\nx = 1",
        "%alias_magic t timeit \\\n  -l\nx = 1\n",
        "   x = 1\n   y = 2",
    ],
)
def test_every_cell_keeps_its_number_of_lines(cell: str) -> None:
    python = cell_to_python(cell)
    assert python.count("\n") == cell.count("\n")
    compile(python, "cell", "exec")


def test_python_cell_magics_run_their_body_and_others_are_left_out() -> None:
    timed = "%%time\nx = 41\nx += 1\n"
    bash = "%%bash\necho hi > /tmp/never\nexit 3\n"
    assert cell_to_python(timed).count("\n") == timed.count("\n")
    assert all(line.startswith("#") or not line for line in cell_to_python(bash).split("\n"))
    namespace, _ = _run([timed, bash])
    assert namespace["x"] == 42


def test_the_module_maps_back_to_cells() -> None:
    text, starts = notebook_module(["a = 1\nb = 2", "c = 3\n"])
    assert starts == (2, 5)
    assert text.split("\n")[1:5] == ["a = 1", "b = 2", "", "c = 3"]


def test_a_check_cell_does_nothing_in_a_graded_notebook_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.delitem(sys.modules, "grader")  # as in a run: the real grader is gone
    cells = ['from grader import check\n\nresult = check("EX-13-01")', "import grader"]
    namespace, printed = _run(cells)
    assert namespace["result"] is None
    assert printed.splitlines() == [
        "grader.check(...): 评分时不运行 / does nothing while this notebook is graded"
    ]
    stand_in = sys.modules["grader"]
    assert namespace["grader"] is stand_in and not hasattr(stand_in, "__path__")


def test_a_test_process_keeps_its_real_grader() -> None:
    import sys

    import grader

    _run(["x = 1"])
    assert sys.modules["grader"] is grader


@pytest.mark.parametrize(
    "line",
    [
        "%timeit -n 20 -r 1 y = x * 2",
        "%timeit -n20 -r1 -q y = x * 2",
        "%timeit -qo y = x * 2",
        "%time y = x * 2",
        "%time --no-raise-error y = x * 2",
    ],
)
def test_line_magics_with_options_run_their_statement_as_ipython_reads_it(line: str) -> None:
    """``%timeit -n 20 -r 1 stmt`` used to be compiled whole: "SyntaxError (<magic>)"."""
    namespace, _ = _run(["x = 21", line])
    assert namespace["y"] == 42


def test_a_timeit_cells_first_line_after_its_options_is_setup_code() -> None:
    cell = "%%timeit -n 5 -r 1 base = 40\ntotal = base + 2\n"
    assert cell_to_python(cell).count("\n") == cell.count("\n")
    namespace, _ = _run([cell])
    assert namespace["total"] == 42
