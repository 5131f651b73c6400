"""The real ``grader`` command on a throwaway copy of the course."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.commands import grader_command
from tests.e2e.term_support import Term, grade_term

__all__ = ["FILES", "REPO", "Course", "Result", "grader_command"]

REPO = Path(__file__).resolve().parents[2]
FILES = Path(__file__).parent / "files"


@dataclass(frozen=True)
class Result:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


@dataclass(frozen=True)
class Course:
    root: Path

    def run(self, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Result:
        environment = {k: v for k, v in os.environ.items() if k != "GRADER_LANG"}
        environment.update(env or {})
        done = subprocess.run(
            [*grader_command(), *args],
            cwd=cwd or self.root,
            capture_output=True,
            text=True,
            timeout=120,
            env=environment,
        )
        assert "Traceback" not in done.stderr, done.stderr
        return Result(done.returncode, done.stdout, done.stderr)

    def answer(self, exercise_id: str, source: Path) -> Path:
        """Put ``source`` where the student's file for ``exercise_id`` lives."""
        folder = self.root / "exercises" / exercise_id
        target = next(p for p in folder.iterdir() if p.name != "README.md")
        shutil.copyfile(source, target)
        return target


@pytest.fixture
def course(tmp_path: Path) -> Course:
    """A fresh course root holding the committed exercises (starters) only."""
    shutil.copytree(REPO / "exercises", tmp_path / "exercises")
    return Course(tmp_path)


@pytest.fixture(scope="session")
def term(tmp_path_factory: pytest.TempPathFactory) -> Term:
    """The acceptance class of a real term, graded once per run: the modules that read it
    (``test_grade_class``, ``test_term_class``) share one ``xdist_group``, so one worker
    grades it, once."""
    return grade_term(tmp_path_factory.mktemp("term"))
