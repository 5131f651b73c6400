"""After the prelude, nothing in the process names or holds an implementation variant.

Run in a fresh interpreter that does what the fork-server host and the child do: import the
preload modules, call the prelude with the (only) arguments every run gets, drop the grader
modules; then search every object the garbage collector knows (frozen ones included) and
every frame. The variants and the oracle are never even imported there: they live in the
grader's process (``grader.proxy.oracle``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import CodeExercise

SCRIPT = r"""
import gc, importlib, json, sys
preload, target, needles = json.loads(sys.stdin.read())
for name in preload:
    importlib.import_module(name)
gc.collect(); gc.freeze()                      # what the host does before it forks
from grader.proxy.child.prelude import install

class Recorder:
    def record(self, kind, **data):
        pass

install(Recorder(), target=target)
loaded = [m for m in sys.modules if m.startswith(("grader.variants", "grader.proxy.oracle"))]
assert not loaded, loaded
for name in [m for m in sys.modules if m == "grader" or m.startswith("grader.")]:
    del sys.modules[name]                      # what the child does before the student runs
gc.unfreeze()
needles = [n.lower() for n in needles]
mine = {id(needles)} | {id(n) for n in needles}
found = set()

def look(value):
    if isinstance(value, str) and id(value) not in mine:
        low = value.lower()
        found.update(n for n in needles if n in low)

for obj in gc.get_objects():
    if id(obj) in mine:
        continue
    if isinstance(obj, dict):
        for key, value in list(obj.items()):
            look(key); look(value)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for value in list(obj):
            look(value)
    elif type(obj).__name__ == "code":
        for value in (obj.co_name, obj.co_qualname, *obj.co_consts, *obj.co_names):
            look(value)
        for value in obj.co_varnames:
            look(value)
    elif type(obj).__name__ == "function":
        look(obj.__name__); look(obj.__qualname__); look(obj.__doc__)
frame = sys._getframe()
while frame is not None:
    for value in list(frame.f_locals.values()):
        look(value)
    frame = frame.f_back
print(json.dumps(sorted(found)))
"""


@pytest.mark.parametrize("exercise_id", ["EX-11-01", "EX-12-01"])
def test_no_object_or_frame_names_an_implementation_variant(exercise_id: str) -> None:
    spec = get_exercise(exercise_id)
    assert isinstance(spec, CodeExercise)
    needles = [*spec.twins, *spec.mutants, "mutant", "twin"]
    preload = [m for m in spec.all_preload if ":" not in m]  # a warm-up is not an import
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        input=json.dumps([preload, spec.function_under_test.to_json(), needles]),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == [], done.stdout
