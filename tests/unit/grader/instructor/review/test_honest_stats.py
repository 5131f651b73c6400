"""Every figure says its denominator, the same in ``grader stats --json`` and on the
insight page: mutant survival over the probes evaluated against the mutant, untouched
starters counted apart, prose pass shares over the decisions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from grader.frontends.cli import main
from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import (
    GradingEntry,
    GradingKey,
    entry_from_report,
    sha256_text,
)
from grader.instructor.gradebook.stats import class_stats
from grader.instructor.review.app import ReviewSettings, create_app
from grader.instructor.review.auth import Guard
from grader.judge.results import build_report, failed_check, msg, passed_check
from tests.unit.grader.instructor.gradebook.factories import FINGERPRINT, prose_entry

MUTANT = "mutant:off_by_one_bound"
LABEL = msg("check.mutant", arg=msg("mutant.off_by_one_bound"))


def _probe(student: str, mutant_message: str, *, real_ok: bool = True) -> GradingEntry:
    killed = mutant_message == "mutant.killed"
    mutant = (passed_check if killed else failed_check)(
        MUTANT, 1.0, msg(mutant_message, mutant=msg("mutant.off_by_one_bound")), label=LABEL
    )
    checks = (
        (passed_check if real_ok else failed_check)("runs_cleanly", 1.0, msg("run.ok")),
        mutant,
    )
    report = build_report("EX-11-01", "code", checks, isolation="namespaces")
    text = f"# {student}\n"
    return entry_from_report(
        GradingKey(student, "EX-11-01", sha256_text(text), FINGERPRINT),
        report,
        file_name="retry_policy_probe.py",
        content=text,
        seconds=0.1,
    )


def _not_started(student: str) -> GradingEntry:
    check = failed_check("started", 10.0, msg("code.not_started", file="p.py"))
    report = build_report("EX-11-01", "code", (check,), summary=msg("summary.not_started"))
    return entry_from_report(
        GradingKey(student, "EX-11-01", sha256_text("starter"), FINGERPRINT),
        report,
        file_name="p.py",
        content="starter",
        seconds=0.0,
    )


def _class(book: Gradebook) -> None:
    book.record(_probe("s1", "mutant.survived"))  # evaluated, survived
    book.record(_probe("s2", "mutant.killed"))  # evaluated, killed
    book.record(_probe("s3", "mutant.killed"))
    book.record(_probe("s4", "mutant.skipped", real_ok=False))  # failed on the real code
    book.record(_probe("s5", "mutant.skipped", real_ok=False))
    book.record(_not_started("s6"))
    book.record(prose_entry("s1", "decided well\n"))
    book.record(prose_entry("s2", "decided poorly\n"))
    book.record(prose_entry("s3", "still waiting\n"))
    book.set_review("s1", "EX-11-02", final_score=2, reviewer="prof")
    book.set_review("s2", "EX-11-02", final_score=0.5, reviewer="prof")


def test_survival_counts_only_probes_evaluated_against_the_mutant(tmp_path: Path) -> None:
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        _class(book)
        stats = {item.exercise: item for item in class_stats(book.results())}
    code = stats["EX-11-01"]
    [mutant] = code.mutants
    # 1 survivor of 3 evaluated (not 3 of 5: two probes never ran against it)
    assert (mutant.failed, mutant.total, mutant.seen, mutant.share) == (1, 3, 5, 0.3333)
    assert code.not_started == 1 and "started" not in {c.category for c in code.checks}
    prose = stats["EX-11-02"]
    assert (prose.passed, prose.decided, prose.waiting, prose.passed_share) == (1, 2, 1, 0.5)


@pytest.fixture
def url(tmp_path: Path) -> str:
    """The class above, in a gradebook file."""
    given = f"sqlite:///{tmp_path / 'g.db'}"
    with Gradebook(given) as book:
        _class(book)
    return given


def test_stats_json_and_the_insight_page_say_the_same(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "--db", url, "--json"]) == 0
    data = {item["exercise"]: item for item in json.loads(capsys.readouterr().out)["exercises"]}
    wanted = data["EX-11-01"]["mutants"]["off_by_one_bound"]
    assert wanted == {"survived": 1, "evaluated": 3, "handed_in": 5, "share": 0.3333}
    assert data["EX-11-01"]["not_started"] == 1
    assert (data["EX-11-02"]["passed"], data["EX-11-02"]["passed_of"]) == (1, 2)
    assert data["EX-11-02"]["waiting"] == 1

    guard = Guard(hosts=("testserver",))
    page_book = Gradebook(url)
    app = create_app(ReviewSettings(None, "prof", "en", guard), page_book)
    http = TestClient(app, follow_redirects=False)
    http.get(f"/?token={guard.token}")
    page = http.get("/insight").text
    page_book.close()
    bar = re.search(r'data-name="off_by_one_bound" data-share="([0-9.]+)"(.*?)</g>', page, re.S)
    assert bar is not None and float(bar.group(1)) == wanted["share"]
    assert "33% (1/3) · 3 of 5 evaluated" in bar.group(2)
    assert "not started: 1" in page
    assert "1 of 2 decided answers passed" in page and "1 still waiting" in page


def test_stats_text_names_the_denominators(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", url, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "survived in 33% of probes (1 of 3 evaluated; 5 handed in)" in out
    assert "not started: 1" in out
    assert "passed 1/2 reviewed (at least half the points), 1 still waiting for review" in out
