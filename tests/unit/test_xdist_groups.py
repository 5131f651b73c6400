"""``xdist_group`` keeps a group on one worker (``tests.support.xdist_groups``): a throwaway
suite of one grouped module, whose module fixture records the worker that built it, and an
ungrouped module, run with ``-n 2 --dist loadgroup``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.xdist_groups import group_of

REPO = Path(__file__).resolve().parents[2]

GROUPED = """
import os
import pytest

pytestmark = [pytest.mark.xdist_group("g")]

@pytest.fixture(scope="module")
def built():
    with open("built.log", "a") as log:
        log.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")

@pytest.mark.parametrize("i", range(8))
def test_grouped(built, i):
    with open("ran.log", "a") as log:
        log.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")
"""
UNGROUPED = """
import pytest

@pytest.mark.parametrize("i", range(8))
def test_free(i):
    pass
"""
CONFTEST = "from tests.support.xdist_groups import pytest_collection_modifyitems  # noqa: F401\n"


@pytest.mark.slow
def test_a_group_runs_on_one_worker_and_builds_its_module_fixture_once(tmp_path: Path) -> None:
    (tmp_path / "test_grouped.py").write_text(GROUPED, encoding="utf-8")
    (tmp_path / "test_ungrouped.py").write_text(UNGROUPED, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
         "--dist", "loadgroup", "-o", "addopts=", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, timeout=240,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "16 passed" in done.stdout
    built = (tmp_path / "built.log").read_text().split()
    ran = set((tmp_path / "ran.log").read_text().split())
    assert len(built) == 1 and ran == set(built), (built, ran)


def test_a_tests_group_is_named_by_its_marks() -> None:
    class Item:
        def __init__(self, *names: str) -> None:
            self.marks = [pytest.mark.xdist_group(name).mark for name in names]

        def iter_markers(self, name: str) -> list[pytest.Mark]:
            return [mark for mark in self.marks if mark.name == name]

    assert group_of(Item()) is None  # type: ignore[arg-type]
    assert group_of(Item("b", "a")) == "a_b"  # type: ignore[arg-type]
