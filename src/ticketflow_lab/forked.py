"""Run one demo in a forked child of its own and bring its result back to the kernel.

A lesson kernel that hosted worker pools, killed pool processes and proxied broker
connections itself sometimes hung at exit (its temporary folders then outlived it). A demo
run through ``in_forked_child`` leaves nothing of that in the kernel: the child leaves
through ``os._exit`` once its (picklable) result, or its error, has been sent back.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def in_forked_child(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    fork = multiprocessing.get_context("fork")
    results = fork.SimpleQueue()

    def child() -> None:
        try:
            results.put((True, function(*args, **kwargs)))
        except Exception as error:  # reported in the kernel, not lost in the child
            results.put((False, f"{type(error).__name__}: {error}"))

    process = fork.Process(target=child, name=f"lesson-{function.__name__}")
    process.start()
    ok, value = results.get()
    process.join(timeout=30)
    if not ok:
        raise RuntimeError(value)
    return value  # type: ignore[no-any-return]
