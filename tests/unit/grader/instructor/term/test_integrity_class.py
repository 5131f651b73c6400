"""Integrity on a whole class: 48 honest probes of EX-11-01, EX-12-01 and EX-13-01 in
seven styles with their authors' own names, messages and comments (``files/
integrity_class/honest``, written by ``make_class.py``), the 20 honest probes of the
corpus (``tests/e2e/files/corpus/*/correct``), and 13 copies of honest probes disguised
as copiers do: no-op padding, ``if True:``, split asserts, reordered cases, renamed
variables, new comments, re-spacing (``files/integrity_class/copies``).

Wanted, and measured: 0 false reports among the honest, every copy caught."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import GradingKey
from grader.instructor.term.integrity import base_texts, integrity_report
from grader.instructor.term.store import receipts
from grader.judge.exercises import exercise_ids, get_exercise
from tests.support.classroom import REPO
from tests.unit.grader.instructor.gradebook.factories import code_entry

CLASS = Path(__file__).parent / "files" / "integrity_class"
CORPUS = REPO / "tests" / "e2e" / "files" / "corpus"
KINDS = {e: get_exercise(e).kind for e in exercise_ids()}


def _hand_ins() -> dict[tuple[str, str], str]:
    """(exercise, student) -> text: every honest probe and every copy."""
    found = {(p.parent.name, p.stem.split("_")[0]): p for p in CLASS.glob("honest/*/*.py")}
    found |= {(p.parts[-3], f"corpus-{p.stem}"): p for p in CORPUS.glob("*/correct/*.py")}
    found |= {(p.parent.name, p.stem.split("_")[0]): p for p in CLASS.glob("copies/*/*.py")}
    return {key: path.read_text(encoding="utf-8") for key, path in sorted(found.items())}


def _copied() -> set[tuple[str, str, str]]:
    """(exercise, first, second) of every copy and the probe it copies, names sorted."""
    pairs = set()
    for path in CLASS.glob("copies/*/*.py"):
        copier, original = path.stem.split("_of_")
        pairs.add((path.parent.name, *sorted((copier, original))))
    return pairs  # type: ignore[return-value]


def test_no_honest_student_is_reported_and_every_copy_is(tmp_path: Path) -> None:
    hand_ins = _hand_ins()
    copied = _copied()
    honest = [k for k in hand_ins if not re.fullmatch(r"c\d+", k[1])]
    assert len(honest) >= 40 and len(copied) >= 10
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    for (exercise, student), text in hand_ins.items():
        entry = code_entry(student, text)
        key = GradingKey(student, exercise, entry.key.content_sha256, entry.key.verdict_fingerprint)
        book.record(replace(entry, key=key))
    report = integrity_report(book.results(), base_texts(REPO), receipts(book), KINDS)
    book.close()
    reported = {(p.exercise, p.first, p.second) for p in report.near}
    false_reports = sorted(reported - copied)
    missed = sorted(copied - reported)
    print(
        f"\nintegrity class: {len(honest)} honest probes, {len(copied)} disguised copies; "
        f"{len(false_reports)} false report(s), {len(copied) - len(missed)} of "
        f"{len(copied)} copies caught"
    )
    assert false_reports == []
    assert missed == []
    assert report.identical == {} and report.reference == []
    for pair in report.near:  # every report says why
        assert pair.evidence.weight >= 2 and pair.containment >= 0.7, pair
