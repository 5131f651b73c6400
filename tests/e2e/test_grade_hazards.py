"""``grader grade`` never dies of one student: the zips that used to stop the batch (a file
that is also a folder, a 300-byte name) and a folder + zip with one id each become that
student's ``error`` rows, naming the reason, and every other student is graded (exit 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.instructor.gradebook import Gradebook
from tests.e2e.batch_support import grader
from tests.support.classroom import (
    CRASHING_ZIPS,
    EXERCISES,
    crashing_zip,
    make_class,
    reference_files,
    with_manifest,
    zip_bytes,
)

pytestmark = pytest.mark.e2e


def test_crashing_zips_and_a_clash_cost_only_their_students(tmp_path: Path) -> None:
    folder = tmp_path / "submissions"
    make_class(folder, tmp_path / "gradebook.db", ["prose_en"])
    for kind in CRASHING_ZIPS:  # first in the sort order, so everyone after them counts
        (folder / f"a-{kind}.zip").write_bytes(crashing_zip(kind, f"a-{kind}"))
    (folder / "b-twice").mkdir()
    (folder / "b-twice.zip").write_bytes(zip_bytes(with_manifest("b-twice", reference_files("b"))))
    ran = grader(
        "grade", "submissions", "--exercise", "EX-11-02", "--json", "--lang", "en", cwd=tmp_path
    )
    assert ran.code == 0, ran.stderr
    assert "b-twice" not in ran.stderr  # not "skipped": it has rows saying why
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as book:
        rows = {(r.student, r.exercise): r for r in book.results()}
    reasons = {
        student: rows[(student, "EX-11-02")].reason
        for student in ("a-zip_prefix_clash", "a-zip_long_name", "b-twice")
    }
    assert {s: (r.id if r else None) for s, r in reasons.items()} == {
        "a-zip_prefix_clash": "batch.archive_prefix_clash",
        "a-zip_long_name": "batch.archive_name_too_long",
        "b-twice": "batch.folder_and_zip",
    }
    assert rows[("s000-prose-en", "EX-11-02")].status == "needs_review"  # graded after them
    assert ran.json()["errors"] == 3
    assert {e for _, e in rows} == {"EX-11-02"} and "EX-11-02" in EXERCISES
