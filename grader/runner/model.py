"""Value types shared by the client, the host and the child: limits, requests, observations.

Everything here is plain data that crosses the host pipe as JSON (never pickle).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

#: Values of :attr:`Observations.limit_hit`.
LIMIT_KINDS = ("wall", "cpu", "memory", "output", "file_size", "processes")

#: Set in every run's environment, in every mode (``sandbox.scrub_environ``, the portable
#: runner's ``_child_env``), beside PATH, HOME and, in the portable mode, what Windows needs.
#: ``PYTEST_DISABLE_PLUGIN_AUTOLOAD``: a student's ``pytest.main()`` loads pytest's own
#: plugins and those it names (``-p NAME``), never every plugin installed beside the grader.
#: So a verdict does not depend on which extras the grading machine has (an instructor's
#: venv holds hypothesis, xdist, timeout...), and a run does not spend 0.7 s importing them.
RUN_ENVIRONMENT: Mapping[str, str] = {
    "LANG": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONIOENCODING": "utf-8",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
}

#: Values of :attr:`Observations.isolation` and of ``ForkServer(isolation=...)`` (plus "auto").
ISOLATION_MODES = ("namespaces", "rlimits")


class RunnerError(Exception):
    """The runner itself failed (host could not start, protocol broken, setup failed).

    Never raised because of anything the student's code did.
    """


class PreludeError(RunnerError):
    """The trusted prelude failed to import or raised: a bug in the exercise, not the student."""


@dataclass(frozen=True)
class Limits:
    """Per-run limits. ``wall_seconds`` is charged without the time the run waited for a
    CPU (a busy machine is not the student's fault), up to ``wall_ceiling_seconds``."""

    wall_seconds: float = 10.0
    #: Hard end of a run that kept waiting for a CPU (``fairwall``); see ``wall_ceiling``.
    wall_ceiling_seconds: float = 30.0
    cpu_seconds: int = 10
    memory_bytes: int = 1 << 30
    max_processes: int = 64
    output_bytes: int = 256 * 1024
    file_size_bytes: int = 8 << 20
    open_files: int = 256
    #: Cap on the observation channel (records + uncaught report) read by the host.
    record_bytes: int = 1 << 20
    #: Size of each fresh tmpfs (/tmp, /var/tmp, /dev/shm) in "namespaces" mode.
    tmpfs_bytes: int = 64 << 20

    def __post_init__(self) -> None:
        for name in ("wall_seconds", "wall_ceiling_seconds"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive finite number")
        for f in fields(self):
            if f.name not in ("wall_seconds", "wall_ceiling_seconds"):
                value = getattr(self, f.name)
                if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                    raise ValueError(f"{f.name} must be a positive int, got {value!r}")

    @property
    def wall_ceiling(self) -> float:
        """No run lives longer, however long it waited for a CPU (never below the limit)."""
        return max(self.wall_ceiling_seconds, self.wall_seconds)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Limits:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass(frozen=True)
class RunRequest:
    source: str
    filename: str
    prelude: str | None = None
    prelude_args: Mapping[str, Any] = field(default_factory=dict)
    limits: Limits = Limits()
    #: An open descriptor (the caller's) the student's process gets as fd ``PASSED_FD``;
    #: never part of the JSON (it travels by ``SCM_RIGHTS``, see ``passfd``).
    pass_fd: int | None = None

    def __post_init__(self) -> None:
        check_filename(self.filename)
        if not isinstance(self.source, str):
            raise TypeError("source must be str")
        if self.prelude is not None:
            split_prelude(self.prelude)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "filename": self.filename,
            "prelude": self.prelude,
            "prelude_args": dict(self.prelude_args),
            "limits": self.limits.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunRequest:
        return cls(
            source=data["source"],
            filename=data["filename"],
            prelude=data.get("prelude"),
            prelude_args=dict(data.get("prelude_args") or {}),
            limits=Limits.from_json(data.get("limits") or {}),
        )


def check_filename(filename: str) -> None:
    """A display/file name for the student's source: a plain file name, no directories."""
    if (
        not isinstance(filename, str)
        or not filename
        or filename in (".", "..")
        or os.sep in filename
        or "\0" in filename
        or len(filename.encode()) > 200
    ):
        raise ValueError(f"filename must be a plain file name, got {filename!r}")


def split_prelude(spec: str) -> tuple[str, str]:
    """``"pkg.module:function"`` -> ``("pkg.module", "function")``."""
    module, sep, attr = spec.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"prelude must look like 'pkg.module:function', got {spec!r}")
    return module, attr


@dataclass(frozen=True)
class Observations:
    """What the trusted host observed about one run.

    Trust levels: ``exit_code``, ``signal``, ``timed_out``, ``wall_seconds``, ``cpu_time``,
    ``max_rss_bytes`` and the captured bytes of ``stdout``/``stderr`` come from the host
    (waitpid / rusage / pipes) and are truthful in "namespaces" mode. ``records`` and
    ``uncaught`` come over the observation channel, which the student's code can write to:
    treat them as claims. ``limit_hit`` is a best-effort classification.
    """

    exit_code: int | None
    signal: int | None
    timed_out: bool
    limit_hit: str | None
    stdout: str
    stderr: str
    stdout_truncated: bool
    stderr_truncated: bool
    records: tuple[Mapping[str, Any], ...]
    uncaught: Mapping[str, Any] | None
    wall_seconds: float
    isolation: str
    #: Channel lines that were not valid records (malformed JSON, wrong shape, over the cap).
    records_dropped: int = 0
    #: True when the channel exceeded ``Limits.record_bytes`` (later records were dropped).
    records_truncated: bool = False
    #: User+system CPU seconds of the student's main process and its reaped children.
    cpu_time: float | None = None
    #: Peak resident set size of the student's main process, in bytes.
    max_rss_bytes: int | None = None
    #: Seconds the run waited for a CPU, not charged to its wall limit (measured only once
    #: a run outlived its plain wall limit; None before that).
    cpu_wait_seconds: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "records", tuple(self.records))

    @property
    def ok(self) -> bool:
        """Exited normally with status 0, no limit hit."""
        return self.exit_code == 0 and self.limit_hit is None and not self.timed_out

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["records"] = [dict(r) for r in self.records]
        data["uncaught"] = None if self.uncaught is None else dict(self.uncaught)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observations:
        known = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in known}
        kwargs["records"] = tuple(kwargs.get("records") or ())
        return cls(**kwargs)
