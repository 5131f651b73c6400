"""``grader integrity``: hand-ins that are the same, or nearly, per exercise, each with the
reasons an instructor can forward.

- **identical**: the same judged content (sha256), whatever the row's status (two equal
  files that both crashed are as copied as two that passed). The starter's and the
  reference solution's own bytes are left out: they are not a classmate's work (two
  byte-identical copies of a *signed* solution are still identical to each other).
- **matches the reference solution**: a hand-in whose code, comments and no-op statements
  aside, is the solution's (a prose answer within ``FEW`` characters of the model answer).
- **near-identical code**: winnowing fingerprints (``winnow``) of each program with its
  no-op statements removed and its asserts split. Fingerprints of the obvious shape (the
  starter, the solution, the statement's code) are dropped, and so are those more than
  ``max(COMMON_AT_LEAST, COMMON_SHARE * class)`` hand-ins share (MOSS's rule: what the whole
  class writes is not copying). A pair is reported when (1) its structure matches: at least
  ``THRESHOLD`` of the smaller hand-in's own fingerprints are in the other (containment,
  shown beside Jaccard), or both are the obvious shape and nothing else; **and** (2) the
  raw texts share rare items (``evidence``): names, string literals, comments, weighed by
  ``MIN_EVIDENCE``. Structure alone never accuses: two students who wrote the obvious
  probe share all of it.
- **near-identical prose**: answers within ``FEW`` characters of each other (the measure
  answer groups use), the template and model answer left out.
- **manifest**: zips whose manifest names another student than the zip's name.

Why not ``copydetect`` (PyPI): it winnows with boilerplate exclusion, as this does, but it
has no notion of no-op padding or of evidence beyond structure, and reports on shares
alone. Measured (copydetect 0.5.0, k=25, window 1, starter and solution as boilerplate) on
the class of ``tests/unit/grader/instructor/term/test_integrity_class.py`` (68 honest
probes, 13 disguised copies): at its default display threshold 0.33, 124 false reports and
9 of 13 copies caught; at 0.9, 56 false reports and 6 caught. This module: 0 and 13. It
would also pull numpy and matplotlib into the instructor's install.

It reads the gradebook only: no student code runs.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from grader.instructor.gradebook.entries import sha256_text
from grader.instructor.gradebook.groups import as_read, distance, folded
from grader.instructor.gradebook.views import ResultView
from grader.instructor.term.evidence import ClassItems, Evidence, raw_items, vocabulary
from grader.instructor.term.store import ReceiptView
from grader.instructor.term.winnow import code_tokens, fingerprints, without_no_ops

#: Share of the smaller hand-in's own fingerprints the other must hold.
THRESHOLD = 0.7
#: Both hand-ins are the obvious shape: nearly all of their fingerprints in common.
OBVIOUS_THRESHOLD = 0.9
#: Fewer own fingerprints than this: the hand-in is the obvious shape and nothing else.
MIN_PRINTS = 6
#: Weight of rare raw-text items (``Evidence.weight``: a name 1, a message or comment 2) a
#: pair must share: a sentence or two names beside own code that matched; more when both
#: hand-ins are only the obvious shape (their structure says nothing).
MIN_EVIDENCE = {"code": 2, "obvious": 3}
#: MOSS's rule: a fingerprint more hand-ins than this share is the class's, not a copy's.
COMMON_AT_LEAST = 4
COMMON_SHARE = 0.1
_CODE_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Base:
    """What the course gave every student for one exercise."""

    starter: str = ""
    solution: str = ""
    statement: str = ""

    @property
    def shapes(self) -> list[str]:
        """The obvious shape: the starter, the solution and the statement's code blocks."""
        blocks = _CODE_BLOCK.findall(self.statement)
        return [t for t in (self.starter, self.solution, *blocks) if t]


@dataclass(frozen=True)
class NearPair:
    exercise: str
    first: str
    second: str
    #: Jaccard of the two hand-ins' own fingerprints (code) or 1 - distance/length (prose).
    share: float
    #: Share of the smaller hand-in's own fingerprints found in the other.
    containment: float
    evidence: Evidence = field(default_factory=lambda: Evidence((), (), (), ()))
    #: "code" (own code matched), "obvious" (both only the obvious shape) or "prose".
    basis: str = "code"
    #: Prose: characters by which the answers differ.
    distance: int = 0


@dataclass(frozen=True)
class IntegrityReport:
    #: exercise -> groups of students with identical content
    identical: dict[str, list[list[str]]]
    near: list[NearPair]
    #: (student, the student their manifest names)
    manifests: list[tuple[str, str]]
    #: (exercise, student) whose hand-in is the reference solution
    reference: list[tuple[str, str]] = field(default_factory=list)

    def pair(self, exercise: str, first: str, second: str) -> NearPair | None:
        a, b = sorted((first, second))
        return next(
            (p for p in self.near if (p.exercise, p.first, p.second) == (exercise, a, b)), None
        )

    def partners(self, student: str, exercise: str) -> list[str]:
        """Every student reported with ``student`` on ``exercise`` (identical or near)."""
        found = [s for g in self.identical.get(exercise, []) if student in g for s in g]
        for p in self.near:
            if p.exercise == exercise and student in (p.first, p.second):
                found += [p.first, p.second]
        return sorted(set(found) - {student})

    def to_json(self) -> dict[str, Any]:
        return {
            "identical": self.identical,
            "near_identical": [
                {
                    "exercise": p.exercise,
                    "students": [p.first, p.second],
                    "share": p.share,
                    "containment": p.containment,
                    "basis": p.basis,
                    "distance": p.distance,
                    "rare_names": list(p.evidence.names),
                    "shared_strings": list(p.evidence.strings),
                    "shared_comments": list(p.evidence.comments),
                    "shared_lines": list(p.evidence.lines),
                }
                for p in self.near
            ],
            "matches_reference_solution": [
                {"exercise": e, "student": s} for e, s in self.reference
            ],
            "manifest_names_another_student": [
                {"student": s, "manifest_student": c} for s, c in self.manifests
            ],
        }


def base_texts(root: Path | None) -> dict[str, Base]:
    """exercise id -> its starter, reference solution and statement (what is not copying)."""
    from grader.judge.exercises import exercise_ids, get_exercise

    if root is None:
        return {}
    found: dict[str, Base] = {}
    for exercise_id in exercise_ids():
        name = get_exercise(exercise_id).student_file
        texts = [
            path.read_text(encoding="utf-8") if path.is_file() else ""
            for path in (
                root / "exercises" / exercise_id / name,
                root / "solutions" / exercise_id / name,
                root / "exercises" / exercise_id / "README.md",
            )
        ]
        found[exercise_id] = Base(*texts)
    return found


def integrity_report(
    results: Sequence[ResultView],
    bases: Mapping[str, Base],
    receipts: Mapping[tuple[str, str, str], ReceiptView],
    kinds: Mapping[str, str],
) -> IntegrityReport:
    """``kinds``: exercise id -> "code" | "prose"."""
    handed_in = [r for r in results if r.status != "missing" and r.content]
    reference = sorted(
        (r.exercise, r.student)
        for r in handed_in
        if _is_reference(r.content or "", bases.get(r.exercise), kinds.get(r.exercise))
    )
    matched = set(reference)
    given = {(e, sha256_text(t)) for e, b in bases.items() for t in (b.starter, b.solution) if t}
    by_content: dict[tuple[str, str], list[str]] = defaultdict(list)
    for result in handed_in:  # the very bytes the course gave out are nobody's copy
        if (result.exercise, result.content_sha256) not in given:
            by_content[(result.exercise, result.content_sha256)].append(result.student)
    identical: dict[str, list[list[str]]] = {}
    for (exercise, _), students in sorted(by_content.items()):
        if len(students) > 1:
            identical.setdefault(exercise, []).append(sorted(students))
    for groups in identical.values():
        groups.sort()
    left_out = matched | {(e, s) for e, groups in identical.items() for g in groups for s in g[1:]}
    left_out |= {
        (r.exercise, r.student) for r in handed_in if (r.exercise, r.content_sha256) in given
    }
    per_exercise: dict[str, list[ResultView]] = defaultdict(list)
    for result in sorted(handed_in, key=lambda r: r.student):
        if (result.exercise, result.student) not in left_out:
            per_exercise[result.exercise].append(result)
    near: list[NearPair] = []
    for exercise, entries in sorted(per_exercise.items()):
        base = bases.get(exercise, Base())
        if kinds.get(exercise) == "prose":
            near += _near_prose(exercise, entries, base)
        else:
            near += _near_code(exercise, entries, base)
    manifests = sorted(
        {(s, r.manifest_student) for (s, _, _), r in receipts.items() if r.manifest_student}
    )
    return IntegrityReport(identical, near, manifests, reference)


def prose_text(answer: str) -> str:
    """A prose answer as its reader sees it (``as_read``, the groups' own), folded."""
    return folded(as_read(answer))


def _is_reference(content: str, base: Base | None, kind: str | None) -> bool:
    if base is None or not base.solution:
        return False
    if kind == "prose":
        return distance(prose_text(content), prose_text(base.solution)) is not None
    return without_no_ops(content) == without_no_ops(base.solution)


def _near_prose(exercise: str, entries: Sequence[ResultView], base: Base) -> list[NearPair]:
    """Answers within ``FEW`` characters of each other; the untouched template is not one."""
    texts = {r.student: prose_text(r.content or "") for r in entries}
    template = prose_text(base.starter)
    texts = {s: t for s, t in texts.items() if distance(t, template) is None}
    pairs: list[NearPair] = []
    for (a, text_a), (b, text_b) in combinations(sorted(texts.items()), 2):
        apart = distance(text_a, text_b)
        if apart is not None:
            share = round(1 - apart / max(len(text_a), len(text_b), 1), 2)
            pairs.append(NearPair(exercise, a, b, share, share, basis="prose", distance=apart))
    return pairs


def _near_code(exercise: str, entries: Sequence[ResultView], base: Base) -> list[NearPair]:
    prints = {
        r.student: fingerprints(code_tokens(without_no_ops(r.content or ""))) for r in entries
    }
    items = {r.student: raw_items(r.content or "") for r in entries}
    shape: set[int] = set()
    for text in base.shapes:
        shape |= fingerprints(code_tokens(without_no_ops(text)))
    counted = Counter(p for own in prints.values() for p in own)
    limit = max(COMMON_AT_LEAST, COMMON_SHARE * len(prints))
    ignored = shape | {p for p, n in counted.items() if n > limit}
    own = {s: p - ignored for s, p in prints.items()}
    course = vocabulary([base.starter, base.solution, base.statement])
    class_items = ClassItems(items, course)
    pairs: list[NearPair] = []
    for a, b in combinations(sorted(prints), 2):
        basis, jaccard, containment = _structure(own[a], own[b], prints[a], prints[b])
        if not basis:
            continue
        evidence = class_items.shared(a, b)
        if evidence.weight >= MIN_EVIDENCE[basis]:
            evidence = class_items.with_lines(a, b, evidence)
            pairs.append(NearPair(exercise, a, b, jaccard, containment, evidence, basis))
    return pairs


def _structure(
    own_a: set[int], own_b: set[int], all_a: set[int], all_b: set[int]
) -> tuple[str, float, float]:
    """("code" | "obvious" | "", Jaccard, containment) of two hand-ins' fingerprints."""
    if min(len(own_a), len(own_b)) >= MIN_PRINTS:
        shared = len(own_a & own_b)
        containment = shared / min(len(own_a), len(own_b))
        jaccard = shared / len(own_a | own_b)
        return (
            "code" if containment >= THRESHOLD else "",
            round(jaccard, 2),
            round(containment, 2),
        )
    if not all_a or not all_b or max(len(own_a), len(own_b)) >= MIN_PRINTS:
        return "", 0.0, 0.0
    shared = len(all_a & all_b)
    containment = shared / min(len(all_a), len(all_b))
    jaccard = shared / len(all_a | all_b)
    basis = "obvious" if containment >= OBVIOUS_THRESHOLD else ""
    return basis, round(jaccard, 2), round(containment, 2)
