"""The grader's version, as a hand-in's manifest and the gradebook record it."""

from __future__ import annotations

import functools


@functools.cache
def grader_version() -> str:
    """The installed course package's version, read once per process (reading the package
    metadata cost about 1.5 ms, a quarter of a grading's write)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ticketflow-course")
    except PackageNotFoundError:
        return "0+unknown"
