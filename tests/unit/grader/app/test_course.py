"""The hide list: secrets of the installed tree and of --root, never the interpreter's folders."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import ticketflow
from grader.app.course import SECRET_DIRS, hidden_paths, installed_tree

TREE = Path(__file__).resolve().parents[4]


def test_the_installed_trees_secrets_are_hidden_whatever_the_root(tmp_path: Path) -> None:
    assert installed_tree() == TREE
    for root in (None, tmp_path, TREE):
        hidden = set(hidden_paths(root))
        assert {TREE / "solutions", TREE / "tests", TREE / ".grader", TREE / ".git"} <= hidden
        assert TREE / "grader" in hidden


def test_ticketflow_source_is_hidden_so_no_fresh_copy_can_be_loaded() -> None:
    assert Path(ticketflow.__file__).resolve().parent in hidden_paths(None)


def test_the_lab_harness_source_is_hidden_too() -> None:
    import ticketflow_lab

    assert Path(ticketflow_lab.__file__).resolve().parent in hidden_paths(None)


def test_the_roots_secrets_are_listed_even_before_they_exist(tmp_path: Path) -> None:
    hidden = hidden_paths(tmp_path)
    assert {tmp_path / name for name in SECRET_DIRS} <= set(hidden)
    assert hidden_paths(tmp_path) == hidden  # stable: a warm server keeps serving


def test_a_folder_the_interpreter_needs_is_never_hidden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside = tmp_path / "tests" / "site"
    inside.mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [*sys.path, str(inside)])
    hidden = hidden_paths(tmp_path)
    assert tmp_path / "tests" not in hidden
    assert tmp_path / "solutions" in hidden
    assert Path(sys.prefix).resolve() not in hidden
