"""The verdict fingerprint by inclusion: the verdict packages, the installed ticketflow, and
the exercise's own files; nothing that only shows, records or ships a verdict."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import grader.app.fingerprint as fingerprint
from grader.app.fingerprint import GRADER_DIR, VERDICT_PACKAGES, verdict_files, verdict_fingerprint
from grader.judge.exercises import exercise_ids, get_exercise

CODE = ("EX-11-01", "EX-12-01", "EX-13-01")


def _covered() -> set[str]:
    return {
        p.relative_to(GRADER_DIR).as_posix() for p in verdict_files() if GRADER_DIR in p.parents
    }


def test_only_the_verdict_packages_count() -> None:
    for path in _covered():
        assert path.split("/")[0] in VERDICT_PACKAGES, path
    assert {"runner/host.py", "proxy/child/prelude.py", "judge/verdict.py"} <= _covered()
    assert "proxy/oracle/link.py" in _covered() and "variants/targets.py" in _covered()
    for outside in ("app/service.py", "render/messages.py", "instructor/release.py"):
        assert outside not in _covered()
    texts = {"variants/policy.texts.toml", "judge/exercises/ex_11_01.texts.toml"}
    assert all((GRADER_DIR / path).is_file() for path in texts)
    assert texts & _covered() == set()


def test_an_exercise_adds_its_own_spec_and_stand_ins() -> None:
    own = set(verdict_files(get_exercise("EX-12-01"))) - set(verdict_files())
    assert own == {
        GRADER_DIR / "judge/exercises/ex_12_01.py",
        GRADER_DIR / "variants/effects.py",
    }
    assert GRADER_DIR / "judge/exercises/ex_11_01.py" not in verdict_files(get_exercise("EX-12-01"))


def test_a_prose_exercise_adds_its_spec_and_its_answer_key() -> None:
    own = set(verdict_files(get_exercise("EX-11-02"))) - set(verdict_files())
    assert own == {GRADER_DIR / "judge/exercises/ex_11_02.py", GRADER_DIR / "private/EX-11-02.toml"}


def test_the_installed_ticketflow_counts() -> None:
    import ticketflow

    policy = Path(ticketflow.__file__).resolve().parent / "workers" / "policy.py"
    assert policy in verdict_files()


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    tree = tmp_path / "grader"
    shutil.copytree(GRADER_DIR, tree, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(fingerprint, "GRADER_DIR", tree)
    yield tree


def _prints() -> dict[str, str]:
    return {i: verdict_fingerprint(get_exercise(i)) for i in exercise_ids()}


def _append(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")


def test_pages_exports_release_and_ui_strings_change_no_fingerprint(copy: Path) -> None:
    before = _prints()
    _append(copy / "instructor/review/templates/matrix.html.j2", "\n{# restyled #}\n")
    _append(copy / "instructor/review/static/review.css", "\nbody { color: red }\n")
    _append(copy / "instructor/gradebook/export.py", "\n# another CSV column order\n")
    _append(copy / "instructor/release.py", "\n# release tweak\n")
    _append(copy / "render/messages.py", "\n# reworded\n")
    _append(copy / "variants/policy.texts.toml", "\n# a mutant described better\n")
    _append(copy / "judge/exercises/ex_11_02.texts.toml", "\n# a better title\n")
    _append(copy / "frontends/cli.py", "\n# a new flag\n")
    assert _prints() == before


def test_editing_a_mutant_changes_only_its_exercises(copy: Path) -> None:
    before = _prints()
    _append(copy / "variants/effects.py", "\n# a mutant changed\n")
    after = _prints()
    changed = {i for i in before if before[i] != after[i]}
    assert changed == {"EX-12-01", "EX-13-01"}  # both are judged against the effects target
    _append(copy / "judge/exercises/ex_11_01.py", "\n# a check changed\n")
    assert {i for i in after if after[i] != _prints()[i]} == {"EX-11-01"}


def test_editing_an_answer_key_changes_only_its_exercise(copy: Path) -> None:
    before = _prints()
    _append(copy / "private/EX-11-02.toml", "\n# a pattern widened\n")
    after = _prints()
    assert {i for i in before if before[i] != after[i]} == {"EX-11-02"}
    (copy / "private/EX-12-02.toml").unlink()  # a student copy has none: that counts too
    assert {i for i in after if after[i] != _prints()[i]} == {"EX-12-02"}


def test_a_judging_module_changes_every_fingerprint(copy: Path) -> None:
    before = _prints()
    _append(copy / "judge/verdict.py", "\n# one more line\n")
    after = _prints()
    assert all(before[i] != after[i] for i in before)
    (copy / "proxy" / "new_module.py").write_text("x = 1\n")
    assert all(after[i] != value for i, value in _prints().items())


def test_code_exercises_differ_only_by_their_own_files() -> None:
    prints = {verdict_fingerprint(get_exercise(i)) for i in CODE}
    assert len(prints) == len(CODE)
