"""Integrity both ways: a byte-for-byte copy is an identical group; a copy with renamed
names, new comments and re-spacing is near-identical; students who all handed in the
course's solution (or the starter) are not flagged, nor are different probes."""

from __future__ import annotations

import re
from pathlib import Path

from grader.instructor.gradebook import Gradebook
from grader.instructor.term.integrity import base_texts, integrity_report
from grader.instructor.term.store import receipts
from grader.instructor.term.winnow import code_tokens, fingerprints, similarity
from grader.judge.exercises import exercise_ids, get_exercise
from tests.support.classroom import REPO, WRONG, signed, solution, starter
from tests.unit.grader.instructor.gradebook.factories import code_entry

KINDS = {e: get_exercise(e).kind for e in exercise_ids()}


def disguised(text: str) -> str:
    """The same program with every local name renamed, comments added, lines re-spaced."""
    renamed = re.sub(
        r"\b(policy|delays|attempt|result|error)\b", lambda m: f"my_{m.group(1)}x", text
    )
    return "# my own work\n" + renamed.replace("    ", "        ").replace("\n", "\n\n")


def test_renaming_and_reformatting_does_not_hide_a_copy() -> None:
    base = fingerprints(code_tokens(solution("EX-13-01")))  # what the course printed
    original = (WRONG / "EX-13-01" / "orm_event_injection.py").read_text()
    other = (WRONG / "EX-13-01" / "no_duplicate_delivery.py").read_text()
    own = fingerprints(code_tokens(original)) - base
    assert len(own) >= 6
    assert similarity(own, fingerprints(code_tokens(disguised(original))) - base) == 1.0
    assert similarity(own, fingerprints(code_tokens(other)) - base) < 0.8  # 0.67: related


def test_the_report_finds_copies_and_nothing_among_honest_students(tmp_path: Path) -> None:
    copied = (WRONG / "EX-13-01" / "orm_event_injection.py").read_text()
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    entries = {
        "ana": signed("EX-11-01", solution("EX-11-01"), "ana"),  # the taught solution
        "ben": signed("EX-11-01", solution("EX-11-01"), "ben"),
        "cy": starter("EX-11-01"),  # the untouched starter, twice
        "dee": starter("EX-11-01"),
        "eve": (WRONG / "EX-11-01" / "wrong_policy.py").read_text(),
        "fay": (WRONG / "EX-11-01" / "wrong_policy.py").read_text(),  # byte for byte
        "gil": (WRONG / "EX-11-01" / "skips_exhaustion.py").read_text(),
    }
    for student, text in entries.items():
        book.record(code_entry(student, text))
    from dataclasses import replace

    from grader.instructor.gradebook.entries import GradingKey

    for student, text in (("hal", copied), ("ivy", disguised(copied))):
        entry = code_entry(student, text)
        key = GradingKey(
            student, "EX-13-01", entry.key.content_sha256, entry.key.verdict_fingerprint
        )
        book.record(replace(entry, key=key))
    report = integrity_report(book.results(), base_texts(REPO), receipts(book), KINDS)
    book.close()
    assert report.identical == {"EX-11-01": [["eve", "fay"]]}
    assert [(p.exercise, p.first, p.second) for p in report.near] == [("EX-13-01", "hal", "ivy")]
    assert report.manifests == []


def test_without_the_base_every_solution_looks_copied(tmp_path: Path) -> None:
    """The exclusion is what keeps honest students out: the same class, no base."""
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    for student in ("ana", "ben"):
        book.record(code_entry(student, signed("EX-11-01", solution("EX-11-01"), student)))
    report = integrity_report(book.results(), {}, receipts(book), KINDS)
    book.close()
    assert [(p.first, p.second) for p in report.near] == [("ana", "ben")]
