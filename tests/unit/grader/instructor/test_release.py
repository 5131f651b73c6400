"""grader.instructor.release: what the student copy refuses, copies as it is, leaves out
and records."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.errors import UsageError
from grader.frontends.cli import main
from grader.instructor.release import MANIFEST, NOTE, SHIPPED, build_release

REPO = Path(__file__).resolve().parents[4]


def test_files_are_copied_as_they_are_and_the_manifest_lists_every_one(tmp_path: Path) -> None:
    release = build_release(REPO, tmp_path / "copy")
    on_disk = {p.relative_to(release.out).as_posix() for p in release.out.rglob("*") if p.is_file()}
    assert on_disk - {MANIFEST} == set(release.files)
    manifest = json.loads((release.out / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["files"] == sorted(on_disk - {MANIFEST})
    left_out = {entry["path"]: entry["reason"] for entry in manifest["left_out"]}
    assert {"solutions", "tests", "benchmarks", "grader/private"} <= set(left_out)
    assert "answer key" in left_out["grader/private"]
    # Nothing was rewritten: every grader file (the private ones aside) is byte for byte
    # the instructors' file, and no cache was copied.
    shipped = sorted(f for f in release.files if f.startswith("grader/"))
    assert "grader/judge/exercises/ex_11_02.py" in shipped
    assert [f for f in shipped if (release.out / f).read_bytes() != (REPO / f).read_bytes()] == []
    assert not any(f.startswith("grader/private") or "__pycache__" in f for f in release.files)
    assert (release.out / "README.md").read_bytes() == (REPO / "README.md").read_bytes()


def test_a_non_empty_output_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(UsageError) as raised:
        build_release(REPO, tmp_path, progress=lambda _key, _params: None)
    assert raised.value.message_id == "error.release_out_not_empty"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_an_output_folder_inside_the_course_is_refused() -> None:
    with pytest.raises(UsageError) as raised:
        build_release(REPO, REPO / "build" / "student", progress=lambda _key, _params: None)
    assert raised.value.message_id == "error.release_out_inside"
    assert not (REPO / "build" / "student").exists()


def test_the_cli_reports_a_refusal_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["release", "--out", str(tmp_path), "--root", str(REPO), "--lang", "en"]) == 2
    assert "not an empty folder" in capsys.readouterr().err


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_release(REPO, tmp_path_factory.mktemp("release") / "copy").out


def test_the_copy_holds_the_student_side_only_by_inclusion(copy: Path) -> None:
    """No ``grader/instructor/`` and no ``grader/private/``; everything shipped is on the
    allow-list, and a new folder of the course (not on it) stays out."""
    assert not (copy / "grader" / "instructor").exists()
    assert not (copy / "grader" / "private").exists()
    on_disk = {p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()}
    assert not [f for f in on_disk if "instructor" in f.split("/")]
    allowed = (*SHIPPED, "exercises", MANIFEST, NOTE)
    assert [f for f in on_disk if not any(f == a or f.startswith(f"{a}/") for a in allowed)] == []
    assert (copy / "grader" / "frontends" / "commands" / "submit.py").is_file()
    assert (copy / "grader" / "app" / "handin.py").is_file()
    manifest = json.loads((copy / MANIFEST).read_text(encoding="utf-8"))
    left_out = {entry["path"]: entry["reason"] for entry in manifest["left_out"]}
    assert "instructor wing" in left_out["grader/instructor"]


def test_a_folder_added_to_the_grader_is_left_out_unless_listed(tmp_path: Path) -> None:
    course = tmp_path / "course"
    for name in ("exercises", "grader", "lessons", "src"):
        shutil.copytree(
            REPO / name, course / name, ignore=shutil.ignore_patterns("__pycache__", "private")
        )
    for name in ("README.md", "Makefile", "pyproject.toml"):
        shutil.copyfile(REPO / name, course / name)
    (course / "grader" / "inbox").mkdir()
    (course / "grader" / "inbox" / "secret.py").write_text("THRESHOLD = 0.8\n")
    release = build_release(course, tmp_path / "copy")
    assert not (release.out / "grader" / "inbox").exists()
    assert "grader/inbox" in {entry.path for entry in release.left_out}


#: Runs the copy's ``grader --help`` as the copy's own install would: this venv's editable
#: install of the course (a meta-path finder that would find the course's own
#: ``grader.instructor``) is taken out of the way first.
ALONE = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if getattr(f, "__name__", "") != "_EditableFinder"]
import grader.frontends.cli as cli
print(cli.__file__, file=sys.stderr)
sys.argv[0] = "grader"
cli.main(["--help"])
"""


def test_the_copys_grader_lists_only_student_commands(copy: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GRADER_LANG")}
    env["PYTHONPATH"] = f"{copy / 'src'}{os.pathsep}{copy}"
    done = subprocess.run(
        [sys.executable, "-c", ALONE],
        env=env,
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == str(copy / "grader" / "frontends" / "cli.py")
    listing = done.stdout.split("COMMAND\n", 1)[1].split("\noptions:", 1)[0]
    assert re.findall(r"^    (\S+)", listing, flags=re.MULTILINE) == ["check", "list", "submit"]
    assert "instructor extra" not in done.stdout  # the copy has no wing to install


def test_the_copys_make_setup_installs_no_instructor_extra(copy: Path, tmp_path: Path) -> None:
    def install_line(folder: Path) -> str:
        done = subprocess.run(
            ["make", "-n", "setup", f"VENV={tmp_path / 'none'}"],
            cwd=folder,
            capture_output=True,
            text=True,
            check=True,
        )
        return next(line for line in done.stdout.splitlines() if "install --quiet -e" in line)

    assert install_line(copy).endswith('-e ".[notebooks]"')
    assert install_line(REPO).endswith('-e ".[dev]"')
