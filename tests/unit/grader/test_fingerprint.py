"""The verdict fingerprint is fail-safe: everything in grader/ but the listed presentation
modules, the installed ticketflow, and the exercise's own files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import grader.fingerprint as fingerprint
from grader.exercises import get_exercise
from grader.fingerprint import GRADER_DIR, PRESENTATION_ONLY, verdict_files, verdict_fingerprint


def test_every_grader_file_counts_except_the_listed_presentation() -> None:
    covered = set(verdict_files())
    for path in GRADER_DIR.rglob("*"):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        presentation = path.relative_to(GRADER_DIR).parts[0] in PRESENTATION_ONLY
        assert (path in covered) != presentation, path


def test_what_the_old_fingerprint_missed_now_counts() -> None:
    covered = {
        p.relative_to(GRADER_DIR).as_posix() for p in verdict_files() if GRADER_DIR in p.parents
    }
    assert {"variants/policy.py", "variants/effects.py", "oracle/link.py", "targets.py"} <= covered
    assert {"runner/host.py", "harness/prelude.py", "service.py"} <= covered


def test_the_presentation_list_names_real_paths() -> None:
    for name in PRESENTATION_ONLY:
        assert (GRADER_DIR / name).exists(), name


def test_the_installed_ticketflow_counts() -> None:
    import ticketflow

    policy = Path(ticketflow.__file__).resolve().parent / "workers" / "policy.py"
    assert policy in verdict_files()


def test_any_change_to_a_covered_file_changes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "grader"
    shutil.copytree(GRADER_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(fingerprint, "GRADER_DIR", copy)
    before = verdict_fingerprint()
    variants = copy / "variants" / "policy.py"
    variants.write_text(variants.read_text() + "\n# one more line\n")
    changed = verdict_fingerprint()
    assert changed != before
    (copy / "render" / "messages_en.py").write_text("# presentation only\n")
    assert verdict_fingerprint() == changed
    (copy / "new_judging_module.py").write_text("x = 1\n")
    assert verdict_fingerprint() != changed  # a new module counts until listed as presentation


def test_an_exercise_whose_files_are_all_in_grader_adds_nothing() -> None:
    prints = {verdict_fingerprint(get_exercise(i)) for i in ("EX-11-01", "EX-12-01", "EX-11-02")}
    assert len(prints) == 1  # today every exercise's own files live in grader/
    assert verdict_fingerprint(get_exercise("EX-11-01")) == verdict_fingerprint()
