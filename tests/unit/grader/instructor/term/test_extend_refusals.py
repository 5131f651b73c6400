"""``grader extend`` refuses, before anything is written, an id the gradebook does not know
(neither on the roster nor among the submissions) and a time before the due time."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from grader.frontends.cli import main
from grader.instructor.gradebook import Gradebook
from grader.instructor.term.deadlines import ALL, CourseSettings
from grader.instructor.term.roster import Student
from grader.instructor.term.store import extensions, import_roster

COURSE = """timezone = "Asia/Shanghai"
[due]
"EX-11-01" = "2026-12-07T23:59"
"EX-12-01" = "2026-12-14T23:59"
"""


@pytest.fixture
def class_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "course.toml").write_text(COURSE, encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(url) as book:
        import_roster(book, [Student("alice", "王小明"), Student("bob", "李华")])
    return url


def _extensions(url: str) -> list[tuple[str, str]]:
    with Gradebook(url, must_exist=True) as book:
        return [(item.student, item.exercise) for item in extensions(book)]


def test_a_mistyped_id_is_refused_and_nothing_is_written(
    class_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["extend", "alcie", "EX-11-01", "--until", "2026-12-09T23:59", "--db", class_db,
                 "--lang", "en"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert "alcie is neither on the roster nor among the graded submissions" in err
    assert "grader roster show" in err
    assert _extensions(class_db) == []
    # the same id, on the roster: recorded
    assert main(["extend", "alice", "EX-11-01", "--until", "2026-12-09T23:59", "--db", class_db,
                 "--lang", "en"]) == 0  # fmt: skip
    assert _extensions(class_db) == [("alice", "EX-11-01")]


def test_an_id_among_the_submissions_but_off_roster_is_known(class_db: str) -> None:
    from sqlalchemy import insert

    from grader.instructor.gradebook.models import Receipt

    with Gradebook(class_db) as book, book.sessions.begin() as session:
        session.execute(
            insert(Receipt).values(
                student="mallory", exercise="EX-11-01", content_sha256="0" * 64,
                received_at=datetime(2026, 12, 8, tzinfo=UTC), source="mtime", due_at=None,
                late_by_seconds=0.0, penalty=0.0, manifest_student=None,
            )
        )  # fmt: skip
    argv = ["extend", "mallory", "--until", "2026-12-20T23:59", "--db", class_db]
    assert main(argv) == 0
    assert _extensions(class_db) == [("mallory", ALL)]


def test_no_gradebook_is_refused_without_creating_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'elsewhere.db'}"
    assert main(["extend", "alice", "--until", "2026-12-09T23:59", "--db", url]) == 2
    assert not (tmp_path / "elsewhere.db").exists()


@pytest.mark.parametrize(
    ("exercise", "until", "named"),
    [
        ("EX-11-01", "2026-12-06T12:00", "EX-11-01"),  # a day before its due time
        (None, "2026-12-10T12:00", "EX-12-01"),  # all: after EX-11-01's, before EX-12-01's
    ],
)
def test_a_time_before_the_due_time_is_refused_and_nothing_is_written(
    class_db: str,
    capsys: pytest.CaptureFixture[str],
    exercise: str | None,
    until: str,
    named: str,
) -> None:
    argv = ["extend", "alice", *([exercise] if exercise else []), "--until", until]
    code = main([*argv, "--db", class_db, "--lang", "en"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"is before the due time of {named}" in err and "Nothing was recorded" in err
    assert _extensions(class_db) == []


def test_due_after_names_the_first_exercise_whose_due_time_is_later() -> None:
    due = {
        "EX-11-01": datetime(2026, 12, 7, tzinfo=UTC),
        "EX-12-01": datetime(2026, 12, 14, tzinfo=UTC),
    }
    settings = CourseSettings(due=due)
    assert settings.due_after("EX-11-01", datetime(2026, 12, 8, tzinfo=UTC)) is None
    assert settings.due_after(ALL, datetime(2026, 12, 8, tzinfo=UTC)) == (
        "EX-12-01",
        due["EX-12-01"],
    )
    assert settings.due_after("EX-13-01", datetime(2020, 1, 1, tzinfo=UTC)) is None  # no due
