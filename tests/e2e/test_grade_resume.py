"""Kill-and-resume: a grading run SIGKILLed midway loses nothing recorded, and the next run
finishes it; the gradebook then equals an uninterrupted run's (no duplicates, no gaps), and
a third run grades nothing. On SQLite and on PostgreSQL, each compared with one uninterrupted
run (on SQLite): the same grades whatever the gradebook's database."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from grader.instructor.gradebook.models import CurrentResult
from tests.e2e.batch_support import canonical, environment, grader, grading_keys
from tests.e2e.conftest import grader_command
from tests.support.classroom import EXERCISES, make_class
from tests.support.services import postgres_unreachable, temporary_postgres_database

# both gradebooks on one worker: they compare with one uninterrupted run, graded once
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("test_grade_resume")]

PROFILES = [
    *["reference"] * 8,
    "crash",
    "partial",
    "zip_corrupt",
    "reference_zip",
    "wrong:EX-11-01/prints_only.py",
    "prose_en",
]
TOTAL = len(PROFILES) * len(EXERCISES)
#: Kill once this many (student, exercise) rows are recorded: well inside the run.
KILL_AT = 12


def _recorded(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(CurrentResult)) or 0)
    except Exception:  # the schema is not there yet
        return 0
    finally:
        engine.dispose()


def _kill_midway(work: Path, url: str) -> int:
    """Start a run, SIGKILL it once KILL_AT rows are recorded; how many were there."""
    process = subprocess.Popen(
        [*grader_command(), "grade", "submissions", "--db", url, "--jobs", "2"],
        cwd=work,
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 600
        while _recorded(url) < KILL_AT:
            assert process.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    time.sleep(1.0)  # the workers die with the master (PDEATHSIG); let them go
    return _recorded(url)


@dataclass(frozen=True)
class Whole:
    work: Path  # the class's folder: ``submissions/`` in it
    url: str  # its gradebook, graded without interruption


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Whole:
    """The class, graded once without interruption: what every resumed run must equal."""
    work = tmp_path_factory.mktemp("resume")
    make_class(work / "submissions", work / "unused.db", PROFILES)
    url = f"sqlite:///{work / 'whole.db'}"
    uninterrupted = grader("grade", "submissions", "--db", url, "--jobs", "2", "--json", cwd=work)
    assert uninterrupted.code == 0, uninterrupted.stderr
    assert uninterrupted.json()["graded"] == TOTAL
    return Whole(work, url)


@pytest.fixture(params=["sqlite", "postgresql"])
def killed_gradebook(request: pytest.FixtureRequest, whole: Whole) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{whole.work / 'killed.db'}"
        return
    reason = postgres_unreachable()
    if reason:
        pytest.skip(reason)  # "PostgreSQL is unreachable at host:port; ..."
    with temporary_postgres_database("tf_batch") as killed:
        yield killed


def test_a_killed_run_resumes_to_the_same_gradebook(whole: Whole, killed_gradebook: str) -> None:
    killed, work = killed_gradebook, whole.work
    at_kill = _kill_midway(work, killed)
    assert KILL_AT <= at_kill < TOTAL, at_kill  # really midway

    resumed = grader("grade", "submissions", "--db", killed, "--json", cwd=work)
    assert resumed.code == 0, resumed.stderr
    summary = resumed.json()
    assert (summary["graded"], summary["unchanged"]) == (TOTAL - at_kill, at_kill)

    assert canonical(killed) == canonical(whole.url)  # equal: same rows, same checks
    keys = grading_keys(killed)
    assert len(keys) == len(set(keys)) == TOTAL  # no duplicates, no gaps, no stray rows

    third = grader("grade", "submissions", "--db", killed, "--json", cwd=work)
    assert (third.code, third.json()["graded"], third.json()["unchanged"]) == (0, 0, TOTAL)
