"""Due dates and the late policy (``course.toml`` at the course root), and what they make
of a received time: how late, and the penalty.

    # course.toml
    timezone = "Asia/Shanghai"          # for times written without an offset
    [due]
    "EX-11-01" = "2026-12-07T23:59"
    "EX-11-02" = "2026-12-07T23:59:00+08:00"
    [late]
    penalty_per_day = 0.1               # share of the score lost per started day late
    max_penalty = 0.5                   # the cap
    no_credit_after_days = 7            # later than this: no credit at all

An exercise without a due date is never late. An extension (``grader extend``) replaces
the due time of one student (one exercise, or all). The received time comes from the
instructor's side only, never from the student's manifest (see ``receiving``).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from grader.errors import UsageError

SETTINGS_FILE = "course.toml"
DAY = 86400.0
ALL = "*"


@dataclass(frozen=True)
class LatePolicy:
    penalty_per_day: float = 0.0
    max_penalty: float = 1.0
    no_credit_after_days: float | None = None

    def penalty(self, late_by_seconds: float) -> float:
        """The share of the score lost: per started day, capped; 1 past the no-credit day."""
        if late_by_seconds <= 0:
            return 0.0
        days = math.ceil(late_by_seconds / DAY)
        if (
            self.no_credit_after_days is not None
            and late_by_seconds > self.no_credit_after_days * DAY
        ):
            return 1.0
        return round(min(self.max_penalty, days * self.penalty_per_day), 4)


@dataclass(frozen=True)
class CourseSettings:
    timezone: tzinfo = UTC
    due: Mapping[str, datetime] = field(default_factory=dict)
    late: LatePolicy = field(default_factory=LatePolicy)

    def lateness(
        self, exercise: str, received_at: datetime, extension: datetime | None
    ) -> tuple[datetime | None, float, float]:
        """(the due time that applies, seconds late, penalty)."""
        due = extension or self.due.get(exercise)
        if due is None:
            return None, 0.0, 0.0
        late_by = max(0.0, (received_at - due).total_seconds())
        return due, late_by, self.late.penalty(late_by)

    def due_after(self, exercise: str, until: datetime) -> tuple[str, datetime] | None:
        """The first exercise ``exercise`` covers (``ALL``: every one) whose due time is after
        ``until``: an extension to ``until`` would move its due time earlier and make work
        handed in on time late. None when there is none."""
        for name in sorted(self.due) if exercise == ALL else [exercise]:
            due = self.due.get(name)
            if due is not None and until < due:
                return name, due
        return None


def parse_time(text: str, zone: tzinfo, what: str) -> datetime:
    """An ISO 8601 time; without an offset it is in ``zone``."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError("error.bad_time", given=text[:80], what=what) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=zone)


def load_settings(path: Path) -> CourseSettings:
    """``course.toml``; a file that is absent is no deadlines at all."""
    if not path.exists():
        return CourseSettings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise UsageError("error.course_settings", path=str(path), detail=str(error)[:200]) from None
    return settings_from(data, str(path))


def settings_from(data: Mapping[str, Any], shown: str) -> CourseSettings:
    from grader.judge.exercises import get_exercise

    def bad(detail: str) -> UsageError:
        return UsageError("error.course_settings", path=shown, detail=detail)

    try:
        zone: tzinfo = ZoneInfo(str(data.get("timezone", "UTC")))
    except (ZoneInfoNotFoundError, ValueError):
        raise bad(f"unknown timezone {data.get('timezone')!r}") from None
    due: dict[str, datetime] = {}
    for exercise, value in dict(data.get("due", {})).items():
        exercise_id = get_exercise(exercise).id
        if isinstance(value, datetime):
            due[exercise_id] = value if value.tzinfo else value.replace(tzinfo=zone)
        elif isinstance(value, str):
            due[exercise_id] = parse_time(value, zone, f"due.{exercise}")
        else:
            raise bad(f"due.{exercise} must be a time")
    late = dict(data.get("late", {}))
    unknown = set(late) - {"penalty_per_day", "max_penalty", "no_credit_after_days"}
    if unknown:
        raise bad(f"unknown [late] keys: {', '.join(sorted(unknown))}")
    try:
        policy = LatePolicy(
            penalty_per_day=float(late.get("penalty_per_day", 0.0)),
            max_penalty=float(late.get("max_penalty", 1.0)),
            no_credit_after_days=(
                None if "no_credit_after_days" not in late else float(late["no_credit_after_days"])
            ),
        )
    except (TypeError, ValueError):
        raise bad("[late] values must be numbers") from None
    if not 0 <= policy.penalty_per_day <= 1 or not 0 <= policy.max_penalty <= 1:
        raise bad("penalty_per_day and max_penalty are shares between 0 and 1")
    return CourseSettings(zone, due, policy)


def settings_path(explicit: Path | None) -> Path:
    """``--course FILE`` if given, else ``course.toml`` at the course root (the folder
    holding ``exercises/``, searched upward from here); none found: no file."""
    if explicit is not None:
        if not explicit.is_file():
            raise UsageError("error.course_settings", path=str(explicit), detail="no such file")
        return explicit
    from grader.app.course import find_course_root
    from grader.errors import CourseRootNotFound

    try:
        return find_course_root() / SETTINGS_FILE
    except CourseRootNotFound:
        return Path.cwd() / SETTINGS_FILE
