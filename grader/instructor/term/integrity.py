"""``grader integrity``: submissions that are the same, or nearly, per exercise.

- **identical**: students whose judged content has the same sha256 (a zip copied byte for
  byte). Contents equal to the exercise's starter or reference solution are left out:
  handing in the starter, or the solution the course printed, is not copying a classmate.
- **near-identical** (code exercises): winnowing fingerprints (``winnow``) with the
  starter's and solution's fingerprints removed; a pair whose fingerprints overlap by at
  least ``THRESHOLD`` (Jaccard) is reported with its share. Prose answers share the template's
  headings, so only identical prose is reported.
- **manifest**: zips whose manifest names another student than the zip's name.

It reads the gradebook only: no student code runs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from grader.instructor.gradebook.entries import sha256_text
from grader.instructor.gradebook.views import ResultView
from grader.instructor.term.store import ReceiptView
from grader.instructor.term.winnow import code_tokens, fingerprints, similarity

THRESHOLD = 0.8
#: Fewer fingerprints than this left after removing the base: too little own code to say.
MIN_PRINTS = 6
GRADED = ("passed", "failed", "needs_review")


@dataclass(frozen=True)
class NearPair:
    exercise: str
    first: str
    second: str
    share: float


@dataclass(frozen=True)
class IntegrityReport:
    #: exercise -> groups of students with identical content
    identical: dict[str, list[list[str]]]
    near: list[NearPair]
    #: (student, the student their manifest names)
    manifests: list[tuple[str, str]]

    def to_json(self) -> dict[str, Any]:
        return {
            "identical": self.identical,
            "near_identical": [
                {"exercise": p.exercise, "students": [p.first, p.second], "share": p.share}
                for p in self.near
            ],
            "manifest_names_another_student": [
                {"student": s, "manifest_student": c} for s, c in self.manifests
            ],
        }


def base_texts(root: Path | None) -> dict[str, list[str]]:
    """exercise id -> the starter's and reference solution's text (what is not copying)."""
    from grader.judge.exercises import exercise_ids, get_exercise

    if root is None:
        return {}
    found: dict[str, list[str]] = {}
    for exercise_id in exercise_ids():
        name = get_exercise(exercise_id).student_file
        for folder in ("exercises", "solutions"):
            path = root / folder / exercise_id / name
            if path.is_file():
                found.setdefault(exercise_id, []).append(path.read_text(encoding="utf-8"))
    return found


def integrity_report(
    results: Sequence[ResultView],
    bases: Mapping[str, Sequence[str]],
    receipts: Mapping[tuple[str, str, str], ReceiptView],
    kinds: Mapping[str, str],
) -> IntegrityReport:
    """``kinds``: exercise id -> "code" | "prose"."""
    base_shas = {e: {sha256_text(t) for t in texts} for e, texts in bases.items()}
    by_content: dict[tuple[str, str], list[str]] = defaultdict(list)
    handed_in = [r for r in results if r.status in GRADED and r.content]
    for result in handed_in:
        if result.content_sha256 not in base_shas.get(result.exercise, set()):
            by_content[(result.exercise, result.content_sha256)].append(result.student)
    identical: dict[str, list[list[str]]] = {}
    for (exercise, _), students in sorted(by_content.items()):
        if len(students) > 1:
            identical.setdefault(exercise, []).append(sorted(students))
    for groups in identical.values():
        groups.sort()
    twins = {(e, s) for e, groups in identical.items() for g in groups for s in g[1:]}
    near = _near(handed_in, bases, kinds, twins)
    manifests = sorted(
        {(s, r.manifest_student) for (s, _, _), r in receipts.items() if r.manifest_student}
    )
    return IntegrityReport(identical, near, manifests)


def _near(
    results: Sequence[ResultView],
    bases: Mapping[str, Sequence[str]],
    kinds: Mapping[str, str],
    twins: set[tuple[str, str]],
) -> list[NearPair]:
    pairs: list[NearPair] = []
    per_exercise: dict[str, list[tuple[str, set[int]]]] = defaultdict(list)
    base_prints = {
        e: set().union(*(fingerprints(code_tokens(t)) for t in texts)) if texts else set()
        for e, texts in bases.items()
    }
    for result in results:
        if kinds.get(result.exercise) != "code" or (result.exercise, result.student) in twins:
            continue
        own = fingerprints(code_tokens(result.content or "")) - base_prints.get(
            result.exercise, set()
        )
        if len(own) >= MIN_PRINTS:
            per_exercise[result.exercise].append((result.student, own))
    for exercise, entries in sorted(per_exercise.items()):
        for (a, prints_a), (b, prints_b) in combinations(sorted(entries), 2):
            share = similarity(prints_a, prints_b)
            if share >= THRESHOLD:
                pairs.append(NearPair(exercise, a, b, round(share, 2)))
    return pairs
