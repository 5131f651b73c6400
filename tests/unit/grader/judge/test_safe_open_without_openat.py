"""Where there is no ``openat`` (Windows: ``os.open`` is not in ``os.supports_dir_fd``), a
student's own check still reads the hand-in, still refuses a link in it, and runs without
the verdict cache instead of failing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader.app import cache
from grader.judge.exercises import get_exercise
from grader.judge.results import build_report
from grader.judge.safe_open import LinkOnPath, open_no_links


@pytest.fixture
def no_openat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "supports_dir_fd", set())


def test_a_hand_in_is_read_and_a_link_refused(
    no_openat: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "hand-in"
    folder.mkdir()
    probe = folder / "probe.py"
    probe.write_text("print('你好')\r\n", encoding="utf-8")
    fd = open_no_links(probe)
    try:
        assert os.read(fd, 100).decode("utf-8") == "print('你好')\r\n"
    finally:
        os.close(fd)
    (tmp_path / "linked").symlink_to(folder, target_is_directory=True)
    with pytest.raises(LinkOnPath):
        open_no_links(tmp_path / "linked" / "probe.py")
    (folder / "link.py").symlink_to(probe)
    with pytest.raises(OSError):
        open_no_links(folder / "link.py")


def test_the_cache_is_off_not_an_error(no_openat: None, tmp_path: Path) -> None:
    exercise = get_exercise("EX-11-01")
    report = build_report("EX-11-01", "code", (), lang="en")
    cache.store(tmp_path, exercise, report, "print(1)")
    assert cache.load(tmp_path) == {}
    assert not (tmp_path / ".grader").exists()
