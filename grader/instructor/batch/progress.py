"""The progress bar of ``grader grade`` (rich, on stderr): counts and ETA."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class GradingProgress:
    """``with GradingProgress(label, total) as bar: bar.advance(n)``."""

    def __init__(self, label: str, total: int, *, enabled: bool = True) -> None:
        console = Console(stderr=True)
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            disable=not enabled,
            transient=False,
        )
        self._task: TaskID = self._progress.add_task(label, total=total)

    def advance(self, count: int = 1) -> None:
        self._progress.advance(self._task, count)

    def note(self, text: str) -> None:
        self._progress.console.print(text, markup=False, highlight=False)

    def __enter__(self) -> GradingProgress:
        self._progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()
