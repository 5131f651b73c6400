"""The front ends say who holds the user's turn on stderr, in the language asked for; the
report's output (stdout, ``--json``) stays as it was."""

from __future__ import annotations

import pytest

from grader.frontends.commands.common import turn_notices
from grader.render.catalog import turn_wait_notice
from grader.runner.turns import Holder

HOLDER = Holder(31337, "grader check EX-12-01", stopped=True)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_notice_goes_to_stderr_in_the_language_asked_for(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tell = turn_notices(lang)
    tell(HOLDER)
    tell(None)
    shown = capsys.readouterr()
    assert shown.out == ""
    expected = [turn_wait_notice(HOLDER, lang), turn_wait_notice(None, lang)]
    assert shown.err.splitlines() == expected
    assert "31337" in expected[0]


class _Service:
    """Stands in for the kernel's grading service: keeps the teller ``check()`` gives it."""

    on_turn_wait: object = None

    def check(self, exercise_id: str, path: object, *, lang: str) -> object:
        raise LookupError(exercise_id)  # the report is not what this test is about


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_notebook_check_gives_its_service_a_teller_in_the_calls_language(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader.frontends import notebook

    service = _Service()
    monkeypatch.setattr(notebook, "_service", lambda settings: service)
    notebook.check("EX-12-01", lang=lang)
    capsys.readouterr()
    assert callable(service.on_turn_wait)
    service.on_turn_wait(HOLDER)
    assert capsys.readouterr().err == turn_wait_notice(HOLDER, lang) + "\n"
