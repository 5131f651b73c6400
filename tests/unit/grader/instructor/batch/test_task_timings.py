"""A Celery task's "finished" row carries its timings: publish, start, end of grading, the
gradebook's share (``celery_app.run_student``; the Celery mode of bench_batch reads them)."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

from grader.instructor.batch import celery_app
from grader.instructor.batch.plan import BatchPlan
from grader.instructor.gradebook import Gradebook
from tests.support.classroom import ENGLISH

PROSE = ("EX-11-02", "EX-12-02", "EX-13-02")


def test_the_finished_row_carries_the_task_timings(tmp_path: Path) -> None:
    root = tmp_path / "subs" / "alice" / "EX-11-02"
    root.mkdir(parents=True)
    (root / "answer.md").write_bytes((ENGLISH / "EX-11-02-answer-en.md").read_bytes())
    url = f"sqlite:///{tmp_path / 'g.db'}"
    plan = BatchPlan(PROSE, tuple((e, "fp") for e in PROSE), weak=False, hide=(str(tmp_path),))
    published = time.time()
    celery_app._process.clear()
    try:
        celery_app.run_student(
            url, "run-1", "alice", str(root.parent), "folder", plan.to_json(), published=published
        )
    finally:
        opened = celery_app._process.pop("book", None)
        if opened is not None:
            opened.close()
        celery_app._process.clear()
    with Gradebook(url) as book:
        summary = book.finished_tasks("run-1")["alice"]
    timings = summary["timings"]
    assert timings["published"] == published <= timings["started"] <= timings["graded"]
    assert 0 < timings["gradebook_seconds"] < timings["graded"] - timings["started"]
    assert timings["worker"] == f"{socket.gethostname()}:{os.getpid()}"
    assert [r["exercise"] for r in summary["results"]] == list(PROSE)  # the summary as before
