"""``grader submit``: packing a student's answers with a manifest, and verifying it."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from grader.errors import UsageError
from grader.instructor.batch.archive import extract
from grader.instructor.batch.submit import pack, verify
from tests.support.classroom import REPO, SOLUTIONS, zip_bytes


@pytest.fixture
def course(tmp_path: Path) -> Path:
    root = tmp_path / "course"
    shutil.copytree(REPO / "exercises", root / "exercises")
    for exercise in ("EX-11-01", "EX-12-02"):
        for source in (SOLUTIONS / exercise).iterdir():
            shutil.copyfile(source, root / "exercises" / exercise / source.name)
    return root


def test_pack_keeps_started_answers_and_leaves_starters_out(course: Path, tmp_path: Path) -> None:
    packed = pack(course, "alice", tmp_path / "alice.zip")
    assert packed.exercises == ("EX-11-01", "EX-12-02")
    assert set(packed.left_out) == {"EX-11-02", "EX-12-01", "EX-13-01", "EX-13-02"}
    with zipfile.ZipFile(packed.path) as archive:
        names = sorted(archive.namelist())
        manifest = json.loads(archive.read("manifest.json"))
    assert names == ["EX-11-01/retry_policy_probe.py", "EX-12-02/answer.md", "manifest.json"]
    assert manifest["student"] == "alice" and manifest["exercises"] == ["EX-11-01", "EX-12-02"]
    assert set(manifest["files"]) == set(names) - {"manifest.json"}
    assert {"grader_version", "created_at"} <= set(manifest)
    unpacked = tmp_path / "unpacked"
    unpacked.mkdir()
    extract(packed.path.read_bytes(), "alice.zip", unpacked)  # the batch accepts it as is
    assert verify(packed.path).student == "alice"


def test_verify_catches_a_file_changed_after_packing(course: Path, tmp_path: Path) -> None:
    packed = pack(course, "alice", tmp_path / "alice.zip")
    with zipfile.ZipFile(packed.path) as archive:
        entries = [(name, archive.read(name)) for name in archive.namelist()]
    changed = [(n, d + b"\n# edited" if n.endswith(".py") else d) for n, d in entries]
    tampered = tmp_path / "tampered.zip"
    tampered.write_bytes(zip_bytes(changed))
    with pytest.raises(UsageError) as raised:
        verify(tampered)
    assert raised.value.message_id == "error.manifest"
    assert "retry_policy_probe.py" in str(raised.value.params["detail"])


def test_verify_needs_a_manifest(tmp_path: Path) -> None:
    bare = tmp_path / "bare.zip"
    bare.write_bytes(zip_bytes([("EX-11-02/answer.md", b"x")]))
    with pytest.raises(UsageError, match="manifest"):
        verify(bare)


@pytest.mark.parametrize("student", ["-rm", ".x", "a b", "x" * 65])
def test_pack_refuses_a_bad_student_id(course: Path, student: str) -> None:
    with pytest.raises(UsageError) as raised:
        pack(course, student)
    assert raised.value.message_id == "error.student_id"


def test_nothing_started_is_a_usage_error(tmp_path: Path) -> None:
    shutil.copytree(REPO / "exercises", tmp_path / "exercises")
    with pytest.raises(UsageError) as raised:
        pack(tmp_path, "alice", tmp_path / "a.zip")
    assert raised.value.message_id == "submit.nothing"
    assert not (tmp_path / "a.zip").exists()


def test_an_existing_zip_is_kept_unless_forced(course: Path, tmp_path: Path) -> None:
    target = tmp_path / "alice.zip"
    target.write_bytes(b"handed in yesterday")
    with pytest.raises(UsageError) as refused:
        pack(course, "alice", target)
    assert refused.value.message_id == "error.submit_exists"
    assert target.read_bytes() == b"handed in yesterday"  # untouched
    assert not list(tmp_path.glob(".alice.zip.tmp"))
    packed = pack(course, "alice", target, overwrite=True)
    assert verify(packed.path).student == "alice"


def test_submit_command_says_to_use_force(
    course: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from grader.frontends.cli import main

    target = tmp_path / "bob.zip"
    argv = [
        "submit",
        "--student",
        "bob",
        "--root",
        str(course),
        "--out",
        str(target),
        "--lang",
        "en",
    ]
    assert main(argv) == 0
    assert main(argv) == 2
    assert "already exists: pass --force" in capsys.readouterr().err
    assert main([*argv, "--force"]) == 0
