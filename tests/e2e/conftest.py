"""The real ``grader`` command on a throwaway copy of the course."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
FILES = Path(__file__).parent / "files"


def grader_command() -> list[str]:
    script = Path(sys.executable).parent / "grader"
    return [str(script)] if script.exists() else [sys.executable, "-m", "grader"]


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
