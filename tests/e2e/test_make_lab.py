"""``make lab``: JupyterLab as root too (Jupyter refuses root without --allow-root), and its
terminals have the course's venv first on PATH although they are login shells."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.lab_support import VENV_BIN, Lab, Terminal, path_without_venv, started_lab

REPO = Path(__file__).resolve().parents[2]


def lab_command(tmp_path: Path, uid: int) -> str:
    """What ``make lab`` would run when ``id -u`` says ``uid`` (a fake ``id`` first on PATH)."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "id").write_text(f"#!/bin/sh\necho {uid}\n", encoding="utf-8")
    (fake / "id").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["make", "-s", "-n", "lab"],  # -n: print the commands, run none
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    joined = done.stdout.replace("\\\n", " ")  # the recipe's continued lines, as one
    (line,) = [line for line in joined.splitlines() if "jupyter lab" in line]
    return line


@pytest.mark.parametrize(("uid", "allowed"), [(0, True), (1000, False)])
def test_make_lab_adds_allow_root_only_for_root(tmp_path: Path, uid: int, allowed: bool) -> None:
    line = lab_command(tmp_path, uid)
    assert f'--ServerApp.root_dir="{REPO}"' in line
    assert ("--allow-root" in line) is allowed, line


# -- the lab's terminal is the course's environment ------------------------------------------

CODE_EXERCISES = ("EX-11-01", "EX-12-01", "EX-13-01")


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with started_lab(tmp_path_factory.mktemp("lab")) as started:
        yield started


def readme_command(exercise_id: str) -> str:
    """The run command an exercise's README gives for a Linux / macOS shell."""
    text = (REPO / "exercises" / exercise_id / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"`(python exercises/[^`]+\.py)`", text)
    assert commands, f"{exercise_id}'s README gives no run command"
    return commands[0]


@pytest.mark.slow
def test_the_lab_terminal_has_the_venv_first_though_the_server_was_started_without_it(
    lab: Lab,
) -> None:
    assert str(VENV_BIN) not in path_without_venv().split(os.pathsep)
    with Terminal(lab) as terminal:
        status, listed = terminal.run("grader list")
        assert status == 0, listed
        assert all(exercise in listed for exercise in CODE_EXERCISES), listed
        status, imported = terminal.run('python -c "import ticketflow; print(ticketflow.__file__)"')
        assert status == 0, imported
        assert str(REPO / "src" / "ticketflow") in imported
        status, where = terminal.run('command -v grader; echo "venv=$VIRTUAL_ENV"')
        assert status == 0
        assert str(VENV_BIN / "grader") in where and f"venv={REPO / '.venv'}" in where, where


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", CODE_EXERCISES)
def test_an_exercise_readme_command_runs_in_the_lab_terminal(lab: Lab, exercise_id: str) -> None:
    """The starter runs as far as its own "not done yet": ticketflow was imported."""
    with Terminal(lab) as terminal:
        status, output = terminal.run(readme_command(exercise_id))
    assert "ModuleNotFoundError" not in output and "command not found" not in output, output
    assert status == 1 and f"NotImplementedError: {exercise_id}" in output, output
