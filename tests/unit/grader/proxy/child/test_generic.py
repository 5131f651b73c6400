"""The generic recording proxy (a target without a dedicated one): plain arguments and
results only, the real function's identity, and whichever implementation the oracle runs
behind it (the real one or a stand-in), in this test's process on another thread."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.proxy.child.generic import instrument_function
from grader.proxy.oracle.session import Oracle
from grader.variants.targets import TARGETS, Target

SOURCE = """
class Box:
    def size(self, extra):
        return 3 + extra


def half(value):
    if value % 2:
        raise ValueError("odd")
    return value // 2
"""


class ListRecorder:
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def record(self, kind: str, **data: Any) -> None:
        self.records.append({"kind": kind, **data})


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    made = types.ModuleType("generic_under_test")
    exec(compile(SOURCE, "generic_under_test.py", "exec"), made.__dict__)
    sys.modules[made.__name__] = made
    stand_ins = tmp_path / "generic_variants.py"
    stand_ins.write_text("def rounds_down(value):\n    return value >> 1\n", encoding="utf-8")
    for name, function in (("half", "half"), ("box", "Box.size")):
        target = Target(
            name=name, module="generic_under_test", function=function, stand_ins=stand_ins
        )
        monkeypatch.setitem(TARGETS, name, target)
    yield made
    del sys.modules[made.__name__]


@pytest.fixture
def oracles() -> Iterator[list[Oracle]]:
    """Oracles started by a test; each conversation must end cleanly."""
    started: list[Oracle] = []
    yield started
    for oracle in started:
        ended = oracle.close()
        assert ended.broken is None and ended.bug is None, ended


def _proxy(oracles: list[Oracle], target: str, name: str, recorder: ListRecorder) -> None:
    """Start the oracle (it resolves the real function now, before the proxy replaces it),
    then instrument the function as the prelude does in a run."""
    oracle = Oracle(target, name)
    oracles.append(oracle)
    declared = TARGETS[target]
    instrument_function(
        recorder, oracle.student_fd, module=declared.module, function=declared.function
    )


def test_calls_are_recorded_from_the_wrappers_own_view(
    module: types.ModuleType, oracles: list[Oracle]
) -> None:
    recorder = ListRecorder()
    _proxy(oracles, "half", "real", recorder)
    assert module.half.__name__ == "half" and module.half.__module__ == "generic_under_test"
    assert module.half(8) == 4
    with pytest.raises(ValueError, match="odd"):
        module.half(3)
    module.half(False)  # a bool is recorded as a bool, never as the int it equals
    first, second, third = recorder.records
    assert first == {"kind": "call", "function": "half", "args": [8], "kwargs": {}, "result": 4}
    assert second["raised"] == "ValueError" and "result" not in second
    assert type(third["args"][0]) is bool and type(third["result"]) is int


def test_methods_are_found_by_qualified_name(
    module: types.ModuleType, oracles: list[Oracle]
) -> None:
    recorder = ListRecorder()
    _proxy(oracles, "box", "real", recorder)
    assert module.Box().size(extra=2) == 5
    (call,) = recorder.records
    assert (call["function"], call["args"], call["kwargs"]) == ("Box.size", ["<Box>"], {"extra": 2})


def test_a_stand_in_runs_behind_the_same_wrapper(
    module: types.ModuleType, oracles: list[Oracle]
) -> None:
    recorder = ListRecorder()
    _proxy(oracles, "half", "rounds_down", recorder)
    assert module.half(3) == 1  # the stand-in's behaviour: no ValueError
    assert recorder.records[0]["result"] == 1
    assert module.half.__code__.co_name == "half"


def test_the_proxy_is_the_same_code_whoever_answers(
    module: types.ModuleType, oracles: list[Oracle]
) -> None:
    """Real and stand-in runs hand the probe byte-identical code: only behaviour differs."""
    codes = []
    for name in ("real", "rounds_down"):
        real = module.__dict__["half"]
        _proxy(oracles, "half", name, ListRecorder())
        codes.append(module.half.__code__.co_code)
        module.half = real
    assert codes[0] == codes[1]
