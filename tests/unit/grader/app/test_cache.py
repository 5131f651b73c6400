"""The ``.grader/`` cache is opened like a submission: no links, regular files only, never
blocking (issue 12 item 4). Anything odd is "no cache", never an error or a hang."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from grader.app import cache
from grader.judge.exercises import get_exercise
from grader.judge.results import CheckReport, build_report, msg, passed_check

EXERCISE = get_exercise("EX-11-01")
TEXT = "print('probe')\n"


def _report() -> CheckReport:
    return build_report("EX-11-01", "code", (passed_check("runs_cleanly", 1.0, msg("run.ok")),))


def test_a_stored_verdict_is_found_for_the_same_text_only(tmp_path: Path) -> None:
    cache.store(tmp_path, EXERCISE, _report(), TEXT)
    hit = cache.lookup(tmp_path, EXERCISE, TEXT)
    assert hit is not None and (hit["status"], hit["score"]) == ("passed", 1.0)
    assert cache.lookup(tmp_path, EXERCISE, TEXT + "print('changed')\n") is None
    assert cache.lookup(tmp_path, get_exercise("EX-12-01"), TEXT) is None


def test_a_grader_symlink_cannot_redirect_writes(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "results.json").write_text('{"precious": true}')
    root = tmp_path / "course"
    root.mkdir()
    (root / ".grader").symlink_to(elsewhere, target_is_directory=True)
    cache.store(root, EXERCISE, _report(), TEXT)
    assert (elsewhere / "results.json").read_text() == '{"precious": true}'
    assert sorted(p.name for p in elsewhere.iterdir()) == ["results.json"]
    assert cache.load(root) == {}


def test_a_results_link_is_replaced_never_written_through(tmp_path: Path) -> None:
    target = tmp_path / "victim.json"
    target.write_text("{}")
    (tmp_path / ".grader").mkdir()
    (tmp_path / ".grader" / "results.json").symlink_to(target)
    assert cache.load(tmp_path) == {}
    cache.store(tmp_path, EXERCISE, _report(), TEXT)
    assert target.read_text() == "{}"
    assert not (tmp_path / ".grader" / "results.json").is_symlink()
    assert cache.lookup(tmp_path, EXERCISE, TEXT) is not None


@pytest.mark.timeout(10)
def test_a_fifo_at_results_json_never_blocks(tmp_path: Path) -> None:
    (tmp_path / ".grader").mkdir()
    os.mkfifo(tmp_path / ".grader" / "results.json")
    assert cache.load(tmp_path) == {}
    assert cache.lookup(tmp_path, EXERCISE, TEXT) is None
    cache.store(tmp_path, EXERCISE, _report(), TEXT)  # replaces the FIFO, never opens it
    assert cache.lookup(tmp_path, EXERCISE, TEXT) is not None


def test_garbage_and_huge_files_are_no_cache(tmp_path: Path) -> None:
    folder = tmp_path / ".grader"
    folder.mkdir()
    for content in ("not json", "[1, 2]", "[" * 100_000, json.dumps({"x": "y" * cache.MAX_BYTES})):
        (folder / "results.json").write_text(content)
        assert cache.load(tmp_path) == {}


def test_a_grader_file_instead_of_a_folder_just_means_no_cache(tmp_path: Path) -> None:
    (tmp_path / ".grader").write_text("not a folder")
    cache.store(tmp_path, EXERCISE, _report(), TEXT)
    assert cache.load(tmp_path) == {}
    assert (tmp_path / ".grader").read_text() == "not a folder"
