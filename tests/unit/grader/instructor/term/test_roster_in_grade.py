"""``grade`` against the roster: off-roster ids and roster students with nothing handed in
are named; ``--roster-only`` keeps roster ids only (and needs a roster); no roster, no
change. And ``grader extend``: grant, list, revoke."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import UsageError
from grader.frontends.cli import main
from grader.instructor.batch.layout import Discovery, StudentSource
from grader.instructor.batch.run import _against_roster
from grader.instructor.gradebook import Gradebook
from grader.instructor.term.roster import Student
from grader.instructor.term.store import extensions, import_roster

CLASS = Discovery(
    tuple(StudentSource(s, Path(s), "folder") for s in ("alice", "mallory")), ("notes.txt",)
)


def _run(book: Gradebook, roster_only: bool) -> tuple[list[str], list[tuple[str, dict]]]:  # type: ignore[type-arg]
    notes: list[tuple[str, dict]] = []  # type: ignore[type-arg]
    kept = _against_roster(book, CLASS, roster_only, lambda i, p: notes.append((i, p)))
    return [s.student for s in kept.students], notes


def test_roster_gaps_are_named_and_roster_only_keeps_the_roster(tmp_path: Path) -> None:
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        assert _run(book, False) == (["alice", "mallory"], [])  # no roster: as before
        with pytest.raises(UsageError) as raised:
            _run(book, True)
        assert raised.value.message_id == "error.no_roster"
        import_roster(book, [Student("alice", "王小明"), Student("bob", "李华")])
        kept, notes = _run(book, False)
        assert kept == ["alice", "mallory"]
        assert notes == [
            ("batch.off_roster", {"count": 1, "students": "mallory"}),
            ("batch.no_submission", {"count": 1, "students": "bob"}),
        ]
        kept, notes = _run(book, True)
        assert kept == ["alice"] and notes[0][0] == "batch.off_roster_skipped"


def test_extend_grants_lists_and_revokes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no course.toml here: no due dates, extensions still kept
    db = ["--db", f"sqlite:///{tmp_path / 'g.db'}", "--lang", "en"]
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        import_roster(book, [Student("alice", "王小明")])
    assert main(["extend", "alice", "EX-11-01", "--until", "2026-12-09T23:59Z",
                 "--reason", "病假", *db]) == 0  # fmt: skip
    assert "Extension recorded: alice, EX-11-01" in capsys.readouterr().out
    assert main(["extend", "--list", *db]) == 0
    assert capsys.readouterr().out.split("\t")[:3] == [
        "alice",
        "EX-11-01",
        "2026-12-09T23:59:00+00:00",
    ]
    assert main(["extend", "alice", "EX-11-01", "--until", "next week", *db]) == 2
    assert main(["extend", "alice", "EX-11-01", "--revoke", *db]) == 0
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        assert extensions(book) == []
