"""The generic recording wrapper (a target without a dedicated one): plain arguments and
results only, the real function's identity, and a stand-in's behaviour behind it."""

from __future__ import annotations

import random
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.codegen import stand_in_code
from grader.harness.generic import instrument_function
from grader.targets import TARGETS, Target

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
def module() -> Iterator[types.ModuleType]:
    made = types.ModuleType("generic_under_test")
    exec(compile(SOURCE, "generic_under_test.py", "exec"), made.__dict__)
    sys.modules[made.__name__] = made
    yield made
    del sys.modules[made.__name__]


def test_calls_are_recorded_from_the_wrappers_own_view(module: types.ModuleType) -> None:
    recorder = ListRecorder()
    instrument_function(recorder, "", module="generic_under_test", function="half")
    assert module.half.__name__ == "half" and module.half.__module__ == "generic_under_test"
    assert module.half(8) == 4
    with pytest.raises(ValueError, match="odd"):
        module.half(3)
    module.half(False)  # a bool is recorded as a bool, never as the int it equals
    first, second, third = recorder.records
    assert first == {"kind": "call", "function": "half", "args": [8], "kwargs": {}, "result": 4}
    assert second["raised"] == "ValueError" and "result" not in second
    assert type(third["args"][0]) is bool and type(third["result"]) is int


def test_methods_are_found_by_qualified_name(module: types.ModuleType) -> None:
    recorder = ListRecorder()
    instrument_function(recorder, "", module="generic_under_test", function="Box.size")
    assert module.Box().size(extra=2) == 5
    (call,) = recorder.records
    assert (call["function"], call["args"], call["kwargs"]) == ("Box.size", ["<Box>"], {"extra": 2})


def test_a_stand_in_runs_behind_the_same_wrapper(
    module: types.ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stand_ins = tmp_path / "half_variants.py"
    stand_ins.write_text("def rounds_down(value):\n    return value >> 1\n", encoding="utf-8")
    target = Target(name="half", module="generic_under_test", function="half", stand_ins=stand_ins)
    monkeypatch.setitem(TARGETS, "half", target)
    recorder = ListRecorder()
    code = stand_in_code("half", "rounds_down", random.Random(1))
    instrument_function(recorder, code, module="generic_under_test", function="half")
    assert module.half(3) == 1  # the stand-in's behaviour: no ValueError
    assert recorder.records[0]["result"] == 1
    assert module.half.__code__.co_name == "half"
