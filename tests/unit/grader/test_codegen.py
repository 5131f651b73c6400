"""What a run receives about its stand-in: salted bytecode that names nothing."""

from __future__ import annotations

import ast
import base64
import builtins
import dis
import marshal
import random
import types
from pathlib import Path

import pytest

from grader.codegen import VARIANTS_DIR, stand_in_code, stand_in_names
from grader.exercises import exercise_ids, get_exercise
from grader.exercises.spec import CodeExercise
from grader.variants import effects as effect_variants
from grader.variants import policy as policy_variants
from ticketflow.notifications import effects
from ticketflow.workers import policy

MODULES = {"policy": (policy_variants, policy), "effects": (effect_variants, effects)}
#: Words that would tell a run what it is if they showed up in its code.
TELLING = ("mutant", "twin", "variant", "stand")


def _code(target: str, name: str, seed: int = 0) -> types.CodeType:
    code = marshal.loads(base64.b64decode(stand_in_code(target, name, random.Random(seed))))
    assert isinstance(code, types.CodeType)
    return code


def _strings(code: types.CodeType) -> set[str]:
    found = {code.co_name, code.co_qualname, code.co_filename}
    found |= set(code.co_names) | set(code.co_varnames) | set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, str):
            found.add(const)
        elif isinstance(const, tuple):
            found |= {item for item in const if isinstance(item, str)}
        elif isinstance(const, types.CodeType):
            found |= _strings(const)
    return found


@pytest.mark.parametrize("target", sorted(MODULES))
def test_every_twin_and_mutant_is_declared_and_every_declared_one_exists(target: str) -> None:
    module, _ = MODULES[target]
    assert set(stand_in_names(target)) == set(module.TWINS) | set(module.MUTANTS)
    for exercise_id in exercise_ids():
        spec = get_exercise(exercise_id)
        if isinstance(spec, CodeExercise) and spec.target == target:
            assert set(spec.twins) <= set(module.TWINS), exercise_id
            assert set(spec.mutants) <= set(module.MUTANTS), exercise_id
            assert len(spec.twins) >= 2, exercise_id


@pytest.mark.parametrize("target", sorted(MODULES))
def test_the_code_names_no_stand_in_and_only_uses_the_real_modules_globals(target: str) -> None:
    _, real_module = MODULES[target]
    available = set(vars(real_module)) | set(dir(builtins))
    every_name = set(stand_in_names(target))
    for name in stand_in_names(target):
        code = _code(target, name)
        strings = _strings(code)
        assert not strings & every_name, name
        assert not [s for s in strings for word in TELLING if word in s.lower()], name
        assert code.co_consts[0] is None  # no docstring
        loads = {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL"}
        assert loads <= available, (name, loads - available)
        assert not [c for c in code.co_consts if isinstance(c, types.CodeType)], name


def test_every_build_is_salted_differently_and_positions_are_flat() -> None:
    source = (VARIANTS_DIR / "policy.py").read_text(encoding="utf-8")
    plain_def = next(
        n
        for n in ast.parse(source).body
        if isinstance(n, ast.FunctionDef) and n.name == "loop_backoff"
    )
    plain_def.name = "decision"
    unsalted = compile(ast.Module([plain_def], []), "<>", "exec").co_consts
    unsalted_code = next(c for c in unsalted if isinstance(c, types.CodeType))
    builds = [_code("policy", "loop_backoff", seed) for seed in range(20)]
    fingerprints = {(c.co_code, c.co_consts, c.co_varnames) for c in builds}
    assert len(fingerprints) == 20
    assert all(c.co_code != unsalted_code.co_code for c in builds)
    assert all({line for _, _, line in c.co_lines() if line is not None} == {1} for c in builds)


def test_an_unknown_target_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown function under test"):
        stand_in_code("nope", "x", random.Random(0))


def test_the_variants_folder_is_where_codegen_reads() -> None:
    assert Path(policy_variants.__file__).resolve().parent == VARIANTS_DIR
