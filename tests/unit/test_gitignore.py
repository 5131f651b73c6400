"""Student data in the course root is never committed by accident: ``.gitignore`` covers the
gradebook, the hand-ins, the feedback pages, the roster and the exports the README suggests."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
STUDENT_DATA = [
    "gradebook.db",
    "gradebook.db-journal",
    "gradebook.db-wal",
    "SUBMISSIONS/alice/EX-11-02/answer.md",
    "submissions/bob.zip",
    "feedback/alice.html",
    "roster.csv",
    "received.csv",
    "canvas.csv",
    "moodle.csv",
    "alice.zip",
]


pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (REPO / ".git").exists(), reason="no git checkout"
)


@pytest.mark.parametrize("path", STUDENT_DATA)
def test_student_data_is_ignored(path: str) -> None:
    done = subprocess.run(["git", "check-ignore", "--no-index", "-q", path], cwd=REPO, check=False)
    assert done.returncode == 0, f"{path} is not git-ignored"


def test_the_course_itself_is_not_ignored() -> None:
    for path in ("grader/instructor/release.py", "exercises/EX-11-01/README.md", "README.md"):
        done = subprocess.run(["git", "check-ignore", "--no-index", "-q", path], cwd=REPO)
        assert done.returncode == 1, f"{path} is git-ignored"
