"""The exercise registry: ids -> spec modules, imported only when asked for."""

from __future__ import annotations

import difflib
import importlib
import re

from grader.errors import UnknownExercise
from grader.exercises.spec import Exercise
from grader.render.sanitize import visible

_MODULES = {
    "EX-11-01": "grader.exercises.ex_11_01",
    "EX-11-02": "grader.exercises.ex_11_02",
    "EX-12-01": "grader.exercises.ex_12_01",
    "EX-12-02": "grader.exercises.ex_12_02",
    "EX-13-01": "grader.exercises.ex_13_01",
    "EX-13-02": "grader.exercises.ex_13_02",
}
_SHAPE = re.compile(r"^(?:EX)?[-_ ]?(\d{1,2})[-_ ]?(\d{1,2})$")


def exercise_ids() -> tuple[str, ...]:
    return tuple(_MODULES)


def normalize_id(text: str) -> str:
    """'ex-12-01', 'EX_12_1', '12-01', 'ex1201' -> 'EX-12-01' (unknown shapes unchanged)."""
    match = _SHAPE.match(text.strip().upper())
    if not match:
        return text.strip()
    lesson, number = (int(group) for group in match.groups())
    return f"EX-{lesson:02d}-{number:02d}"


def closest(given: str, known: tuple[str, ...]) -> list[str]:
    """The most similar known id (difflib ratio; ties go to the most same-position chars)."""
    upper = given.upper()
    candidates = difflib.get_close_matches(upper, known, n=len(known), cutoff=0.8)
    if not candidates:
        return []

    def score(candidate: str) -> tuple[float, int]:
        same = sum(a == b for a, b in zip(upper, candidate, strict=False))
        return difflib.SequenceMatcher(None, upper, candidate).ratio(), same

    return [max(candidates, key=score)]


def get_exercise(exercise_id: str) -> Exercise:
    """The spec for ``exercise_id``; ``UnknownExercise`` suggests the closest id."""
    normalized = normalize_id(exercise_id)
    module_name = _MODULES.get(normalized)
    if module_name is None:
        close = closest(normalized, tuple(_MODULES))
        raise UnknownExercise(
            "error.unknown_exercise_suggest" if close else "error.unknown_exercise",
            given=visible(exercise_id),
            suggestion=close[0] if close else None,
            known=", ".join(_MODULES),
        )
    spec: Exercise = importlib.import_module(module_name).EXERCISE
    return spec
