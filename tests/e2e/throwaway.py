"""A throwaway exercise, registered the way grader/README.md ("Adding an exercise") says.

The three grader-side files, written to a temporary folder instead of the package:

1. the function under test, declared once: a ``Target`` in ``grader.variants.targets.TARGETS``;
2. its stand-ins file: one twin and one mutant (``files/throwaway/clamp_variants.py``);
3. the exercise spec ``ex_99_01.py`` in a folder of the ``grader.judge.exercises`` package (found
   by discovery, listed nowhere).

Plus a course root holding ``exercises/EX-99-01/`` for the student's file.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import grader.judge.exercises
from grader.variants.targets import TARGETS, Target

FILES = Path(__file__).parent / "files" / "throwaway"
EXERCISE_ID = "EX-99-01"
MODULE = "grader.judge.exercises.ex_99_01"


@dataclass(frozen=True)
class Throwaway:
    root: Path  # a course root with exercises/EX-99-01/
    stand_ins: Path
    probe: Path  # where the student's file goes

    def hand_in(self, name: str) -> Path:
        shutil.copyfile(FILES / name, self.probe)
        return self.probe


@pytest.fixture
def throwaway(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Throwaway]:
    code = tmp_path / "code"
    package = tmp_path / "exercise-specs"
    code.mkdir()
    package.mkdir()
    shutil.copyfile(FILES / "throwaway_clamp.py", code / "throwaway_clamp.py")
    stand_ins = code / "clamp_variants.py"
    shutil.copyfile(FILES / "clamp_variants.py", stand_ins)
    shutil.copyfile(FILES / "ex_99_01.py", package / "ex_99_01.py")
    monkeypatch.syspath_prepend(str(code))  # the fork server imports it from there
    target = Target(name="clamp", module="throwaway_clamp", function="clamp", stand_ins=stand_ins)
    monkeypatch.setitem(TARGETS, "clamp", target)
    monkeypatch.setattr(
        grader.judge.exercises, "__path__", [*grader.judge.exercises.__path__, str(package)]
    )
    root = tmp_path / "course"
    (root / "exercises" / EXERCISE_ID).mkdir(parents=True)
    yield Throwaway(root, stand_ins, root / "exercises" / EXERCISE_ID / "clamp_probe.py")
    for name in (MODULE, "throwaway_clamp"):
        sys.modules.pop(name, None)
