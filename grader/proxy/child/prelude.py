"""The prelude the runner calls in the child: ``install(recorder, target=...)``.

``target`` is the declaration of the function under test
(``grader.variants.targets.Target.to_json``:
module, function, instrument). Every run installs the same recording proxy, talking to the
grader's oracle over the channel the runner handed it (``grader.runner.passed``: descriptor
``PASSED_FD``, or a loopback socket in the portable mode): which implementation
answers (the real one or another) is decided on the grader's side and is never sent here,
so runs differ only in behaviour.

Before the run hides ticketflow's source files, the prelude keeps the public source text of
the module under test in ``linecache`` (``keep_public_source``), so ``inspect.getsource``
on the function under test shows the public ticketflow code, as lesson 13 does: the proxy
is dressed as the real function (``disguise``), so every run shows the same text, whichever
implementation answers. A reload of a ticketflow module keeps the module as loaded
(``reloading``): the proxy stays, as the code under test stays in a kernel.
"""

from __future__ import annotations

import importlib
import linecache
import sys
from collections.abc import Mapping
from typing import Any

from grader.proxy.child.reloading import keep_loaded_on_reload
from grader.runner.passed import passed_channel

#: Bytes of a module's source kept at most (ticketflow's modules have a few KB).
MAX_SOURCE = 256 * 1024


def keep_public_source(module_name: str) -> None:
    """The module's source file, as it is on disk now, kept in ``linecache`` with no
    modification time (``linecache.checkcache`` keeps such an entry once the file is
    hidden). Nothing kept when it cannot be read (then getsource fails as before)."""
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    if not isinstance(path, str) or not path.endswith(".py"):
        return
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_SOURCE + 1)
    except (OSError, UnicodeDecodeError):
        return
    if len(text) <= MAX_SOURCE:
        linecache.cache[path] = (len(text), None, text.splitlines(True), path)


def install(recorder: Any, *, target: Mapping[str, Any]) -> None:
    keep_public_source(str(target["module"]))
    keep_loaded_on_reload()
    channel = passed_channel()
    instrument = str(target.get("instrument") or "")
    if instrument:
        module_name, _, function = instrument.partition(":")
        instrumenting = getattr(importlib.import_module(module_name), function)
        if target.get("pure") is True:
            instrumenting(recorder, channel, pure=True)
        else:
            instrumenting(recorder, channel)
        return
    from grader.proxy.child.generic import instrument_function

    instrument_function(
        recorder,
        channel,
        module=str(target["module"]),
        function=str(target["function"]),
        pure=target.get("pure") is True,
    )
