"""Horizontal bar charts as plain data for the SVG template (rendered on the server: no
chart library, nothing fetched). Shares are the ones ``grader stats`` computes."""

from __future__ import annotations

from dataclasses import dataclass

from grader.instructor.gradebook.stats import CheckShare, ExerciseStats
from grader.judge.results import Message

BAR_WIDTH = 320
ROW_HEIGHT = 22


@dataclass(frozen=True)
class Bar:
    label: Message
    #: The raw name (a mutant's id, a check's name) shown small beside the label.
    name: str
    share: float
    count: int
    total: int
    #: Where a click on the bar leads (None: nowhere).
    href: str | None = None
    #: Said after the figures (e.g. how many prose answers still await review).
    note: Message | None = None

    @property
    def width(self) -> float:
        return round(BAR_WIDTH * min(max(self.share, 0.0), 1.0), 1)

    @property
    def percent(self) -> str:
        return f"{self.share * 100:.0f}%"


@dataclass(frozen=True)
class Chart:
    bars: tuple[Bar, ...]

    @property
    def height(self) -> int:
        return ROW_HEIGHT * len(self.bars)


def pass_rate_chart(stats: list[ExerciseStats], href: str) -> Chart:
    """Per exercise the share passed (as ``grader stats``): of the answers handed in, or
    for prose of the answers decided, saying how many still await review."""
    return Chart(
        tuple(
            Bar(
                Message(f"exercise.{item.exercise}.title"),
                item.exercise,
                item.passed_share,
                item.passed,
                item.passed_of,
                f"{href}#{item.exercise}",
                Message("review.insight.awaiting", {"count": item.waiting})
                if item.waiting
                else None,
            )
            for item in stats
        )
    )


def _check_label(exercise: str, share: CheckShare) -> Message:
    if share.category == "mutant" and share.subject:
        return Message(f"mutant.{share.subject}")
    if share.category == "concept" and share.subject:
        return Message("check.concept", {"arg": Message(f"concept.{exercise}.{share.subject}")})
    return Message(f"check.{share.category}")


def check_chart(item: ExerciseStats) -> Chart:
    """Every check but the mutants: the share of the class that failed it."""
    return Chart(
        tuple(
            Bar(_check_label(item.exercise, s), s.check, s.share, s.failed, s.total)
            for s in item.checks
            if s.category != "mutant"
        )
    )


def mutant_chart(item: ExerciseStats, mutant_href: str) -> Chart:
    """Per mutant, the share of probes it survived; a click lists those students."""
    return Chart(
        tuple(
            Bar(
                _check_label(item.exercise, s),
                s.subject or s.check,
                s.share,
                s.failed,
                s.total,
                f"{mutant_href}/{item.exercise}/{s.subject}",
                Message("review.insight.evaluated", {"evaluated": s.total, "handed": s.seen}),
            )
            for s in item.mutants
        )
    )
