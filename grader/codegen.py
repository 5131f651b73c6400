"""Per-run bytecode for a stand-in (twin or mutant): the only thing about it a run receives.

``stand_in_code(target, name, rng)`` parses the target's stand-ins file (``grader/targets.py``
declares it; never imported), takes the one function ``name``, and before compiling it:

* renames it to the real function's name and drops its docstring and annotations, so its
  code object names nothing but the function it replaces;
* flattens every source position to line 1, column 0 (positions would point into the
  variants file and tell the stand-ins apart);
* salts it: a few no-op assignments ``_<random> = <random int>`` at random places, so its
  bytecode differs on every run and never matches a fingerprint known in advance.

The result is ``marshal`` bytes in base64 (text for the JSON request). The harness in the
sandbox turns it into a function with the real module's globals. Same interpreter on both
sides (the fork server runs ``sys.executable``), so the marshal format matches.
"""

from __future__ import annotations

import ast
import base64
import copy
import marshal
import random
import string
import types
from functools import cache

from grader.targets import VARIANTS_DIR, get_target

__all__ = ["VARIANTS_DIR", "stand_in_code", "stand_in_names"]
SALT_STATEMENTS = (1, 4)


def stand_in_code(target: str, name: str, rng: random.Random) -> str:
    """Base64 ``marshal`` of the salted, renamed code object of stand-in ``name``."""
    function = copy.deepcopy(_definitions(target)[name])
    function.name = get_target(target).real_name
    function.returns = None
    for argument in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs):
        argument.annotation = None
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        del body[0]  # the docstring
    _salt(function, rng)
    for node in ast.walk(function):
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = 1  # type: ignore[attr-defined]
            node.col_offset = node.end_col_offset = 0  # type: ignore[attr-defined]
    module = compile(ast.Module(body=[function], type_ignores=[]), "<>", "exec", dont_inherit=True)
    code = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    return base64.b64encode(marshal.dumps(code)).decode("ascii")


def stand_in_names(target: str) -> tuple[str, ...]:
    """Every function defined in the target's variants file."""
    return tuple(_definitions(target))


def _definitions(target: str) -> dict[str, ast.FunctionDef]:
    """Read on every call (an edited stand-in counts at once, like the fingerprint says)."""
    return _parsed(get_target(target).stand_ins.read_text(encoding="utf-8"))


@cache
def _parsed(source: str) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(source)
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def _salt(function: ast.FunctionDef, rng: random.Random) -> None:
    """Insert no-op assignments before randomly chosen statements of the function."""
    blocks = [
        block
        for node in ast.walk(function)
        for field in ("body", "orelse", "finalbody")
        if isinstance(block := getattr(node, field, None), list)
        and block
        and isinstance(block[0], ast.stmt)
    ]
    for _ in range(rng.randint(*SALT_STATEMENTS)):
        block = rng.choice(blocks)
        name = "_" + "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 8)))
        salt = ast.Assign(
            targets=[ast.Name(id=name, ctx=ast.Store())],
            value=ast.Constant(rng.randrange(1, 2**31)),
        )
        block.insert(rng.randrange(len(block)), salt)
