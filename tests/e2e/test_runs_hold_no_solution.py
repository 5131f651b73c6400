"""A run's memory holds no reference solution's text, though its fork server was warmed up.

The master calls the effects exercises' warm-up (``grader.proxy.child.warm_effects``)
before it forks any fork server, and a run is a fork of its server: if a warm-up ever ran
a reference solution (or read one), the run could find it in its own memory. The probe
searches every readable page of its process and every file it can reach for each line
and each string constant of the three reference probes (by prefix, length and SHA-256,
so it never holds one itself). The control hands in the reference solution followed by
the same search, which finds it in memory there: a zero is a real zero.
"""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

import pytest

from grader.app.service import GradingService, GradingSettings
from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import CodeExercise
from grader.judge.results import CheckReport
from grader.judge.submission import load_submission
from tests.e2e.conftest import REPO
from tests.e2e.test_students_never_mix import SEARCH, SEARCH_LIMITS, _found

pytestmark = pytest.mark.e2e

CODE = ("EX-11-01", "EX-12-01", "EX-13-01")
PREFIX = 12


@pytest.fixture(autouse=True)
def _namespaces() -> None:
    from grader.runner import sandbox

    reason = sandbox.namespaces_unavailable()
    if reason:
        pytest.skip(f"requires Linux namespaces (the isolating sandbox), not available: {reason}")


def _solution(exercise_id: str) -> Path:
    exercise = get_exercise(exercise_id)
    return REPO / "solutions" / exercise_id / exercise.student_file


def _own_text() -> str:
    """The grader's and ticketflow's sources: a line found there too is no solution's."""
    files = [*(REPO / "grader").rglob("*.py"), *(REPO / "src").rglob("*.py")]
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


def solution_needles() -> list[str]:
    """The solved part of each reference probe: its lines and its string constants."""
    own = _own_text()
    needles: set[str] = set()
    for exercise_id in CODE:
        text = _solution(exercise_id).read_text(encoding="utf-8")
        solved = text.split("# BEGIN SOLUTION", 1)[1].split("# END SOLUTION", 1)[0]
        needles.update(line.strip() for line in solved.splitlines())
        for node in ast.walk(ast.parse(solved)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                needles.add(node.value.strip())
    return sorted(n for n in needles if len(n) >= 2 * PREFIX and n not in own)


def search_probe(needles: list[str], reachable_file: Path) -> str:
    """The memory and file search, looking for every needle (none is in its own text)."""
    encoded = [n.encode("utf-8") for n in needles]
    shown = [
        [data[:PREFIX].decode("utf-8", "ignore"), len(data), hashlib.sha256(data).hexdigest()]
        for data in encoded
    ]
    first, *more = shown
    search = SEARCH.read_text(encoding="utf-8")
    for placeholder, value in (
        ("__PREFIX__", _in_string(first[0])),
        ("__LENGTH__", str(first[1])),
        ("__DIGEST__", str(first[2])),
        ("__A_FILE__", str(reachable_file)),
        ("__NEEDLES__", _in_string(json.dumps(more))),
    ):
        search = search.replace(placeholder, value)
    for needle in needles:
        assert needle not in search
    return search


def _in_string(value: str) -> str:
    """``value`` escaped for the inside of a double-quoted Python string."""
    return json.dumps(value)[1:-1]


def _judge(exercise_id: str, text: str, folder: Path) -> CheckReport:
    exercise = get_exercise(exercise_id)
    assert isinstance(exercise, CodeExercise)
    assert any(":" in entry for entry in exercise.all_preload)  # a warm-up ran in the master
    path = folder / exercise.student_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    (folder / "exercises").mkdir(exist_ok=True)
    settings = GradingSettings.from_env(
        root=folder, lang="en", isolation="namespaces", limits=SEARCH_LIMITS
    )
    with GradingService(settings) as service, service.student() as session:
        return session.judge(exercise, load_submission(exercise, path))


def test_the_needles_are_the_solved_lines() -> None:
    needles = solution_needles()
    assert len(needles) > 20
    assert 'event_id="evt-ex12-01", event_type="ticket.assigned", payload={"ticket_id": 42}' in (
        needles
    )


@pytest.mark.parametrize("exercise_id", ["EX-12-01", "EX-13-01"])
def test_a_run_finds_no_solution_text(exercise_id: str, tmp_path: Path) -> None:
    probe = search_probe(solution_needles(), _solution(exercise_id))
    memory, files, regions = _found(_judge(exercise_id, probe, tmp_path))
    assert regions > 50  # it really searched its memory
    assert (memory, files) == (0, 0)


def test_control_a_handed_in_solution_is_found(tmp_path: Path) -> None:
    reference = _solution("EX-12-01").read_text(encoding="utf-8")
    probe = search_probe(solution_needles(), _solution("EX-12-01"))
    memory, _, _ = _found(_judge("EX-12-01", reference + "\n" + probe, tmp_path))
    assert memory > 0  # (its files hold it too: the run's copy of what it handed in)
