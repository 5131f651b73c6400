"""The exercise registry: every ``grader/judge/exercises/ex_<lesson>_<number>.py`` is an exercise.

Discovered, never listed by hand: the module ``ex_12_01`` holds ``EXERCISE`` with id
``EX-12-01`` (checked when it is imported). Modules are imported only when asked for. A
prose spec gets its rubric from its answer key in ``grader/private/`` when there is one.
See "Adding an exercise" in grader/README.md.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path

from grader.errors import UnknownExercise
from grader.judge.exercises.answer_key import with_answer_key
from grader.judge.exercises.spec import Exercise, ProseExercise
from grader.judge.sanitize import visible

_MODULE_NAME = re.compile(r"^ex_(\d{2})_(\d{2})$")
_SHAPE = re.compile(r"^(?:EX)?[-_ ]?(\d{1,2})[-_ ]?(\d{1,2})$")


def _modules() -> dict[str, str]:
    """Exercise id -> module name, for every ``ex_NN_MM`` module of this package, sorted."""
    found = {}
    for module in pkgutil.iter_modules(__path__):
        match = _MODULE_NAME.match(module.name)
        if match and not module.ispkg:
            found[f"EX-{match[1]}-{match[2]}"] = f"{__name__}.{module.name}"
    return dict(sorted(found.items()))


def module_file(exercise_id: str) -> Path | None:
    """The spec module's source file of a known exercise (None if it has no file)."""
    spec = importlib.util.find_spec(_modules()[normalize_id(exercise_id)])
    return None if spec is None or not spec.origin else Path(spec.origin).resolve()


def exercise_ids() -> tuple[str, ...]:
    return tuple(_modules())


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
    modules = _modules()
    module_name = modules.get(normalized)
    if module_name is None:
        close = closest(normalized, tuple(modules))
        raise UnknownExercise(
            "error.unknown_exercise_suggest" if close else "error.unknown_exercise",
            given=visible(exercise_id),
            suggestion=close[0] if close else None,
            known=", ".join(modules),
        )
    spec: Exercise = importlib.import_module(module_name).EXERCISE
    if spec.id != normalized:
        raise ValueError(f"{module_name} declares {spec.id}: rename the module or fix the id")
    return with_answer_key(spec) if isinstance(spec, ProseExercise) else spec
