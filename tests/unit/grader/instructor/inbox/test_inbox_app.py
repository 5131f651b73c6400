"""The inbox's guarantees, each attack first: a refused hand-in stores nothing (no file under
SUBMISSIONS, no row), whatever the refusal; an accepted one is the next version, kept, and
the copy ``grade`` grades; the token never reaches a log or an answer."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from grader.instructor.gradebook import Gradebook
from grader.instructor.inbox.app import InboxSettings, create_app
from grader.instructor.term.inbox_store import ensure_tokens, handins
from grader.instructor.term.roster import Student
from grader.instructor.term.store import import_roster
from tests.support.classroom import (
    BAD_ARCHIVES,
    bad_archive,
    reference_files,
    with_manifest,
    zip_bytes,
)


@dataclass
class Inbox:
    client: TestClient
    book: Gradebook
    folder: Path
    tokens: dict[str, str]

    def hand_in(self, student: str, body: bytes, token: str | None = None) -> tuple[int, dict]:  # type: ignore[type-arg]
        headers = {
            "X-Grader-Student": student,
            "Authorization": f"Bearer {self.tokens.get(student, 'x') if token is None else token}",
        }
        answer = self.client.post("/handin", content=body, headers=headers)
        return answer.status_code, answer.json()

    def stored(self) -> list[str]:
        return sorted(str(p.relative_to(self.folder)) for p in self.folder.rglob("*"))


def handin_zip(student: str, named: str | None = None, extra: str = "") -> bytes:
    files = reference_files(student)
    if extra:
        files = {**files, "EX-11-02/answer.md": files["EX-11-02/answer.md"] + extra}
    return zip_bytes(with_manifest(named or student, files))


def make_inbox(tmp_path: Path, **settings: int | str) -> Iterator[Inbox]:
    folder = tmp_path / "submissions"
    folder.mkdir()
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    import_roster(book, [Student("alice", "王小明"), Student("bob", "李华")])
    tokens = {row.student: row.token for row in ensure_tokens(book)}
    app = create_app(InboxSettings(folder, lang="en", **settings), book)  # type: ignore[arg-type]
    with TestClient(app) as client:
        yield Inbox(client, book, folder, tokens)
    book.close()


@pytest.fixture
def inbox(tmp_path: Path) -> Iterator[Inbox]:
    yield from make_inbox(tmp_path)


def test_an_accepted_hand_in_is_kept_as_the_next_version_and_graded_copy(inbox: Inbox) -> None:
    first = handin_zip("alice")
    status, receipt = inbox.hand_in("alice", first)
    assert status == 200, receipt
    assert receipt["version"] == 1 and receipt["size"] == len(first)
    assert receipt["exercises"] == ["EX-11-01", "EX-11-02", "EX-12-01", "EX-12-02", "EX-13-01",
                                    "EX-13-02"]  # fmt: skip
    assert (inbox.folder / "alice.zip").read_bytes() == first
    second = handin_zip("alice", extra="\n补充一句。\n")
    status, receipt = inbox.hand_in("alice", second)
    assert status == 200 and receipt["version"] == 2
    assert (inbox.folder / "alice.zip").read_bytes() == second  # the newest is graded
    kept = sorted(p.read_bytes() for p in (inbox.folder / ".versions" / "alice").iterdir())
    assert kept == sorted([first, second])  # every version kept
    views = handins(inbox.book, "alice")
    assert [v.version for v in views] == [1, 2]
    assert views[0].received_at <= views[1].received_at
    answer = inbox.client.get(
        "/status",
        headers={"X-Grader-Student": "alice", "Authorization": f"Bearer {inbox.tokens['alice']}"},
    )
    assert [h["version"] for h in answer.json()["handins"]] == [1, 2]


@pytest.mark.parametrize(
    ("student", "token", "status"),
    [
        ("alice", "wrong-token", 401),
        ("alice", "", 401),
        ("mallory", "anything", 401),  # not on the roster: no token
        ("../../etc", "x", 400),
        ("", "x", 400),
    ],
)
def test_a_hand_in_without_the_students_token_stores_nothing(
    inbox: Inbox, student: str, token: str, status: int
) -> None:
    got, answer = inbox.hand_in(student, handin_zip("alice"), token=token)
    assert got == status, answer
    assert inbox.stored() == [] and handins(inbox.book) == []


def test_another_students_token_does_not_open_their_inbox(inbox: Inbox) -> None:
    got, answer = inbox.hand_in("alice", handin_zip("alice"), token=inbox.tokens["bob"])
    assert got == 401 and answer["error"] == "inbox.bad_token"
    assert inbox.stored() == []


def test_a_zip_naming_another_student_is_refused(inbox: Inbox) -> None:
    got, answer = inbox.hand_in("alice", handin_zip("bob"))  # bob's manifest, alice's token
    assert got == 422 and answer["error"] == "inbox.bad_zip"
    assert "bob" in answer["message"]
    assert inbox.stored() == [] and handins(inbox.book) == []


@pytest.mark.parametrize("kind", BAD_ARCHIVES)
def test_a_zip_grade_would_refuse_is_refused_before_it_is_stored(inbox: Inbox, kind: str) -> None:
    got, answer = inbox.hand_in("alice", bad_archive(kind, "alice"))
    assert got == 422, answer
    assert inbox.stored() == [] and handins(inbox.book) == []


def test_an_oversized_upload_is_refused_by_its_length_and_while_it_streams(
    tmp_path: Path,
) -> None:
    for inbox in make_inbox(tmp_path, max_bytes=4096):
        big = b"PK" + b"\0" * 10_000
        assert inbox.hand_in("alice", big)[0] == 413
        headers = {
            "X-Grader-Student": "alice",
            "Authorization": f"Bearer {inbox.tokens['alice']}",
        }
        chunks = iter([b"x" * 3000, b"x" * 3000])  # no Content-Length: counted as it comes
        answer = inbox.client.post("/handin", content=chunks, headers=headers)
        assert answer.status_code == 413
        assert inbox.stored() == [] and handins(inbox.book) == []


def test_uploads_are_limited_per_student_and_failures_per_client(tmp_path: Path) -> None:
    for inbox in make_inbox(tmp_path, uploads_per_window=2, failures_per_window=3):
        for _ in range(2):
            assert inbox.hand_in("alice", handin_zip("alice"))[0] == 200
        got, answer = inbox.hand_in("alice", handin_zip("alice"))
        assert got == 429 and answer["error"] == "inbox.too_many_uploads"
        assert inbox.hand_in("bob", handin_zip("bob"))[0] == 200  # bob has his own limit
        for _ in range(3):
            assert inbox.hand_in("bob", b"x", token="guess")[0] == 401
        got, answer = inbox.hand_in("bob", handin_zip("bob"))  # even with the right token
        assert got == 429 and answer["error"] == "inbox.too_many_failures"
        assert [v.student for v in handins(inbox.book)] == ["alice", "alice", "bob"]


def test_the_token_reaches_no_log_and_no_answer(
    inbox: Inbox, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    token = inbox.tokens["alice"]
    answers = [
        inbox.client.post("/handin", content=body, headers=headers)
        for body, headers in [
            (
                handin_zip("alice"),
                {"X-Grader-Student": "alice", "Authorization": f"Bearer {token}"},
            ),
            (handin_zip("bob"), {"X-Grader-Student": "alice", "Authorization": f"Bearer {token}"}),
            (b"x", {"X-Grader-Student": "alice", "Authorization": f"Bearer {token}x"}),
        ]
    ]
    assert [a.status_code for a in answers] == [200, 422, 401]
    seen = caplog.text + "".join(capsys.readouterr()) + "".join(a.text for a in answers)
    assert token not in seen


def test_tokens_are_kept_on_a_rerun_and_rotated_on_request(inbox: Inbox) -> None:
    again = {row.student: row.token for row in ensure_tokens(inbox.book)}
    assert again == inbox.tokens
    rotated = {row.student: row.token for row in ensure_tokens(inbox.book, ["bob"])}
    assert rotated["alice"] == inbox.tokens["alice"] and rotated["bob"] != inbox.tokens["bob"]
    assert inbox.hand_in("bob", handin_zip("bob"))[0] == 401  # the old token is dead


def test_behind_a_hub_proxy_the_inbox_answers_under_its_base_path(tmp_path: Path) -> None:
    for inbox in make_inbox(tmp_path, base_path="/services/inbox/"):
        headers = {"X-Grader-Student": "alice", "Authorization": f"Bearer {inbox.tokens['alice']}"}
        answer = inbox.client.post("/services/inbox/handin", content=handin_zip("alice"),
                                   headers=headers)  # fmt: skip
        assert answer.status_code == 200, answer.text
        assert inbox.client.post("/handin", content=b"x", headers=headers).status_code == 404
