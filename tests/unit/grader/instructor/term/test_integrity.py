"""Integrity both ways: a byte-for-byte copy is an identical group (error rows too); a
copy with renamed names, new comments, re-spacing, no-op padding, split asserts or
reordered cases is near-identical, with its reasons; students who handed in the course's
solution are reported as matching it, not as copying each other; two students who wrote
the obvious probe independently are not reported."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import GradingKey, error_entry
from grader.instructor.term.integrity import NearPair, base_texts, integrity_report
from grader.instructor.term.reasons import near_line
from grader.instructor.term.store import receipts
from grader.instructor.term.winnow import code_tokens, fingerprints, similarity, without_no_ops
from grader.judge.exercises import exercise_ids, get_exercise
from grader.render.catalog import render_message
from tests.support.classroom import REPO, WRONG, signed, solution, starter
from tests.unit.grader.instructor.gradebook.factories import code_entry, key, prose_entry

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
    for student, text in (("hal", copied), ("ivy", disguised(copied))):
        entry = code_entry(student, text)
        key = GradingKey(
            student, "EX-13-01", entry.key.content_sha256, entry.key.verdict_fingerprint
        )
        book.record(replace(entry, key=key))
    report = integrity_report(book.results(), base_texts(REPO), receipts(book), KINDS)
    book.close()
    assert report.identical == {"EX-11-01": [["eve", "fay"]]}
    assert report.reference == [("EX-11-01", "ana"), ("EX-11-01", "ben")]
    assert [(p.exercise, p.first, p.second) for p in report.near] == [("EX-13-01", "hal", "ivy")]
    assert report.manifests == []


def test_without_the_base_the_solution_looks_copied(tmp_path: Path) -> None:
    """The exclusion is what keeps honest students out: the same class, no base."""
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    for student in ("ana", "ben"):
        book.record(code_entry(student, signed("EX-11-01", solution("EX-11-01"), student)))
    report = integrity_report(book.results(), {}, receipts(book), KINDS)
    book.close()
    assert [(p.first, p.second) for p in report.near] == [("ana", "ben")]


PAIR = Path(__file__).parent / "files" / "integrity_class" / "pair"
#: A probe with its author's names and messages; the copies below are made from it.
ORIGINAL = (PAIR / "lukas.py").read_text(encoding="utf-8")
#: The same obvious shape, written by someone else: other names, other comments.
INDEPENDENT = (PAIR / "mei.py").read_text(encoding="utf-8")


def padded(text: str) -> str:
    """The copy of issue 31: ``_ = None`` after every line (and ``pass``, ``if True:``)."""
    lines = []
    for line in text.splitlines():
        lines.append(line)
        if line and not line.startswith(("#", "from ")):
            lines += ["_ = None", "pass", "if True:", "    0"]
    return "\n".join(lines) + "\n"


def split_asserts(text: str) -> str:
    """``assert (a, b, c) == (x, y, z), msg`` -> three asserts, one per field."""

    def split(match: re.Match[str]) -> str:
        lefts, rights = match.group(1).split(", "), match.group(2).split(", ")
        pairs = zip(lefts, rights, strict=True)
        return "\n".join(f"assert {a} == {b}, {match.group(3)}" for a, b in pairs)

    return re.sub(r"^assert \((.*?)\) == \((.*?)\), (.*)$", split, text, flags=re.M)


def reordered(text: str) -> str:
    """The four case blocks in the opposite order."""
    head, *blocks = text.split("\n\n")
    return "\n\n".join([head, blocks[0], *reversed(blocks[1:])]).rstrip() + "\n"


def _report(tmp_path: Path, texts: dict[str, str], exercise: str = "EX-11-01") -> Any:
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    for student, text in texts.items():
        entry = code_entry(student, text)
        key = GradingKey(student, exercise, entry.key.content_sha256, entry.key.verdict_fingerprint)
        book.record(replace(entry, key=key))
    report = integrity_report(book.results(), base_texts(REPO), receipts(book), KINDS)
    book.close()
    return report


def test_two_independently_written_probes_of_the_obvious_shape_are_not_reported(
    tmp_path: Path,
) -> None:
    """Issue 31 measured these at share 1.0: names reduced to their kind, they are one
    token stream. Without evidence beyond structure they are not reported."""
    assert code_tokens(without_no_ops(ORIGINAL)) == code_tokens(without_no_ops(INDEPENDENT))
    report = _report(tmp_path, {"lukas": ORIGINAL, "mei": INDEPENDENT})
    assert report.near == [] and report.identical == {}


def test_copies_padded_split_or_reordered_are_reported_with_their_reasons(
    tmp_path: Path,
) -> None:
    copies = {
        "c_padded": padded(ORIGINAL),
        "c_split": split_asserts(ORIGINAL),
        "c_reordered": reordered(ORIGINAL),
        "c_all": reordered(split_asserts(padded(ORIGINAL))),
    }
    for text in copies.values():
        assert text != ORIGINAL
        compile(text, "copy.py", "exec")
    # what issue 31 measured: the padded copy fell to 0.42 before no-op removal
    raw = [fingerprints(code_tokens(t)) for t in (ORIGINAL, copies["c_padded"])]
    assert similarity(*raw) < 0.5
    reported: dict[tuple[str, str], NearPair] = {}
    for n, (student, text) in enumerate(copies.items()):  # each copier on their own
        (tmp_path / str(n)).mkdir()
        report = _report(tmp_path / str(n), {"lukas": ORIGINAL, "mei": INDEPENDENT, student: text})
        [pair] = report.near  # the honest one, still not reported
        assert (pair.first, pair.second) == tuple(sorted((student, "lukas"))), pair
        assert "lukas_policy" in pair.evidence.names, pair
        assert pair.containment >= 0.7 and 0 < pair.share <= pair.containment
        assert report.identical == {}
        reported[(pair.first, pair.second)] = pair
    line = near_line(reported[("c_padded", "lukas")], "en")
    assert "rare names both use: 'first_try'" in line and "'lukas_policy'" in line
    assert "the same strings: 'row 1 is off'" in line and "/pair/EX-11-01/c_padded/lukas" in line


def test_a_hand_in_equal_to_the_reference_solution_is_reported_as_such(tmp_path: Path) -> None:
    reformatted = "# my work\n" + solution("EX-13-01").replace("    ", "        ")
    texts = {
        "ana": solution("EX-13-01"),
        "ben": reformatted,
        "cy": solution("EX-13-01") + "_ = None\npass\n",
    }
    report = _report(tmp_path, texts, "EX-13-01")
    assert report.reference == [("EX-13-01", s) for s in ("ana", "ben", "cy")]
    assert report.identical == {} and report.near == []
    lines = [render_message("integrity.reference", {"exercise": e, "student": s}, "en")
             for e, s in report.reference]  # fmt: skip
    assert lines[0].startswith("EX-13-01: ana handed in the reference solution (")


def test_identical_error_rows_are_compared_too(tmp_path: Path) -> None:
    """Two equal files that both crashed are as copied as two that passed."""
    crashing = ORIGINAL + "raise SystemExit(3)  # lukas was here\n"
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    for student in ("lukas", "mei"):
        book.record(
            error_entry(key(student, "EX-11-01", crashing), "code", 10.0, "run.crashed", {},
                        file_name="retry_policy_probe.py", content=crashing)
        )  # fmt: skip
    report = integrity_report(book.results(), base_texts(REPO), receipts(book), KINDS)
    book.close()
    assert [r.status for r in book.results()] == ["error", "error"]
    assert report.identical == {"EX-11-01": [["lukas", "mei"]]}


def test_prose_near_copies_use_the_groups_character_measure(tmp_path: Path) -> None:
    model = (REPO / "solutions" / "EX-11-02" / "answer.md").read_text(encoding="utf-8")
    own = model.replace("\n", "\n我的理解：", 1) + "\n补充：我在实验里看到了重复投递。\n"
    near = own.replace("我的理解", "我的想法")  # two characters
    other = own.replace(
        "补充：我在实验里看到了重复投递。", "补充：prefetch 会让一个 worker 一次拿走多条消息。"
    )
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    for student, text in (("ann", own), ("bob", near), ("cat", other), ("dan", model)):
        book.record(prose_entry(student, text))
    report = integrity_report(book.results(), base_texts(REPO), receipts(book), KINDS)
    book.close()
    assert [(p.first, p.second, p.basis, p.distance) for p in report.near] == [
        ("ann", "bob", "prose", 2)
    ]
    assert report.reference == [("EX-11-02", "dan")]
