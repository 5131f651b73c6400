"""The prelude the runner calls in the child: ``install(recorder, target=..., code=...)``.

``target`` is the declaration of the function under test (``grader.targets.Target.to_json``:
module, function, instrument); ``code`` is empty for the run on the real implementation,
else the bytecode of the stand-in to run instead (see ``grader.codegen``). Every run installs
the same recording wrapper, so runs differ only in the behaviour behind it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any


def install(recorder: Any, *, target: Mapping[str, str], code: str) -> None:
    instrument = str(target.get("instrument") or "")
    if instrument:
        module_name, _, function = instrument.partition(":")
        getattr(importlib.import_module(module_name), function)(recorder, code)
        return
    from grader.harness.generic import instrument_function

    instrument_function(
        recorder, code, module=str(target["module"]), function=str(target["function"])
    )
