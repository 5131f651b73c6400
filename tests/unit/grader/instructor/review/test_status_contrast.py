"""Status is never colour alone: each has a symbol and a label in both languages, and its
colours meet WCAG AA (4.5:1 for text) in the shipped stylesheet."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

from grader.instructor.gradebook.entries import SHOWN_STATUSES
from grader.instructor.review.rendering import STATUS_SYMBOLS
from grader.render.catalog import render_message

CSS = (files("grader.instructor.review") / "static" / "review.css").read_text("utf-8")
VARIABLE = {"passed": "passed", "failed": "failed", "needs_review": "review",
            "reviewed": "reviewed", "resubmit": "error", "missing": "missing"}  # fmt: skip


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _rule(selector: str) -> str:
    found = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    assert found is not None, selector
    return found.group(1)


def _colour(declarations: str, name: str, default: str | None = None) -> str:
    found = re.search(rf"(?<![-\w]){name}:\s*(#[0-9a-fA-F]{{6}})", declarations)
    if found is None:
        assert default is not None, (name, declarations)
        return default
    return found.group(1)


def test_the_contrast_helper_tells_good_from_bad() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") < 4.5 < contrast("#595959", "#ffffff")


@pytest.mark.parametrize("status", SHOWN_STATUSES)
def test_every_status_has_a_symbol_a_label_and_aa_colours(status: str) -> None:
    assert STATUS_SYMBOLS[status].strip()
    for lang in ("zh", "en"):
        assert render_message(f"status.{status}", {}, lang) != f"status.{status}"
    badge = re.search(rf"--{VARIABLE[status]}:\s*(#[0-9a-fA-F]{{6}})", CSS)
    assert badge is not None and contrast(badge.group(1), "#ffffff") >= 4.5  # white on badge
    cell = _rule(f"td.st-{status}")
    text = _colour(cell, "color", _colour(_rule("td.cell"), "color"))
    assert contrast(text, _colour(cell, "background")) >= 4.5
