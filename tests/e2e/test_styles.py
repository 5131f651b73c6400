"""A held-out set: honest probes and notebooks in styles the corpus lacks (``files/styles/
EX-*/``) pass, in whichever isolation mode the suite runs (``$GRADER_ISOLATION``); the
known-wrong ones in ``files/styles/wrong/`` fail on exactly the mutants named here.

Each style was first written and checked against the grader before its fix (attack first):
a reload, ``%timeit`` with options, a unittest suite with a database per test, and truthy
asserts in EX-12-01 were each graded wrongly.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.app.service import GradingService, GradingSettings
from grader.judge.results import CheckReport
from tests.e2e.conftest import FILES

pytestmark = pytest.mark.e2e

STYLES = FILES / "styles"
HONEST = sorted(str(p.relative_to(STYLES)) for p in STYLES.glob("EX-*/*") if p.is_file())
#: wrong probe -> the checks it must fail (and only those)
WRONG = {
    "wrong/EX-12-01-truthy_asserts.py": ["mutant:returns_event_id"],
}


@pytest.fixture(scope="module")
def service() -> Iterator[GradingService]:
    with GradingService(GradingSettings.from_env(use_cache=False, self_check=True)) as made:
        yield made


def checked(service: GradingService, relative: str) -> CheckReport:
    exercise = next(part for part in Path(relative).parts if part.startswith("EX-"))
    exercise = exercise if len(exercise) == 8 else exercise[:8]
    return service.check(exercise, STYLES / relative, lang="en").report


def failed(report: CheckReport) -> list[tuple[str, str]]:
    return [(c.name, c.message.id) for c in report.checks if not c.passed]


@pytest.mark.slow
@pytest.mark.parametrize("probe", HONEST)
def test_every_honest_style_passes(service: GradingService, probe: str) -> None:
    report = checked(service, probe)
    assert (report.status, failed(report)) == ("passed", [])
    assert report.score == report.max_score


@pytest.mark.slow
@pytest.mark.parametrize("probe", sorted(WRONG))
def test_every_wrong_style_fails_on_what_it_leaves_out(service: GradingService, probe: str) -> None:
    report = checked(service, probe)
    assert report.status == "failed"
    assert [name for name, _ in failed(report)] == WRONG[probe]
