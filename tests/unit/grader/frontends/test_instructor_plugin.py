"""The student's ``grader`` without the instructor wing: where ``grader.instructor`` cannot be
imported (a student copy) or its extra is not installed, ``--help`` lists only the student's
commands, and ``check`` and ``submit`` work; where it is installed, its commands follow."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.frontends import cli
from grader.instructor import entrypoints

REPO = Path(__file__).resolve().parents[4]
STUDENT = ["check", "list", "submit"]
INSTRUCTOR = ["build-starters", "grade", "worker", "export", "feedback", "stats", "review", "inbox"]
INSTRUCTOR += ["release", "roster", "extend", "integrity", "gradebook"]

#: Runs the CLI with ``grader.instructor`` made unimportable (as in a student copy), then
#: prints whether any instructor module was loaded after all.
WITHOUT_WING = """
import importlib.abc, sys

class NoInstructorWing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "grader.instructor" or name.startswith("grader.instructor."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoInstructorWing())
from grader.frontends.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
loaded = sorted(m for m in sys.modules if m.startswith("grader.instructor"))
print("LOADED", loaded, file=sys.stderr)
sys.exit(code)
"""


def _commands(help_text: str) -> list[str]:
    """The subcommands ``--help`` lists, in its order."""
    listing = help_text.split("COMMAND\n", 1)[1].split("\noptions:", 1)[0]
    return re.findall(r"^    (\S+)", listing, flags=re.MULTILINE)


def _without_wing(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_WING, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=240,
    )


def test_with_the_wing_installed_its_commands_follow_the_students() -> None:
    assert _commands(cli.build_parser().format_help()) == STUDENT + INSTRUCTOR


def test_without_the_extra_help_lists_only_student_commands_and_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(entrypoints, "missing_extra", lambda: ("starlette", "alembic"))
    parser = cli.build_parser()
    assert _commands(parser.format_help()) == STUDENT
    text = parser.format_help()
    assert "starlette, alembic missing" in text
    assert 'pip install -e ".[instructor]"' in text
    with pytest.raises(SystemExit) as caught:
        cli.main(["grade", "somewhere"])
    assert caught.value.code == 2


def test_the_extra_is_read_from_the_installed_metadata() -> None:
    """Every distribution the ``instructor`` extra names is installed here, so nothing is
    missing; a name that is not installed is reported (the check can fail)."""
    entrypoints.missing_extra.cache_clear()
    assert entrypoints.missing_extra() == ()
    assert not entrypoints._installed("no-such-distribution-w29b")
    assert entrypoints._installed("starlette")


def test_without_the_wing_help_lists_only_student_commands(tmp_path: Path) -> None:
    done = _without_wing("--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _commands(done.stdout) == STUDENT
    assert "instructor" not in done.stdout.lower().split("exit codes")[0]
    assert "LOADED []" in done.stderr
    refused = _without_wing("grade", "somewhere", cwd=tmp_path)
    assert refused.returncode == 2
    assert "invalid choice: 'grade'" in refused.stderr


@pytest.mark.slow
def test_without_the_wing_check_and_submit_work(tmp_path: Path) -> None:
    probe = next((REPO / "solutions" / "EX-12-01").glob("*.py"))
    checked = _without_wing("check", "EX-12-01", "--path", str(probe), "--json", cwd=REPO)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert '"status": "passed"' in checked.stdout
    assert "LOADED []" in checked.stderr

    course = tmp_path / "course"
    shutil.copytree(REPO / "exercises", course / "exercises")
    shutil.copyfile(probe, course / "exercises" / "EX-12-01" / probe.name)
    zipped = tmp_path / "alice.zip"
    argv = ("submit", "--student", "alice", "--root", str(course), "--out", str(zipped))
    packed = _without_wing(*argv, "--lang", "en", cwd=tmp_path)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    assert zipped.is_file()
    assert "LOADED []" in packed.stderr
    verified = _without_wing("submit", "--verify", str(zipped), "--lang", "en", cwd=tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "LOADED []" in verified.stderr
