"""What a grader waiting for the user's turn says (``grader.render.catalog.turn_wait_notice``):
who holds it, and, when that process is stopped, how to resume or end it. Expected texts:
``files/turn_notices.txt``."""

from __future__ import annotations

from pathlib import Path

from grader.render.catalog import turn_wait_notice
from grader.runner.turns import Holder

FILES = Path(__file__).parent / "files"

HOLDERS = {
    "running": Holder(4242, "grader check EX-12-01", stopped=False),
    "stopped": Holder(4242, "grader check EX-12-01", stopped=True),
    "unknown": None,
}


def test_each_notice_in_each_language() -> None:
    shown = [
        f"[{kind} {lang}]\n{turn_wait_notice(holder, lang)}\n"
        for kind, holder in HOLDERS.items()
        for lang in ("zh", "en")
    ]
    assert "\n".join(shown) == (FILES / "turn_notices.txt").read_text(encoding="utf-8")


def test_a_stopped_holder_is_named_with_what_to_type() -> None:
    text = turn_wait_notice(HOLDERS["stopped"], "en")
    assert "fg" in text and "kill -CONT 4242" in text and "Ctrl-C" in text


def test_a_command_with_control_characters_is_shown_cleaned() -> None:
    holder = Holder(7, "grader check \x1b[2J\nEX-12-01", stopped=False)
    text = turn_wait_notice(holder, "en")
    assert "\x1b" not in text and "\n" not in text and "EX-12-01" in text
