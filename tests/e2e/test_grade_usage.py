"""``grader grade``/``submit``/``worker`` at their edges: usage errors (exit 2, named),
weak isolation refused unless allowed (rows marked), one exercise at a time, and a zip made
by ``grader submit`` graded as handed in."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.instructor.gradebook import Gradebook
from tests.e2e.batch_support import grader
from tests.support.classroom import REPO, SOLUTIONS, make_class

pytestmark = pytest.mark.e2e


@pytest.fixture
def small_class(tmp_path: Path) -> Path:
    make_class(tmp_path / "submissions", tmp_path / "gradebook.db", ["reference", "prose_en"])
    return tmp_path


def test_a_missing_folder_is_exit_2_naming_it(tmp_path: Path) -> None:
    done = grader("grade", "nope", "--lang", "en", cwd=tmp_path)
    assert done.code == 2 and "nope" in done.stderr and "submissions folder" in done.stderr


@pytest.mark.parametrize("url", ["mysql://x@y/z", "not a url", "sqlite://"])
def test_a_bad_database_url_is_exit_2(small_class: Path, url: str) -> None:
    done = grader("grade", "submissions", "--db", url, "--lang", "en", cwd=small_class)
    assert done.code == 2 and "gradebook" in done.stderr


def test_an_unreachable_database_is_exit_2_naming_it(small_class: Path) -> None:
    url = "postgresql://nobody@127.0.0.1:1/none"
    done = grader("grade", "submissions", "--db", url, "--lang", "en", cwd=small_class)
    assert done.code == 2 and "127.0.0.1:1" in done.stderr


def test_an_unreachable_broker_is_exit_2_naming_it(small_class: Path) -> None:
    broker = "amqp://guest:secret@127.0.0.1:1//"
    done = grader("grade", "submissions", "--broker", broker, "--lang", "en", cwd=small_class)
    assert done.code == 2 and "127.0.0.1:1" in done.stderr and "broker" in done.stderr
    assert "secret" not in done.stderr


def test_weak_isolation_is_refused_unless_allowed_and_then_marked(small_class: Path) -> None:
    weak = {"GRADER_ISOLATION": "rlimits"}
    refused = grader("grade", "submissions", "--lang", "en", cwd=small_class, env=weak)
    assert refused.code == 2 and "--allow-weak-isolation" in refused.stderr
    assert "rlimits" in refused.stderr
    allowed = grader(
        "grade", "submissions", "--allow-weak-isolation", "--exercise", "EX-11-01", "--json",
        "--lang", "en", cwd=small_class, env=weak,
    )  # fmt: skip
    assert allowed.code == 0, allowed.stderr
    assert "WITHOUT the isolating sandbox" in allowed.stderr
    with Gradebook(f"sqlite:///{small_class / 'gradebook.db'}") as book:
        rows = book.results(exercise="EX-11-01")
    reference = next(r for r in rows if r.student.endswith("reference"))
    assert (reference.status, reference.isolation, reference.weak_isolation) == (
        "passed",
        "rlimits",
        True,
    )
    assert reference.verdict_fingerprint.endswith("+rlimits")
    official = grader("grade", "submissions", "--exercise", "EX-11-01", "--json", cwd=small_class)
    assert official.json()["graded"] == 2  # an official run re-grades what was graded weakly


def test_one_exercise_at_a_time(small_class: Path) -> None:
    done = grader("grade", "submissions", "--exercise", "ex-11-02", "--json", cwd=small_class)
    assert done.code == 0, done.stderr
    assert done.json()["graded"] == 2 and done.json()["needs_review"] == 2
    with Gradebook(f"sqlite:///{small_class / 'gradebook.db'}") as book:
        assert book.exercises() == ["EX-11-02"]
    unknown = grader("grade", "submissions", "--exercise", "EX-99-01", cwd=small_class)
    assert unknown.code == 2


def test_a_submitted_zip_is_graded_as_handed_in(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(REPO / "exercises", course / "exercises")
    for exercise in ("EX-11-01", "EX-11-02"):
        for source in (SOLUTIONS / exercise).iterdir():
            shutil.copyfile(source, course / "exercises" / exercise / source.name)
    (tmp_path / "submissions").mkdir()
    zipped = tmp_path / "submissions" / "li.lei.zip"
    packed = grader(
        "submit", "--student", "li.lei", "--out", str(zipped), "--lang", "en", cwd=course
    )
    assert packed.code == 0, packed.stderr
    assert (
        "Packed 2 exercise(s)" in packed.stdout and "EX-12-01: still the untouched" in packed.stderr
    )
    verified = grader("submit", "--verify", str(zipped), "--lang", "en", cwd=tmp_path)
    assert verified.code == 0 and "li.lei" in verified.stdout
    done = grader("grade", "submissions", "--json", cwd=tmp_path)
    summary = done.json()
    assert (summary["passed"], summary["needs_review"], summary["missing"]) == (1, 1, 4)
    bad = grader("submit", "--student", "-rf", cwd=course)
    assert bad.code == 2
