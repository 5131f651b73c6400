"""Reading submissions: file types, notebooks, syntax errors, unreadable files."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest

from grader.errors import (
    InvalidNotebook,
    StudentSyntaxError,
    SubmissionNotFound,
    SubmissionUnreadable,
    UnsupportedSubmission,
)
from grader.judge.exercises import get_exercise
from grader.judge.notebook_code import KERNEL_LINE
from grader.judge.submission import MAX_BYTES, load_submission
from grader.render.catalog import render_message

CODE = get_exercise("EX-11-01")
PROSE = get_exercise("EX-11-02")


def notebook(tmp_path: Path, cells: list[dict[str, Any]], nbformat: int = 4) -> Path:
    path = tmp_path / "work.ipynb"
    path.write_text(json.dumps({"cells": cells, "nbformat": nbformat, "metadata": {}}))
    return path


def cell(kind: str, source: str | list[str], tags: list[str] | None = None) -> dict[str, Any]:
    return {"cell_type": kind, "source": source, "metadata": {"tags": tags or []}}


def test_code_cells_are_joined_after_the_kernel_line_and_magics_read_as_ipython_does(
    tmp_path: Path,
) -> None:
    path = notebook(
        tmp_path,
        [
            cell("markdown", "# title"),
            cell("code", ["%time x = 1\n", "y = 2\n"]),
            cell("code", "z = 3"),
        ],
    )
    submission = load_submission(CODE, path)
    assert submission.text == (
        KERNEL_LINE + "\nget_ipython().run_line_magic('time', 'x = 1')\ny = 2\n\nz = 3\n"
    )
    assert submission.cell_starts == (2, 5)
    assert submission.cell_numbers == (2, 3)
    assert not submission.answer_cells_only
    assert [submission.locate(line) for line in (1, 2, 3, 5)] == [None, (2, 1), (2, 2), (3, 1)]


def test_only_cells_tagged_answer_count_when_any_is_tagged(tmp_path: Path) -> None:
    path = notebook(
        tmp_path,
        [cell("code", "scratch = 1"), cell("code", "answer = 2", ["answer"])],
    )
    submission = load_submission(CODE, path)
    assert submission.text == KERNEL_LINE + "\nanswer = 2\n"
    assert submission.answer_cells_only and submission.cell_numbers == (2,)


def test_prose_from_a_notebook_uses_markdown_cells(tmp_path: Path) -> None:
    path = notebook(tmp_path, [cell("code", "x = 1"), cell("markdown", "我的回答")])
    assert load_submission(PROSE, path).text == "我的回答\n"


def test_a_syntax_error_counts_every_notebook_cell_from_the_top(tmp_path: Path) -> None:
    path = notebook(
        tmp_path,
        [
            cell("markdown", "# intro"),
            cell("code", "a = 1"),
            cell("markdown", "x"),
            cell("code", "b = ("),
        ],
    )
    with pytest.raises(StudentSyntaxError) as caught:
        load_submission(CODE, path)
    assert (caught.value.params["cell"], caught.value.params["line"]) == (4, 1)


def test_a_syntax_error_in_a_notebook_names_the_cell_and_line(tmp_path: Path) -> None:
    path = notebook(tmp_path, [cell("code", "a = 1\nb = 2"), cell("code", "ok = 1\nc = (")])
    with pytest.raises(StudentSyntaxError) as caught:
        load_submission(CODE, path)
    assert caught.value.message_id == "error.syntax_cell"
    assert (caught.value.params["cell"], caught.value.params["line"]) == (2, 2)


def test_a_syntax_error_in_a_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "probe.py"
    path.write_text("x = 1\nif x\n    pass\n")
    with pytest.raises(StudentSyntaxError) as caught:
        load_submission(CODE, path)
    assert caught.value.params["line"] == 2
    assert caught.value.exit_code == 2


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "not JSON"),
        ('{"cells": 3, "nbformat": 4}', "cells"),
        ('{"cells": [], "nbformat": 3}', "nbformat"),
    ],
)
def test_invalid_notebooks_are_refused(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_text(content)
    with pytest.raises(InvalidNotebook) as caught:
        load_submission(CODE, path)
    assert reason in str(caught.value.params["reason"])


def test_a_notebook_without_code_cells_says_so(tmp_path: Path) -> None:
    path = notebook(tmp_path, [cell("markdown", "only words")])
    with pytest.raises(InvalidNotebook) as caught:
        load_submission(CODE, path)
    assert caught.value.message_id == "error.empty_notebook"


def test_missing_unreadable_and_wrong_type_files(tmp_path: Path) -> None:
    with pytest.raises(SubmissionNotFound):
        load_submission(CODE, tmp_path / "absent.py")
    binary = tmp_path / "binary.py"
    binary.write_bytes(b"\xff\xfe\x00x")
    with pytest.raises(SubmissionUnreadable):
        load_submission(CODE, binary)
    folder = tmp_path / "folder.py"
    folder.mkdir()
    with pytest.raises(SubmissionUnreadable):
        load_submission(CODE, folder)
    with pytest.raises(UnsupportedSubmission):
        load_submission(CODE, tmp_path / "answer.md")
    with pytest.raises(UnsupportedSubmission):
        load_submission(PROSE, tmp_path / "probe.py")


def test_a_symbolic_link_is_refused_without_reading_its_target(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_text("print('the solution')\n")
    link = tmp_path / "probe.py"
    link.symlink_to(target)
    with pytest.raises(SubmissionUnreadable) as caught:
        load_submission(CODE, link)
    assert caught.value.message_id == "error.submission_symlink"
    assert caught.value.exit_code == 2
    assert "symbolic link" in render_message(caught.value.message_id, caught.value.params, "en")


def test_a_link_to_a_fifo_is_refused_as_a_link_not_opened(tmp_path: Path) -> None:
    # Following the link would reach the FIFO (and without O_NONBLOCK, block for a writer).
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "probe.py"
    link.symlink_to(fifo)
    with pytest.raises(SubmissionUnreadable) as caught:
        load_submission(CODE, link)
    assert caught.value.message_id == "error.submission_symlink"


def test_a_dangling_link_is_a_link_not_a_missing_file(tmp_path: Path) -> None:
    link = tmp_path / "probe.py"
    link.symlink_to(tmp_path / "nowhere.py")
    with pytest.raises(SubmissionUnreadable) as caught:
        load_submission(CODE, link)
    assert caught.value.message_id == "error.submission_symlink"


@pytest.mark.timeout(10)
def test_fifos_sockets_and_directories_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.py"
    folder.mkdir()
    sock_path = tmp_path / "sock.py"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    try:
        for path in (fifo, folder, sock_path):
            with pytest.raises(SubmissionUnreadable) as caught:
                load_submission(CODE, path)
            assert caught.value.message_id == "error.submission_not_regular", path
            assert "not a regular file" in render_message(
                caught.value.message_id, caught.value.params, "en"
            )
    finally:
        server.close()


def test_a_file_over_the_size_cap_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.py"
    path.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(SubmissionUnreadable) as caught:
        load_submission(CODE, path)
    assert "larger than" in str(caught.value.params["reason"])


def test_a_linked_folder_below_the_current_directory_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unpacked archive can carry `sub -> .../solutions/EX-11-01` (hostile H1b)."""
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    (solutions / "retry_policy_probe.py").write_text("print('the solution')\n")
    handed_in = tmp_path / "handed-in"
    handed_in.mkdir()
    (handed_in / "sub").symlink_to(solutions)
    monkeypatch.chdir(tmp_path)
    for path in (
        handed_in / "sub" / "retry_policy_probe.py",
        Path("handed-in/sub/retry_policy_probe.py"),
    ):
        with pytest.raises(SubmissionUnreadable) as caught:
            load_submission(CODE, path)
        assert caught.value.message_id == "error.submission_linked_folder"
        assert caught.value.params["link"] == str(handed_in / "sub")


def test_links_at_or_above_the_current_directory_are_the_users_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tmp_path / "real" / "course"
    real.mkdir(parents=True)
    (real / "probe.py").write_text("x = 1\n")
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    monkeypatch.chdir(tmp_path / "alias" / "course")
    monkeypatch.setenv("PWD", str(tmp_path / "alias" / "course"))  # as a shell would
    assert load_submission(CODE, Path("probe.py")).text == "x = 1\n"
    assert load_submission(CODE, tmp_path / "alias" / "course" / "probe.py").text == "x = 1\n"
    nested = real / "deeper"
    nested.mkdir()
    (nested / "probe.py").write_text("y = 2\n")
    assert load_submission(CODE, Path("deeper/probe.py")).text == "y = 2\n"
