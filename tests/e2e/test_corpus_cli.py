"""Issue 13's acceptance corpus through the real CLI, in zh and en.

``files/corpus/<exercise>/correct/``: honest probes in the styles students use (notebooks
with black formatting, magics, ``display``, markdown and tagged cells; unittest; pytest
calls; file SQLite; Core, ORM and raw-SQL counts; a listener that recognises the
business-task INSERT by its table object). Every one must pass.
``files/corpus/<exercise>/wrong/``: one probe per gap the issue found (an assertion left
out that no mutant used to need). Each must fail on the mutants that only that assertion
catches (the one the exercise's requirement names and, since issue 19, its mate written in a
twin's style), with their descriptions and the assertion to add.

Each probe is graded once here. That every correct probe passes with full marks is proved
by ``test_portable_check``, which grades every correct corpus file in-process; the correct notebooks
also go through the CLI, in zh or en by turns (a verdict never depends on the language). The
gap probes, the tagged-cells notebook and the crashing one are graded once each through one
warm service (``graded``), their report then rendered in both languages by the renderer
``grader check --json`` prints with (``report_to_dict``), with the exit code it would give
(``exit_code_for``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from grader.app.service import GradingService, GradingSettings
from grader.errors import exit_code_for
from grader.judge.results import CheckReport
from grader.render.json_out import report_to_dict
from tests.e2e.conftest import FILES, Course

pytestmark = pytest.mark.e2e

CORPUS = FILES / "corpus"
CORRECT = sorted(str(p.relative_to(CORPUS)) for p in CORPUS.glob("EX-*/correct/*"))
#: wrong probe -> the mutants that must survive it (and only they)
WRONG = {
    "EX-11-01/wrong/gap_countdown_on_give_up.py": ("zero_countdown_on_give_up",),
    "EX-11-01/wrong/gap_dead_letter_for_value_error.py": ("drops_permanent_errors",),
    "EX-12-01/wrong/gap_counts_after_first_only.py": (
        "effect_on_every_delivery",
        "orm_effect_on_every_delivery",
    ),
    "EX-13-01/wrong/gap_failure_not_asserted.py": (
        "effect_error_rolled_back",
        "orm_error_swallowed",
    ),
}
SURVIVED = ("mutant.survived", "mutant.survived_unnoticed")
#: Honest notebooks that keep cells the lessons teach (issue 19): a check() cell, lesson
#: 13's platform cell, an inspect.getsource cell (with %%time and display re-runs).
LESSON_CELLS = [
    "EX-13-01/correct/check_cell.ipynb",
    "EX-13-01/correct/platform_cell.ipynb",
    "EX-13-01/correct/getsource_cell.ipynb",
]
#: The mutant's description, as the student reads it, per language (a distinctive part).
DESCRIBED = {
    "zh": {
        "zero_countdown_on_give_up": "countdown 是 0 而不是 None",
        "drops_permanent_errors": "永久错误被悄悄丢弃",
        "effect_on_every_delivery": "每次投递都写一条业务任务",
        "effect_error_rolled_back": "连 receipt 一起回滚并返回 True",
        "orm_effect_on_every_delivery": "每次投递都加一条业务任务并提交",
        "orm_error_swallowed": "业务任务 flush 失败时捕获异常并返回 True",
    },
    "en": {
        "zero_countdown_on_give_up": "the countdown is 0 instead of None",
        "drops_permanent_errors": "a permanent error is dropped silently",
        "effect_on_every_delivery": "it writes a business task on every delivery",
        "effect_error_rolled_back": "rolls back the receipt too and returns True",
        "orm_effect_on_every_delivery": "adds a business task and commits on every delivery",
        "orm_error_swallowed": "when the flush of the business task fails it catches the error",
    },
}


def test_the_corpus_has_ten_correct_probes_per_code_exercise_and_a_wrong_one_per_gap() -> None:
    for exercise_id in ("EX-11-01", "EX-12-01", "EX-13-01"):
        probes = [name for name in CORRECT if name.startswith(exercise_id)]
        assert len(probes) >= 10, exercise_id
        assert any(name.endswith(".ipynb") for name in probes)
    assert sorted(WRONG) == sorted(str(p.relative_to(CORPUS)) for p in CORPUS.glob("EX-*/wrong/*"))


def _check(course: Course, relative: str, lang: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    exercise_id = relative.split("/")[0]
    result = course.run(
        "check", exercise_id, "--path", str(CORPUS / relative), "--json", "--lang", lang
    )
    return result.code, result.json()


#: The tests that render one graded report in both languages: on one worker, so each probe
#: is graded once per run.
IN_BOTH_LANGUAGES = pytest.mark.xdist_group("corpus_in_both_languages")


@pytest.fixture(scope="module")
def graded() -> Iterator[Callable[..., CheckReport]]:
    """The report of a corpus file (a path under ``files/corpus/``), graded once."""
    reports: dict[str, CheckReport] = {}
    settings = GradingSettings.from_env(use_cache=False, self_check=True)
    with GradingService(settings) as service:

        def grade(relative: str, exercise_id: str | None = None) -> CheckReport:
            if relative not in reports:
                exercise_id = exercise_id or relative.split("/")[0]
                reports[relative] = service.check(exercise_id, CORPUS / relative).report
            return reports[relative]

        yield grade


def _rendered(report: CheckReport, lang: str) -> tuple[int, dict[str, Any]]:
    """What ``grader check --json --lang <lang>`` prints for ``report``, and its exit code."""
    return exit_code_for(report.status), report_to_dict(report, lang)


#: That every correct probe passes with full marks is proved once, in-process, by
#: ``test_portable_check`` (which grades every correct corpus file in the sandboxed mode, and
#: a sample of them portably). Through the CLI go the notebooks (reading a notebook from
#: ``--path``), each once, in zh or en by turns: a verdict never depends on the language (the
#: gap probes below check both languages' words).
NOTEBOOKS = [probe for probe in CORRECT if probe.endswith(".ipynb")]
CORRECT_IN = [(probe, ("zh", "en")[index % 2]) for index, probe in enumerate(NOTEBOOKS)]


@pytest.mark.parametrize(("probe", "lang"), CORRECT_IN)
def test_every_correct_notebook_passes_through_the_cli(
    course: Course, probe: str, lang: str
) -> None:
    """The notebooks with the lessons' cells are graded here in the namespaces mode by name
    (the other mode: the test below)."""
    if probe in LESSON_CELLS:
        _passes_in(course, probe, "namespaces", lang)
        return
    code, report = _check(course, probe, lang)
    failed = [(c["name"], c["message"]) for c in report["checks"] if not c["passed"]]
    assert (code, report["status"], failed) == (0, "passed", [])
    assert report["score"] == report["max_score"]


def _passes_in(course: Course, probe: str, isolation: str, lang: str) -> None:
    exercise_id = probe.split("/")[0]
    result = course.run(
        "check", exercise_id, "--path", str(CORPUS / probe), "--json", "--lang", lang,
        env={"GRADER_ISOLATION": isolation},
    )  # fmt: skip
    report = result.json()
    failed = [(c["name"], c["message"]) for c in report["checks"] if not c["passed"]]
    assert (result.code, report["status"], report["isolation"], failed) == (
        0, "passed", isolation, [],
    )  # fmt: skip
    assert report["score"] == report["max_score"]


@pytest.mark.parametrize("probe", LESSON_CELLS)
def test_notebooks_with_the_lessons_cells_pass_in_the_rlimits_mode_too(
    course: Course, probe: str
) -> None:
    assert probe in NOTEBOOKS  # so also graded in the namespaces mode, above
    _passes_in(course, probe, "rlimits", "en")


@IN_BOTH_LANGUAGES
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("probe", sorted(WRONG))
def test_every_gap_probe_fails_on_the_mutant_only_its_missing_assertion_catches(
    graded: Callable[..., CheckReport], probe: str, lang: str
) -> None:
    code, report = _rendered(graded(probe), lang)
    assert (code, report["status"]) == (1, "failed")
    failed = {c["name"]: c for c in report["checks"] if not c["passed"]}
    assert list(failed) == [f"mutant:{mutant}" for mutant in WRONG[probe]], sorted(failed)
    for mutant in WRONG[probe]:
        check = failed[f"mutant:{mutant}"]
        assert check["message_id"] in SURVIVED
        assert DESCRIBED[lang][mutant] in check["message"]
        assert check["hint"], "the student must be told which assertion to add"


@IN_BOTH_LANGUAGES
def test_tagged_cells_are_announced_in_the_summary(graded: Callable[..., CheckReport]) -> None:
    for lang, words in (
        ("zh", "只运行了带 answer 标签"),
        ("en", "Only the code cells tagged answer"),
    ):
        code, report = _rendered(graded("EX-11-01/correct/tagged_cells.ipynb"), lang)
        assert code == 0 and words in report["summary"] and "3, 4" in report["summary"]


@IN_BOTH_LANGUAGES
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_notebook_crash_is_placed_in_its_cell_and_later_checks_are_not_judged(
    graded: Callable[..., CheckReport], lang: str
) -> None:
    code, report = _rendered(graded("crash_in_third_cell.ipynb", "EX-11-01"), lang)
    assert code == 1
    checks = {c["name"]: c for c in report["checks"]}
    run = checks["runs_cleanly"]
    assert run["message_id"] == "run.uncaught_cell"
    assert ("第 3 个单元格第 3 行" if lang == "zh" else "cell 3, line 3") in run["message"]
    assert "cell 3, line 3" in run["evidence"]
    for name in ("output", "calls", "equivalents", "mutant:constant_delay"):
        assert checks[name]["message_id"] == "followon.stopped_cell", name
        assert ("没有评判" if lang == "zh" else "Not judged") in checks[name]["message"]
