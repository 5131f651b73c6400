"""Which implementation answers a run: the real function under test, or one of its stand-ins.

Both come from the target's declaration (``grader.variants.targets``): the real function is imported
from ``module`` and ``function``; twins and mutants are the top-level functions of the
target's ``stand_ins`` file. Only an oracle loads that file (never the master or a run);
the name chosen for a run stays here (``grading`` shuffles the runs and keeps the map).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from grader.proxy.oracle.link import Answer, Encoder
from grader.variants.targets import VARIANTS_DIR, Target, get_target

#: The real implementation of each target (never a patched copy: the oracle's process is
#: never instrumented).
REAL = "real"

#: Stand-ins files loaded so far, by (path, content hash): an edited file is loaded anew.
_loaded: dict[tuple[str, str], ModuleType] = {}


def _target(target: Target | str) -> Target:
    return target if isinstance(target, Target) else get_target(target)


def real_function(target: Target | str) -> Callable[..., Any]:
    """The real function (a method as it is in its class ``__dict__``: unbound)."""
    declared = _target(target)
    owner: Any = importlib.import_module(declared.module)
    *path, name = declared.function.split(".")
    for part in path:
        owner = getattr(owner, part)
    found: Callable[..., Any] = owner.__dict__[name]
    return found


def stand_ins(target: Target | str) -> ModuleType:
    """The target's stand-ins file as a module (``grader/variants/*`` by its package name)."""
    path = _target(target).stand_ins.resolve()
    if path.parent == VARIANTS_DIR.resolve():
        return importlib.import_module(f"grader.variants.{path.stem}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    module = _loaded.get((str(path), digest))
    if module is None:
        name = f"_grader_stand_ins_{path.stem}_{digest[:12]}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load the stand-ins file {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        _loaded[(str(path), digest)] = module
    return module


def implementation(target: Target | str, name: str) -> Callable[..., Any]:
    if name == REAL:
        return real_function(target)
    variants = stand_ins(target)
    found = getattr(variants, name, None)
    if not callable(found) or getattr(found, "__module__", None) != variants.__name__:
        raise ValueError(f"{name!r} is not a twin or mutant of {_target(target).name!r}")
    return found  # type: ignore[no-any-return]


def answer_for(target: Target | str, name: str) -> Answer:
    """What the oracle runs for one call of the probe."""
    declared = _target(target)
    function = implementation(declared, name)
    if declared.name == "policy":
        from grader.proxy.oracle.policy import policy_answer

        answer: Answer = policy_answer(function)
        return answer
    if declared.name == "effects":
        from grader.proxy.oracle.effects import effects_answer

        answer = effects_answer(function)
        return answer
    from grader.proxy.oracle.generic import generic_answer

    answer = generic_answer(function)
    return answer


def encoders_for(target: Target | str) -> tuple[Encoder, ...]:
    """What the conversation of ``target`` must send besides plain data and handles."""
    if _target(target).name == "effects":
        from grader.proxy.oracle.statements import encode_sqlalchemy

        return (encode_sqlalchemy,)
    return ()


def warm_up(target: Target | str) -> None:
    """Import what the oracle of ``target`` needs (called on a thread while the fork server
    starts, so the first call of the real run does not wait for SQLAlchemy). Quiet: a
    failure here shows up, as an internal error, when the first oracle starts."""
    try:
        declared = _target(target)
        answer_for(declared, REAL)
        if declared.name == "effects":
            from grader.proxy.oracle.statements import catalogue

            catalogue()
    except Exception:
        return
