"""Make a stand-in function look like the function it replaces.

A stand-in (or the recording wrapper) gets the real function's name, qualname, module,
docstring, annotations, globals, code name, file name and first line, so that looking at
``__module__``, ``__qualname__``, ``__code__.co_filename``, ``inspect.getsource`` or a
traceback tells the same story in every run.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any


def disguise(stand_in: Callable[..., Any], *, like: Callable[..., Any]) -> Any:
    """A copy of ``stand_in`` (same behaviour, same closure) dressed as ``like``."""
    if not isinstance(stand_in, types.FunctionType) or not isinstance(like, types.FunctionType):
        raise TypeError("disguise() works on plain Python functions")
    real_code = like.__code__
    code = stand_in.__code__.replace(
        co_name=real_code.co_name,
        co_qualname=real_code.co_qualname,
        co_filename=real_code.co_filename,
        co_firstlineno=real_code.co_firstlineno,
    )
    dressed = types.FunctionType(
        code, like.__globals__, like.__name__, stand_in.__defaults__, stand_in.__closure__
    )
    dressed.__kwdefaults__ = stand_in.__kwdefaults__
    dressed.__qualname__ = like.__qualname__
    dressed.__module__ = like.__module__
    dressed.__doc__ = like.__doc__
    dressed.__annotations__ = dict(like.__annotations__)
    dressed.__dict__.update(like.__dict__)
    return dressed
