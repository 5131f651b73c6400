"""A folder and a zip with the same student id: one ``clash`` source, not a skipped entry."""

from __future__ import annotations

from pathlib import Path

from grader.instructor.batch.layout import discover


def test_a_folder_and_a_zip_with_one_id_are_a_clash(tmp_path: Path) -> None:
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice.zip").write_bytes(b"PK")
    (tmp_path / "bob").mkdir()
    found = discover(tmp_path)
    assert [(s.student, s.kind) for s in found.students] == [("alice", "clash"), ("bob", "folder")]
    assert found.skipped == ()
