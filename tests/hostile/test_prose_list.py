"""Prose ReDoS through ``grader list --no-run``: the listing scores prose in process, so an
answer built to make the rubric backtrack must not hang it (``grader check`` is covered by
the corpus cases themselves: files/prose_redos_*.make)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.corpus import REPO, Case, load_cases, materialize
from tests.hostile.judging import SLACK

pytestmark = pytest.mark.hostile

REDOS = [case for case in load_cases() if case.name.startswith("prose_redos_")]


@pytest.mark.parametrize("case", REDOS, ids=lambda case: case.name)
def test_listing_a_redos_answer_ends_at_zero(case: Case, tmp_path: Path) -> None:
    root = tmp_path / "course"
    shutil.copytree(REPO / "exercises", root / "exercises")
    built = materialize(case, tmp_path)
    shutil.copyfile(built, root / "exercises" / case.exercise / "answer.md")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "grader", "list", "--no-run", "--json", "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=SLACK + 30,
        cwd=REPO,
    )
    seconds = time.monotonic() - started
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    entry = next(e for e in json.loads(done.stdout) if e["exercise"] == case.exercise)
    assert entry["status"] in ("needs_review", "failed") and entry["score"] == 0, entry
    assert seconds < SLACK, f"grader list took {seconds:.1f} s"
