"""Every hostile submission in files/ ends as "failed" (exit 1) or an input error (exit 2).

Besides the outcome, a case must leave no grader traceback, finish within the sandbox's time
budget, leave no process alive, change no file outside its run, and — checked once after the
whole corpus — change nothing about how the next submission is graded.

Two ways in, one judge (judging.py ``verdict``; residue.py for what "left behind" means):

* **In process** (most cases, ``test_hostile_submission_never_passes``): through the grading
  service every front end uses, one service for the whole corpus (inprocess.py says how it
  stands in for ``grader check --json``). Each check still gets a fresh student session, so
  a fork server of its own; the masters it forks from are shared, so they must outlive
  every case unchanged and the baseline is graded through the same service before and
  after the corpus. An input error is graded once and read in both languages. The cases
  that hit the wall limit (``# timeout: yes``) are graded the same way by a second service
  whose runs have 2 s wall and CPU limits (``SHORT_WALL``): a spinning case burns a CPU for
  every limit it reaches.
* **Through the real CLI** (``grader check --json`` in a subprocess): the cases below, each
  for a reason the in-process path cannot show, one wall-limit case at the grader's own
  limits (``WALL_ON_THE_CLI``: it sleeps), and the dedicated CLI tests further down (text
  report, ``grader list``, cwd, isolation).

CLI cases (``CLI_CASES``; an input error among them is graded in Chinese, the default):

* ``cache_grader_symlink.py``, ``cache_results_fifo.py``: booby-trap the course root itself
  (``# course:``), so each needs a course of its own, with its own hidden paths.
* ``signal_the_grader.py``, ``swap_submission_after_run.py``, ``copy_other_students_work.py``:
  look for the grader's command line (``--path``/``--root``) in /proc to signal the grader,
  swap the submission or find the course: only a CLI process has that command line.
* ``rlimits_daemon_outlives_grader.py``, ``double_fork_setsid_daemon.py``: daemons meant to
  outlive the grader process; only a grader that exits shows none does.
* ``exercise_id_with_controls.py``, ``exercise_id_path_traversal.py``,
  ``control_chars_in_file_name.make``: hostile text in argv, echoed by the command.
* ``fifo_instead_of_file.make``, ``symlink_to_dev_zero.make``: a read that never ends, in the
  grader's own process: only a subprocess can be killed if it blocks.

The rlimits fallback (``GRADER_ISOLATION=rlimits``: documented as never for untrusted work,
to be retired where user namespaces exist, issue 32) is graded through the CLI, as students
use it, for a few representative cases only (``RLIMITS_CASES``): one each that reaches the
network, writes outside its folder (/tmp, /dev/shm, the keyring), swaps its own submission
for a FIFO, reads the solution, forges its supervisor's status and the channel, leaves a
daemon after killing its supervisor, and tampers with the grader. These are also the attacks
of every finding that was a hole of this mode only (H4's /tmp variant, H7, H11's status
line, H12); H10 (``oracle_fresh_copy_from_disk.py``, ``known-hole-rlimits``) is the mode's
design, nothing is hidden there, and is no longer graded in it.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.runner import Limits
from tests.hostile.corpus import (
    FILES,
    LINK_TARGET,
    REPO,
    STUDENT_FILES,
    Case,
    load_cases,
    materialize,
    trapped_course,
)
from tests.hostile.grading import GRADER_TRACEBACK, Graded, grade
from tests.hostile.inprocess import Corpus, Outcome, opened_corpus
from tests.hostile.judging import budget, grade_quietly, kill_after, sweep, verdict
from tests.hostile.residue import (
    CANARY,
    Snapshot,
    leftover_processes,
    revoke_marked_keys,
    set_child_subreaper,
)

#: One case at a time (one xdist worker): a case's residue check scans /proc, /tmp and the
#: checkout for what any case may leave, so two cases at once would blame each other.
pytestmark = [pytest.mark.hostile, pytest.mark.xdist_group("hostile-corpus")]

CASES = load_cases()
SUPPORT = FILES / "support"

#: Cases graded through the real CLI instead of in process: why, see the module docstring.
CLI_CASES = frozenset(
    {
        "cache_grader_symlink.py",
        "cache_results_fifo.py",
        "signal_the_grader.py",
        "swap_submission_after_run.py",
        "copy_other_students_work.py",
        "rlimits_daemon_outlives_grader.py",
        "double_fork_setsid_daemon.py",
        "exercise_id_with_controls.py",
        "exercise_id_path_traversal.py",
        "control_chars_in_file_name.make",
        "fifo_instead_of_file.make",
        "symlink_to_dev_zero.make",
    }
)
#: The rlimits fallback's cases: one per kind of attack, and every finding that was a hole
#: of this mode only (tests/hostile/FINDINGS.md) keeps the attack that shows it closed.
RLIMITS_CASES = {
    "network_connect.py": "reaches the network and local services (open in this mode)",
    "cross_run_state.py": "writes outside its folder to talk across runs: /tmp, /dev/shm, the "
    "user keyring (H4 went through /tmp in this mode)",
    "swap_submission_after_run.py": "rewrites its own --path into a FIFO: the CLI must not "
    "re-read it (H7, this mode only: only here can a run write the file system)",
    "print_solution_output.py": "reads the reference solution (readable in this mode)",
    "status_pipe_forgery.py": "forges its supervisor's status line and the channel (H11)",
    "rlimits_daemon_outlives_grader.py": "forks a setsid daemon, forges and kills its "
    "supervisor, then outlives it (H12)",
    "patch_grader_modules.py": "tampers with the grader's modules and verdict functions",
}


# -- fixtures -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def course_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the course root (exercises/ and solutions/), as a grading machine has it."""
    root = tmp_path_factory.mktemp("course-root")
    for name in ("exercises", "solutions"):
        shutil.copytree(REPO / name, root / name)
    return root


@pytest.fixture(scope="module", autouse=True)
def canary() -> Iterator[None]:
    CANARY.write_text(f"canary {secrets.token_hex(16)}\n")
    yield
    CANARY.unlink(missing_ok=True)


@pytest.fixture(scope="module", autouse=True)
def subreaper() -> Iterator[None]:
    """Orphans of a run re-parent to this process, where the leak check finds them."""
    set_child_subreaper(True)
    yield
    leftover_processes(grace=0.0)
    set_child_subreaper(False)


def _baseline_inputs() -> list[tuple[str, Path]]:
    return [
        ("EX-11-01", REPO / "solutions" / "EX-11-01" / STUDENT_FILES["EX-11-01"]),
        ("EX-11-01", SUPPORT / "wrong_retry_policy_probe.py"),
        ("EX-12-01", REPO / "solutions" / "EX-12-01" / STUDENT_FILES["EX-12-01"]),
    ]


def _baseline_files(where: Path) -> list[tuple[str, Path]]:
    """The baseline's submissions, each copied into a folder of its own under ``where``."""
    files = []
    for index, (exercise, source) in enumerate(_baseline_inputs()):
        folder = where / f"baseline-{index}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / STUDENT_FILES[exercise]
        shutil.copyfile(source, path)
        files.append((exercise, path))
    return files


def _grade_baseline(course_root: Path, where: Path) -> list[dict[str, Any] | None]:
    return [
        grade(exercise, path, course_root, timeout=budget(exercise)).payload
        for exercise, path in _baseline_files(where)
    ]


@pytest.fixture(scope="module", autouse=True)
def baseline(course_root: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    """Verdicts of a reference and a wrong submission, taken before any hostile case ran."""
    return _grade_baseline(course_root, tmp_path_factory.mktemp("baseline-before"))


class Service:
    """The in-process grading service of the corpus and its own baseline (``payloads``)."""

    def __init__(self, corpus: Corpus, where: Path) -> None:
        self.corpus = corpus
        self.payloads = self.baseline(where)
        self._state: Snapshot | None = None

    def before(self, course_root: Path) -> Snapshot:
        """The files' state before a case: the one the last case left, when it left nothing
        (``sweep`` then restored and removed nothing, so it is still the state on disk)."""
        state, self._state = self._state, None
        return state or Snapshot.take(course_root)

    def after(self, before: Snapshot, residue: list[str]) -> None:
        self._state = None if residue else before.after

    def grade(self, case: Case, where: Path) -> Outcome:
        path = materialize(case, where)
        return self.corpus.grade(case.exercise, path, timeout=kill_after(case))

    def baseline(self, where: Path) -> list[dict[str, Any] | None]:
        """The baseline (``_baseline_inputs``) graded through this service."""
        return [
            self.corpus.grade(exercise, path, timeout=budget(exercise)).render().payload
            for exercise, path in _baseline_files(where)
        ]


@pytest.fixture(scope="module")
def service(course_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """One service for every in-process case, with its baseline taken before the first."""
    with opened_corpus(course_root, "auto") as corpus:
        yield Service(corpus, tmp_path_factory.mktemp("service-baseline-before"))


# -- the cases ---------------------------------------------------------------------------------


def test_the_cli_grades_as_nobody_in_namespaces(course_root: Path, tmp_path: Path) -> None:
    """As root, the real CLI must use the strong sandbox: nobody, own pid/net ns, hidden grader."""
    from grader.runner import sandbox

    reason = sandbox.namespaces_unavailable()
    if reason:
        pytest.skip(f"requires Linux namespaces, not available here: {reason}")
    path = tmp_path / STUDENT_FILES["EX-11-01"]
    shutil.copyfile(SUPPORT / "isolation_report.py", path)
    graded = grade("EX-11-01", path, course_root, timeout=budget("EX-11-01"))
    payload = graded.payload or {}
    assert graded.isolation == "namespaces", graded.stdout
    evidence = "\n".join(str(c.get("evidence")) for c in payload.get("checks", []))
    assert "isolation-report uid=65534 pid=2 network=closed grader_hidden=True" in evidence, (
        graded.stdout
    )


QUICK = [case for case in CASES if not case.timeout]
WALL = [case for case in CASES if case.timeout]
RLIMITS = [case for case in CASES if case.name in RLIMITS_CASES]


def _root_for(case: Case, course_root: Path, where: Path) -> Path:
    """The shared course root, or a booby-trapped one of the case's own (``# course:``)."""
    return trapped_course(case, where) if case.course else course_root


def _trap_held(case: Case, where: Path) -> None:
    """A ``grader-link`` trap: nothing was written where the link points."""
    if case.course == "grader-link":
        assert list((where / LINK_TARGET).iterdir()) == [], f"{case.name}: wrote through the link"


IN_PROCESS = [case for case in QUICK if case.name not in CLI_CASES]
ON_THE_CLI = [case for case in QUICK if case.name in CLI_CASES]


def _reads_in_chinese(graded: Graded) -> None:
    """Chinese is the default language: every refusal must be a clear zh sentence as well."""
    assert graded.exit_code == 2, graded.stdout + graded.stderr
    message = graded.message()
    assert any("\u4e00" <= char <= "\u9fff" for char in message), message
    assert not graded.controls(), graded.controls()
    assert GRADER_TRACEBACK not in graded.stderr


def test_every_case_is_graded_in_the_default_isolation() -> None:
    """No case is lost between the two ways in; the named cases exist; traps go by CLI."""
    names = {case.name for case in CASES}
    assert names >= CLI_CASES, sorted(CLI_CASES - names)
    graded = [case.name for case in IN_PROCESS + ON_THE_CLI + WALL]
    assert sorted(graded) == sorted(names)
    assert {case.name for case in TRAPS} <= CLI_CASES
    named = WALL_ON_THE_CLI | ENDED_BY_A_LIMIT
    assert named <= {case.name for case in WALL}, sorted(named)


@pytest.mark.parametrize("case", IN_PROCESS, ids=lambda case: case.name)
def test_hostile_submission_never_passes(
    case: Case, course_root: Path, service: Service, tmp_path: Path
) -> None:
    before = service.before(course_root)
    outcome = service.grade(case, tmp_path)
    residue = sweep(before, course_root) + service.corpus.leftovers()
    service.after(before, residue)
    verdict(case, outcome.render("en"), residue, None)
    if case.expect == {"input_error"}:
        _reads_in_chinese(outcome.render("zh"))  # the same grading, rendered in Chinese


@pytest.mark.parametrize("case", ON_THE_CLI, ids=lambda case: case.name)
def test_hostile_submission_never_passes_through_the_cli(
    case: Case, course_root: Path, tmp_path: Path
) -> None:
    before = Snapshot.take(course_root)
    lang = "zh" if case.expect == {"input_error"} else "en"
    root = _root_for(case, course_root, tmp_path)
    graded = grade_quietly(case, tmp_path, root, None, lang=lang)
    verdict(case, graded, sweep(before, course_root), None)
    if lang == "zh":
        _reads_in_chinese(graded)
    _trap_held(case, tmp_path)


TRAPS = [case for case in CASES if case.course]


@pytest.mark.parametrize("case", TRAPS, ids=lambda case: case.name)
def test_grader_list_neither_writes_through_nor_blocks_on_a_trapped_cache(
    case: Case, tmp_path: Path
) -> None:
    root = trapped_course(case, tmp_path)
    shutil.copyfile(
        REPO / "solutions" / "EX-11-01" / STUDENT_FILES["EX-11-01"],
        root / "exercises" / "EX-11-01" / STUDENT_FILES["EX-11-01"],
    )
    for extra in (["--no-run"], []):
        argv = [sys.executable, "-m", "grader", "list", "--root", str(root), "--json", *extra]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        statuses = {e["exercise"]: e["status"] for e in json.loads(done.stdout)}
        assert statuses["EX-11-01"] in ("unchecked", "passed"), statuses
        assert GRADER_TRACEBACK not in done.stderr
    _trap_held(case, tmp_path)


#: The wall-limit cases graded at the grader's own limits, through the real CLI: one that
#: sleeps (it waits on the clock and burns no CPU).
WALL_ON_THE_CLI = frozenset({"sleep_forever_nondaemon_thread.py"})
#: The others run to short limits: a spinning case burns a CPU up to each of its runs'
#: limits (93 CPU-s of the suite at the grader's 10 s, 2026-12-04), and every case waits for
#: them. The wall and the CPU limit are equal, as the grader's are (10 s and 10 s), so that
#: a spinning run races the two as it does there (``ignore_signals_then_spin.py`` ignores the
#: CPU limit's SIGXCPU); what ends a run at either limit is the same code whatever the limit.
SHORT_WALL = Limits(wall_seconds=2.0, wall_ceiling_seconds=6.0, cpu_seconds=2)
#: Cases whose run against the real code can only end at a limit (the wall's, or the CPU's
#: for a spinning one), and must say so.
ENDED_BY_A_LIMIT = frozenset(
    {"infinite_loop.py", "ignore_signals_then_spin.py", "sleep_forever_nondaemon_thread.py"}
)


def _says_it_was_stopped(case: Case, graded: Graded) -> None:
    """``runs_cleanly`` reports a limit, for a case that can end no other way."""
    if case.name in ENDED_BY_A_LIMIT:
        checks = {c["name"]: c for c in (graded.payload or {}).get("checks", [])}
        assert checks["runs_cleanly"]["message_id"] in ("run.timeout", "run.limit"), graded.stdout


@pytest.fixture(scope="module")
def short_wall(course_root: Path) -> Iterator[Corpus]:
    """An in-process service whose runs have ``SHORT_WALL``."""
    with opened_corpus(course_root, "auto", SHORT_WALL) as corpus:
        yield corpus


@pytest.mark.slow
@pytest.mark.parametrize(
    "case", [c for c in WALL if c.name not in WALL_ON_THE_CLI], ids=lambda case: case.name
)
def test_submissions_that_hit_a_short_wall_limit_never_pass(
    case: Case, course_root: Path, short_wall: Corpus, tmp_path: Path
) -> None:
    """Endless loops, ignored signals, runaway recursion, daemons left behind: each run is
    ended at its wall limit, the check fails within its budget and leaves nothing."""
    before = Snapshot.take(course_root)
    outcome = short_wall.grade(
        case.exercise, materialize(case, tmp_path), timeout=kill_after(case, SHORT_WALL)
    )
    residue = sweep(before, course_root) + short_wall.leftovers()
    graded = outcome.render("en")
    verdict(case, graded, residue, None, SHORT_WALL)
    _says_it_was_stopped(case, graded)


@pytest.mark.slow
@pytest.mark.parametrize(
    "case", [c for c in WALL if c.name in WALL_ON_THE_CLI], ids=lambda case: case.name
)
def test_a_submission_that_hits_the_wall_limit_fails_through_the_cli(
    case: Case, course_root: Path, tmp_path: Path
) -> None:
    """The grader's own wall limit, through ``grader check``: the check fails in time."""
    before = Snapshot.take(course_root)
    graded = grade_quietly(case, tmp_path, course_root, None)
    verdict(case, graded, sweep(before, course_root), None)
    _says_it_was_stopped(case, graded)


def test_text_report_carries_no_terminal_controls(course_root: Path, tmp_path: Path) -> None:
    """The human-readable report fences and cleans the student's text like the JSON does."""
    case = next(c for c in CASES if c.name == "terminal_and_markup_injection.py")
    path = materialize(case, tmp_path)
    graded = grade(case.exercise, path, course_root, timeout=budget(case.exercise), as_json=False)
    assert graded.exit_code == 1, graded.stdout + graded.stderr
    assert "failed" in graded.stdout.lower()
    assert not graded.controls()
    assert GRADER_TRACEBACK not in graded.stderr


def test_grading_from_a_tmp_working_directory(course_root: Path, tmp_path: Path) -> None:
    """``python -m grader`` puts its cwd on sys.path; from /tmp that must neither break the
    run's private /tmp nor expose the caller's directory to the student (hostile H6)."""
    path = tmp_path / STUDENT_FILES["EX-11-01"]
    shutil.copyfile(REPO / "solutions" / "EX-11-01" / STUDENT_FILES["EX-11-01"], path)
    for cwd in (Path("/tmp"), tmp_path):
        graded = grade("EX-11-01", path, course_root, timeout=budget("EX-11-01"), cwd=cwd)
        assert (graded.exit_code, graded.status) == (0, "passed"), graded.stdout + graded.stderr
    (tmp_path / "secret-of-the-caller.txt").write_text("instructor notes")
    snoop = tmp_path / "snoop" / STUDENT_FILES["EX-11-01"]
    snoop.parent.mkdir()
    shutil.copyfile(SUPPORT / "snoop_caller_cwd.py", snoop)
    graded = grade("EX-11-01", snoop, course_root, timeout=budget("EX-11-01"), cwd=tmp_path)
    assert "snoop-result unseen" in graded.stdout, graded.stdout


def test_forced_rlimits_is_used_and_reported(course_root: Path, tmp_path: Path) -> None:
    """$GRADER_ISOLATION=rlimits really runs the weak sandbox, and the report says so."""
    path = tmp_path / STUDENT_FILES["EX-11-01"]
    shutil.copyfile(SUPPORT / "isolation_report.py", path)
    graded = grade("EX-11-01", path, course_root, timeout=budget("EX-11-01"), isolation="rlimits")
    assert graded.isolation == "rlimits", graded.stdout
    evidence = "\n".join(str(c.get("evidence")) for c in (graded.payload or {}).get("checks", []))
    assert "grader_hidden=False" in evidence, graded.stdout


def test_the_rlimits_cases_are_graded_in_that_mode() -> None:
    assert [case.name for case in RLIMITS] == sorted(RLIMITS_CASES)
    for case in RLIMITS:  # meaningful in the fallback, and graded in it (no input error)
        assert case in QUICK and case.rlimits_skip is None and case.expect != {"input_error"}


@pytest.mark.slow
@pytest.mark.parametrize("case", RLIMITS, ids=lambda case: case.name)
def test_hostile_submission_never_passes_under_rlimits(
    case: Case, course_root: Path, tmp_path: Path
) -> None:
    """The weak fallback hides nothing, but no trick may turn that into a pass (a few
    representative cases: ``RLIMITS_CASES``).

    /tmp and /dev/shm are shared with the grader in this mode (documented), so files a
    case drops there are cleaned up, not held against it; everything else is.
    """
    before = Snapshot.take(course_root)
    graded = grade_quietly(case, tmp_path, _root_for(case, course_root, tmp_path), "rlimits")
    residue = sweep(before, course_root, shared=("/tmp/", "/dev/shm/"))
    revoke_marked_keys()  # the student ran with this uid: its keyring is shared (documented)
    verdict(case, graded, residue, "rlimits")
    _trap_held(case, tmp_path)


def test_next_submission_is_graded_as_if_the_corpus_never_ran(
    baseline: list[Any], service: Service, course_root: Path, tmp_path: Path
) -> None:
    """Through a fresh CLI (nothing on disk changed) and through the service that graded the
    corpus (nothing in its shared masters changed)."""
    assert all(baseline), "the baseline could not be graded"
    assert [b["status"] for b in baseline] == ["passed", "failed", "passed"]
    assert _grade_baseline(course_root, tmp_path / "cli") == baseline
    assert service.payloads == baseline
    assert service.baseline(tmp_path / "service") == baseline
