"""The prelude the runner calls in the child: ``install(recorder, target=...)``.

``target`` is the declaration of the function under test
(``grader.variants.targets.Target.to_json``:
module, function, instrument). Every run installs the same recording proxy, talking to the
grader's oracle over the descriptor the runner passed (``PASSED_FD``): which implementation
answers (the real one or another) is decided on the grader's side and is never sent here,
so runs differ only in behaviour.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from grader.runner.passfd import PASSED_FD


def install(recorder: Any, *, target: Mapping[str, str]) -> None:
    instrument = str(target.get("instrument") or "")
    if instrument:
        module_name, _, function = instrument.partition(":")
        getattr(importlib.import_module(module_name), function)(recorder, PASSED_FD)
        return
    from grader.proxy.child.generic import instrument_function

    instrument_function(
        recorder, PASSED_FD, module=str(target["module"]), function=str(target["function"])
    )
