"""A batch graded as a user says who holds the user's turn when a run waits for it
(``grader.runner.turns``), on stderr, under its progress bar, in the instructor's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.render.catalog import turn_wait_notice
from grader.runner.turns import Holder

HOLDER = Holder(31337, "grader check EX-12-01", stopped=True)


def test_a_batch_workers_service_says_it_on_stderr_below_the_bar(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from grader.instructor.batch import sessions

    monkeypatch.setenv("GRADER_LANG", "en")
    hide = (tmp_path / "only-this-test",)
    service = sessions._service(hide)
    try:
        assert service.on_turn_wait is not None
        service.on_turn_wait(HOLDER)
    finally:
        sessions._services.pop(hide).close()  # this test's service only
    shown = capsys.readouterr()
    assert (shown.out, shown.err) == ("", "\n" + turn_wait_notice(HOLDER, "en") + "\n")
