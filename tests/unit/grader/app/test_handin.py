"""``grader submit``: packing a student's answers with a manifest, and verifying it."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from grader.app.archive import extract
from grader.app.handin import pack, verify
from grader.errors import UsageError
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


def test_verify_refuses_a_manifest_naming_another_student(tmp_path: Path) -> None:
    from grader.errors import EXIT_FAILED, VerifyRefused
    from tests.support.classroom import reference_files, with_manifest, zip_bytes

    copied = tmp_path / "bob.zip"
    copied.write_bytes(zip_bytes(with_manifest("alice", reference_files("alice"))))
    with pytest.raises(VerifyRefused) as raised:
        verify(copied)
    assert raised.value.exit_code == EXIT_FAILED
    assert raised.value.message_id == "submit.manifest_other_student"
    assert (raised.value.params["student"], raised.value.params["stem"]) == ("alice", "bob")
    own = tmp_path / "alice.zip"
    own.write_bytes(copied.read_bytes())
    assert verify(own).student == "alice"  # the same zip under its own name is fine


def test_verify_refuses_a_manifest_listing_an_exercise_the_zip_lacks(tmp_path: Path) -> None:
    import hashlib
    import json

    from grader.errors import VerifyRefused
    from tests.support.classroom import zip_bytes

    answer = b"an answer\n"
    manifest = {
        "student": "alice",
        "exercises": ["EX-11-02", "EX-12-02"],
        "files": {"EX-11-02/answer.md": hashlib.sha256(answer).hexdigest()},
    }
    path = tmp_path / "alice.zip"
    path.write_bytes(
        zip_bytes(
            [("EX-11-02/answer.md", answer), ("manifest.json", json.dumps(manifest).encode())]
        )
    )
    with pytest.raises(VerifyRefused) as raised:
        verify(path)
    assert raised.value.message_id == "submit.manifest_exercises"
    assert (raised.value.params["missing"], raised.value.params["unlisted"]) == ("EX-12-02", "-")


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
