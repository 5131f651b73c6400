"""The held-out prose set (issue 31): answers written as students write them, before the
rubric was tuned, each labelled with a human verdict in its file name
(``files/prose_heldout/<exercise>/<verdict>-<n>-<lang>.md``).

The provisional score agrees with the human: a ``good`` answer gets at least 60 % of the
maximum, a ``wrong`` one at most 40 %, a ``partial`` one never full marks.
``python -m tests.hostile.test_prose_heldout`` prints the figures per exercise.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric import answer_text, score_answer
from grader.judge.starters import starter_template
from grader.judge.statements import statement_text

FILES = Path(__file__).parent / "files" / "prose_heldout"
ANSWERS = sorted(FILES.glob("EX-*/*.md"))
GOOD, WRONG = 0.6, 0.4


def share(path: Path) -> tuple[float, dict[str, str]]:
    """The provisional share of the maximum, as ``grader check`` scores the file, and the
    status of each concept."""
    spec = get_exercise(path.parent.name)
    assert isinstance(spec, ProseExercise)
    template = starter_template(spec.id)
    text = answer_text(path.read_text(encoding="utf-8"), template)
    result = score_answer(spec, text, statement=statement_text(spec.id))
    return result.score / spec.max_score, {c.name: c.status for c in result.concepts}


def verdict(path: Path) -> str:
    return path.name.split("-")[0]


def agrees(path: Path, got: float) -> bool:
    kind = verdict(path)
    if kind == "good":
        return got >= GOOD
    if kind == "wrong":
        return got <= WRONG
    return got < 1.0


def test_the_set_is_large_and_bilingual() -> None:
    assert len(ANSWERS) >= 40
    for exercise in ("EX-11-02", "EX-12-02", "EX-13-02"):
        mine = [path for path in ANSWERS if path.parent.name == exercise]
        for kind in ("good", "wrong", "partial"):
            for lang in ("zh", "en"):
                assert any(verdict(p) == kind and p.stem.endswith(lang) for p in mine), (
                    exercise,
                    kind,
                    lang,
                )


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_provisional_score_agrees_with_the_human_verdict(path: Path) -> None:
    got, status = share(path)
    assert agrees(path, got), (f"{got:.0%}", status)


def main() -> None:
    agreed: dict[str, list[int]] = {}
    for path in ANSWERS:
        got, status = share(path)
        ok = agrees(path, got)
        row = agreed.setdefault(path.parent.name, [0, 0])
        row[0] += ok
        row[1] += 1
        mark = "ok  " if ok else "MISS"
        print(f"{mark} {path.parent.name}/{path.name:18} {got:5.0%}  {status}")
    for exercise, (ok, total) in agreed.items():
        print(f"{exercise}: {ok}/{total} agree with the human verdict")
    print(f"all: {sum(r[0] for r in agreed.values())}/{len(ANSWERS)}")


if __name__ == "__main__":
    main()
