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
from tests.e2e.conftest import FILES, REPO

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
    """31 probes and notebooks (``files/styles/README.md`` lists what each one tries)."""
    report = checked(service, probe)
    assert (report.status, failed(report)) == ("passed", [])
    assert report.score == report.max_score


def test_the_held_out_set_has_thirty_honest_styles_at_least() -> None:
    assert len(HONEST) >= 30
    assert {probe.split("/")[0] for probe in HONEST} == {"EX-11-01", "EX-12-01", "EX-13-01"}


@pytest.mark.slow
@pytest.mark.parametrize("probe", sorted(WRONG))
def test_every_wrong_style_fails_on_what_it_leaves_out(service: GradingService, probe: str) -> None:
    report = checked(service, probe)
    assert report.status == "failed"
    assert [name for name, _ in failed(report)] == WRONG[probe]


RELOAD = """
import importlib

import ticketflow.notifications.effects as effects

before = effects.apply_notification_once
effects = importlib.reload(effects)
assert effects.apply_notification_once is before, "the reload replaced the code under test"
"""


@pytest.mark.slow
@pytest.mark.parametrize("isolation", ["auto", "rlimits", "portable"])
def test_a_reload_keeps_the_code_under_test_in_every_mode(isolation: str, tmp_path: Path) -> None:
    """Attack first: the sandbox hid the file ("ModuleNotFoundError: spec not found"), and
    where files are readable (rlimits, portable) the reload put the real function back, so
    every wrong implementation answered like the real one."""
    probe = tmp_path / "reload_probe.py"
    solution = REPO / "solutions" / "EX-12-01" / "notification_once_probe.py"
    probe.write_text(RELOAD + solution.read_text(encoding="utf-8"), encoding="utf-8")
    settings = GradingSettings.from_env(isolation=isolation, use_cache=False, self_check=True)
    with GradingService(settings) as service:
        report = service.check("EX-12-01", probe, lang="en").report
    assert (report.status, failed(report)) == ("passed", [])
