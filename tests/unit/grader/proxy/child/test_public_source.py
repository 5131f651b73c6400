"""The prelude keeps the public source of the module under test for ``inspect.getsource``
once the run hides ticketflow's files: the same text in every run."""

from __future__ import annotations

import inspect
import linecache
import shutil
import sys
import types
from pathlib import Path

import pytest

from grader.proxy.child.prelude import keep_public_source


def test_getsource_still_shows_the_public_text_once_the_file_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "pkg"
    folder.mkdir()
    path = folder / "hstl_public_module.py"
    path.write_text("def apply(x):\n    '''The public code.'''\n    return x + 1\n", "utf-8")
    module = types.ModuleType("hstl_public_module")
    module.__file__ = str(path)
    exec(compile(path.read_text("utf-8"), str(path), "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, "hstl_public_module", module)
    monkeypatch.delitem(linecache.cache, str(path), raising=False)

    keep_public_source("hstl_public_module")
    shutil.rmtree(folder)  # the sandbox hides it
    linecache.checkcache()
    assert inspect.getsource(module.apply).startswith("def apply(x):")
    assert "return x + 1" in inspect.getsource(module)
    linecache.cache.pop(str(path), None)


def test_nothing_is_kept_for_a_module_without_a_readable_source() -> None:
    before = dict(linecache.cache)
    keep_public_source("sys")  # built in: no __file__
    keep_public_source("hstl_no_such_module")
    assert linecache.cache == before
