"""How to grade: one frozen settings object, built once per front end from flags + environment.

Every front end (``grader check``/``list``, the notebook's ``check()``, batch grading, a
worker) builds a ``GradingSettings`` with ``from_env`` and hands it to
``grader.app.service.GradingService``; nothing else reads ``$GRADER_*``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.errors import UsageError
from grader.runner.model import Limits

ISOLATION_ENV = "GRADER_ISOLATION"
#: "auto": the strongest sandbox available; "namespaces": that one or exit 2; "rlimits": no
#: isolation (a probe can read the solutions; fine for self-checks, never official).
#: "portable": a fresh interpreter per run, no isolation, on any platform (Windows, macOS);
#: only for a student's own check (``self_check``), never official; "auto" falls back to it
#: where the forking runner cannot work.
ISOLATION_CHOICES = ("auto", "namespaces", "rlimits", "portable")
#: The only mode in which a verdict may count officially (``GradingService.require_official``).
OFFICIAL_ISOLATION = "namespaces"
PORTABLE = "portable"


@dataclass(frozen=True)
class GradingSettings:
    """``root``: the course root given explicitly (None: searched upward from the current
    directory, see ``GradingService``); ``lang``: feedback language; ``isolation``: one of
    ``ISOLATION_CHOICES``; ``limits``: per-run resource limits; ``jobs``: runs of one
    submission at a time; ``hide``: extra paths no run may see (e.g. a class folder);
    ``use_cache``: read and write the course's ``.grader/`` verdict cache; ``self_check``: a
    student's own check (``grader check``, ``check()``), the only use that may run in the
    "portable" mode (the batch and its workers never do)."""

    root: Path | None = None
    lang: str = "zh"
    isolation: str = "auto"
    limits: Limits = field(default_factory=Limits)
    jobs: int = 2
    hide: tuple[Path, ...] = ()
    use_cache: bool = True
    self_check: bool = False

    @classmethod
    def from_env(
        cls,
        root: str | Path | None = None,
        lang: str | None = None,
        isolation: str | None = None,
        hide: Sequence[str | Path] = (),
        jobs: int | None = None,
        limits: Limits | None = None,
        use_cache: bool = True,
        self_check: bool = False,
    ) -> GradingSettings:
        """Flags first, then ``$GRADER_LANG`` / ``$GRADER_ISOLATION``, then the defaults.

        An unknown isolation mode is a ``UsageError`` (exit 2).
        """
        from grader.render.catalog import resolve_lang

        mode = isolation_mode(isolation)
        if mode == PORTABLE and not self_check:
            raise UsageError("error.portable_not_official")
        return cls(
            root=None if root is None else Path(root).expanduser(),
            lang=resolve_lang(lang),
            isolation=mode,
            limits=limits or Limits(),
            jobs=jobs if jobs is not None else default_jobs(),
            hide=tuple(Path(p).absolute() for p in hide),
            use_cache=use_cache,
            self_check=self_check,
        )


def isolation_mode(requested: str | None = None) -> str:
    """``requested``, else ``$GRADER_ISOLATION``, else auto; anything else exit 2."""
    from grader.judge.sanitize import visible

    raw = requested if requested is not None else os.environ.get(ISOLATION_ENV, "")
    value = raw.strip().lower() or "auto"
    if value not in ISOLATION_CHOICES:
        raise UsageError("error.isolation_unknown", given=visible(value[:40]))
    return value


def default_jobs() -> int:
    """Runs of one submission side by side: 2 to 4, by the number of CPUs."""
    return max(2, min(4, os.cpu_count() or 2))
