"""The front ends say who holds the user's turn on stderr, in the language asked for; the
report's output (stdout, ``--json``) stays as it was."""

from __future__ import annotations

import pytest

from grader.frontends import notebook
from grader.frontends.commands.common import turn_notices
from grader.render.catalog import turn_wait_notice
from grader.runner.turns import Holder

HOLDER = Holder(31337, "grader check EX-12-01", stopped=True)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("front_end", ["cli", "notebook"])
def test_the_notice_goes_to_stderr_in_the_language_asked_for(
    front_end: str, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tell = turn_notices(lang) if front_end == "cli" else notebook._turn_notices(lang)
    tell(HOLDER)
    tell(None)
    shown = capsys.readouterr()
    assert shown.out == ""
    expected = [turn_wait_notice(HOLDER, lang), turn_wait_notice(None, lang)]
    assert shown.err.splitlines() == expected
    assert "31337" in expected[0]
