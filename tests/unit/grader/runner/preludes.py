"""Trusted test preludes, imported by the runner host as ``tests.unit.grader.runner.preludes``."""

from __future__ import annotations

import math
import os
from typing import Any, SupportsFloat, SupportsIndex

from grader.runner import Recorder


def record_args(recorder: Recorder, **kwargs: Any) -> None:
    recorder.record("args", **kwargs)


def patch_sqrt(recorder: Recorder, *, value: float) -> None:
    """A 'mutant': math.sqrt returns a constant and records every call."""

    def fake_sqrt(x: SupportsFloat | SupportsIndex) -> float:
        recorder.record("sqrt", x=x)
        return value

    math.sqrt = fake_sqrt


def whoami(recorder: Recorder) -> None:
    recorder.record("whoami", uid=os.getuid(), pid=os.getpid())


def read_file(recorder: Recorder, *, path: str) -> None:
    """Reads a path before hiding happens (the prelude may need files the student must not see)."""
    with open(path, encoding="utf-8") as f:
        recorder.record("read", path=path, text=f.read())


def make_fixture(recorder: Recorder, *, name: str, text: str) -> None:
    """Leaves a file in the cwd (the student's workdir) for the student to use."""
    with open(name, "w", encoding="utf-8") as f:
        f.write(text)
    recorder.record("fixture", cwd=os.getcwd())


def broken(recorder: Recorder) -> None:
    raise RuntimeError("bug in the exercise's prelude")


def unencodable(recorder: Recorder) -> None:
    recorder.record("odd", value={1, 2}, big="x" * 200_000)


WARM_UPS = 0


def warm_up() -> None:
    """A ``module:function`` preload entry: called once in the host, before any fork."""
    global WARM_UPS
    WARM_UPS += 1


def set_environ(recorder: Recorder, *, name: str, value: str) -> None:
    """Leaves a variable in the environment: the student must start without it."""
    os.environ[name] = value
    recorder.record("environ", name=name)


def import_grader_module(recorder: Recorder, *, module: str) -> None:
    """Imports a grader module no host preloads: the student must not find it loaded."""
    import importlib
    import sys

    new = module not in sys.modules
    importlib.import_module(module)
    recorder.record("imported", module=module, new=new)


def expose_channel(recorder: Recorder) -> None:
    """The run's channel to its caller (``grader.runner.passed``), as the builtin
    ``caller_channel``: what a proxy would talk on, for tests of the channel itself."""
    import builtins

    from grader.runner.passed import passed_channel

    builtins.caller_channel = passed_channel()  # type: ignore[attr-defined]
