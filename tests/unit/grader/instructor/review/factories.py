"""A small gradebook for the review page's tests: a code result whose probe let a mutant
through and failed a twin, a prose answer (with hostile text), an error and a missing one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from starlette.testclient import TestClient

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import (
    GradingEntry,
    GradingKey,
    entry_from_report,
    sha256_text,
)
from grader.instructor.review.app import ReviewSettings, create_app
from grader.instructor.review.auth import Guard
from grader.judge.results import Message, build_report, failed_check, msg, passed_check
from tests.unit.grader.instructor.gradebook.factories import (
    FINGERPRINT,
    absent_entry,
    broken_entry,
    code_entry,
    prose_entry,
)

HOSTILE = (Path(__file__).parent / "files" / "hostile.md").read_text(encoding="utf-8")


def twin_failed_entry(student: str = "carol", text: str = "assert True\n") -> GradingEntry:
    """EX-11-01 whose probe fails the second twin (``shift_backoff``)."""
    twin = msg("twin.failed", twin=Message("twin.shift_backoff"), outcome="exit 1")
    checks = (
        passed_check("runs_cleanly", 1.0, msg("run.ok")),
        failed_check("equivalents", 0.0, twin, msg("hint.twin"), "AssertionError"),
        failed_check(
            "mutant:off_by_one_bound",
            1.0,
            msg("mutant.not_credible"),
            label=msg("check.mutant", arg=msg("mutant.off_by_one_bound")),
        ),
    )
    report = build_report("EX-11-01", "code", checks, isolation="namespaces")
    return entry_from_report(
        GradingKey(student, "EX-11-01", sha256_text(text), FINGERPRINT),
        report,
        file_name="retry_policy_probe.py",
        content=text,
        seconds=0.5,
    )


def filled_book(path: Path) -> Gradebook:
    book = Gradebook(f"sqlite:///{path / 'gradebook.db'}")
    book.record(code_entry("alice", survived=True))
    book.record(prose_entry("alice", HOSTILE))
    book.record(prose_entry("bob", "Late ACK means the broker redelivers.\n"))
    book.record(broken_entry("bob"))
    book.record(absent_entry("bob"))
    book.record(twin_failed_entry("carol"))
    return book


@dataclass(frozen=True)
class Client:
    http: TestClient
    guard: Guard
    book: Gradebook

    def signed_in(self) -> TestClient:
        answer = self.http.get(f"/?token={self.guard.token}")
        assert answer.status_code == 303
        return self.http

    def decide(self, student: str, exercise: str, **form: str) -> object:
        """POST a decision as the page's form does: naming the grading it was read on (the
        current one, unless ``grading`` is given; ``grading=""`` leaves it out)."""
        current = self.book.result(student, exercise)
        read = {"grading": str(current.grading_id)} if current is not None else {}
        data = {"csrf_token": self.guard.csrf_token, **read, **form}
        if data.get("grading") == "":
            del data["grading"]
        return self.http.post(f"/decide/{student}/{exercise}", data=data)


def client(path: Path, lang: str = "en") -> Client:
    book = filled_book(path)
    guard = Guard(hosts=("testserver", "127.0.0.1"))
    app = create_app(ReviewSettings(None, "prof", lang, guard), book)
    return Client(TestClient(app, follow_redirects=False), guard, book)
