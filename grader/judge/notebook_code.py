"""A notebook's code cells as IPython runs them, turned into one Python module.

IPython's own input transformer (``IPython.core.inputtransformer2.TransformerManager``, the
one Jupyter kernels use) decides what is a magic: ``%``/``!`` only where a statement starts,
never on a continuation line such as ``!= expected`` or ``% (a, b)`` inside brackets. Lines
are split on ``\\n`` only, so U+2028 inside a string literal stays a character.

Each cell keeps its number of lines, so a line of the module maps back to (cell, line).
The module starts with ``KERNEL_LINE``: one line that gives the names a notebook kernel
provides for free (``display``, ``get_ipython``), so a probe that calls them runs as it
does in JupyterLab. ``get_ipython()`` returns a small stand-in shell: line magics are
no-ops except ``%time``/``%timeit`` (they run their statement once, like the kernel runs
it; their options, ``%timeit -n 20 -r 1 ...``, are read as IPython reads them), shell
escapes do nothing. Where there is no ``grader`` module (the run removes the
real one, whose files are hidden), the line also puts a stand-in in ``sys.modules``: its
``check(...)`` does nothing and prints one line saying so, as otter's ``grader.check``
does in a graded notebook, so a student's own ``check("EX-13-01")`` cell is harmless.

Cell magics: ``%%time``, ``%%timeit`` and ``%%capture`` run the cell's body as Python (the
kernel does too; ``%%timeit``'s first line, after its options, is setup code run first);
any other cell magic (``%%bash``, ``%%writefile``, ...) is not Python, so
its cell is left out, as comments.
"""

from __future__ import annotations

import inspect
import re
import textwrap
import warnings
from functools import cache
from typing import Any

#: Cell magics whose body the kernel runs as Python in the user namespace.
PYTHON_CELL_MAGICS = ("time", "timeit", "capture")

_KERNEL = '''
class _GraderShell:
    """What get_ipython() returns in a graded notebook: magics do nothing, except that
    %time / %timeit run their statement once."""

    @property
    def user_ns(self):
        return globals()

    def run_line_magic(self, magic_name, line, _stack_depth=1):
        if magic_name in ("time", "timeit"):
            statement = magic_statement(magic_name, line)
            if statement.strip():
                exec(compile(statement, "<magic>", "exec"), globals())
        return None

    def run_cell_magic(self, magic_name, line, cell):
        return None

    def system(self, cmd):
        return 0

    def getoutput(self, cmd, split=True, depth=0):
        return []


_grader_shell = _GraderShell()


def get_ipython():
    return _grader_shell


def display(*objs, include=None, exclude=None, metadata=None, transient=None,
            display_id=None, raw=False, clear=False, **kwargs):
    for obj in objs:
        print(obj if raw else repr(obj))
    return None


del _GraderShell


def _graded_check(*args, **kwargs):
    print("grader.check(...): 评分时不运行 / does nothing while this notebook is graded")
    return None


import sys as _sys
import types as _types

_grader_stand_in = _types.ModuleType("grader", "The grader's check(), inside a graded notebook.")
_grader_stand_in.check = _graded_check
if "grader" not in _sys.modules:  # the run removed the real one (a test process keeps it)
    _sys.modules["grader"] = _grader_stand_in
del _sys, _types, _grader_stand_in, _graded_check
'''


#: IPython's options of ``%timeit`` (``TimeMagics.timeit``: getopt spec "n:r:tcp:qov:"),
#: those that take a value first; ``%time`` has one, ``--no-raise-error``.
TIMEIT_VALUED, TIMEIT_FLAGS = "nrpv", "tcqo"
_OPTION = re.compile(r"\s*(-\S*)\s*(.*)", re.S)
_WORD = re.compile(r"\s*\S+\s*(.*)", re.S)


def magic_statement(magic_name: str, line: str) -> str:
    """The statement of a ``%time``/``%timeit`` line (or the setup of a ``%%timeit`` cell),
    its options taken off the way IPython's ``parse_options`` takes them: ``-n 20``,
    ``-n20``, ``-r1 -q``, ``-qo`` all stop at the first word that is not an option."""
    rest = line
    while True:
        found = _OPTION.match(rest)
        if found is None:
            return rest
        option, after = found.group(1), found.group(2)
        if magic_name == "time":
            return after if option == "--no-raise-error" else rest
        letters = option[1:]
        for at, letter in enumerate(letters):
            if letter in TIMEIT_VALUED:  # its value: the rest of this word ("-n20"), or
                if at == len(letters) - 1:  # the next word ("-n 20")
                    word = _WORD.match(after)
                    after = "" if word is None else word.group(1)
                break
            if letter not in TIMEIT_FLAGS:
                return rest  # not an option of %timeit: the statement starts here (-x + 1)
        else:
            if not letters:
                return rest
        rest = after


#: Line 1 of a notebook's module: defines ``display`` and ``get_ipython`` in ``__main__``,
#: with ``magic_statement`` (and what it needs) as the stand-in shell reads magics.
KERNEL_LINE = "exec({!r})".format(
    "import re\n"
    + "\n".join(f"{name} = {globals()[name]!r}" for name in ("TIMEIT_VALUED", "TIMEIT_FLAGS"))
    + f"\n_OPTION = re.compile({_OPTION.pattern!r}, re.S)"
    + f"\n_WORD = re.compile({_WORD.pattern!r}, re.S)\n"
    + textwrap.dedent(inspect.getsource(magic_statement))
    + _KERNEL
)


def notebook_module(cells: list[str]) -> tuple[str, tuple[int, ...]]:
    """Code cells as one module: line 1 gives the kernel's free names, then the cells."""
    text, starts = join_cells(cells, first_line=2)
    return KERNEL_LINE + "\n" + text, starts


def join_cells(cells: list[str], *, first_line: int) -> tuple[str, tuple[int, ...]]:
    """Cells joined by one blank line; the first line of each (1-based, from first_line)."""
    starts, parts, line = [], [], first_line
    for cell in cells:
        body = cell.rstrip("\n") + "\n"
        starts.append(line)
        parts.append(body)
        line += body.count("\n") + 1
    return "\n".join(parts), tuple(starts)


def cell_to_python(source: str) -> str:
    """The cell as Python the way IPython would run it, with the same number of lines."""
    lines = source.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return source
    head = lines[first].lstrip()
    if head.startswith("%%"):
        name = head[2:].split(maxsplit=1)[0] if head[2:].strip() else ""
        if name not in PYTHON_CELL_MAGICS:
            return "\n".join(f"# {line}" if line.strip() else line for line in lines)
        setup = head[2:].split(maxsplit=1)[1] if len(head[2:].split(maxsplit=1)) > 1 else ""
        setup = magic_statement(name, setup).strip() if name == "timeit" else ""
        # %%timeit's first line, after its options, is setup code the kernel runs first
        lines[first] = setup if setup else f"# {lines[first]}"
        body = "\n".join(lines[first + 1 :])
        return "\n".join([*lines[: first + 1], _transform(body)])
    return _transform(source)


def _transform(source: str) -> str:
    """IPython's transform of ``source``, padded back to its number of lines."""
    wanted = source.count("\n")
    leading = len(source) - len(source.lstrip("\n"))
    rest = source[leading:]
    if not rest.strip():
        return source
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it warns about lines split inside a string literal
        try:
            python = str(_manager().transform_cell(rest))
        except Exception:  # what IPython cannot read, compile() will report as Python
            return source
    python = "\n" * leading + python
    if not source.endswith("\n") and python.endswith("\n"):
        python = python[:-1]
    missing = wanted - python.count("\n")
    return python + "\n" * missing if missing > 0 else python


@cache
def _manager() -> Any:
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager()  # type: ignore[no-untyped-call]
