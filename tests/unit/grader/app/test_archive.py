"""Every bad archive is refused before anything is written, and nothing lands outside the
private folder (the attacks are the factories' bad archives, kept as tests)."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from grader.app.archive import ArchiveProblem, extract, read_archive
from tests.support.classroom import (
    BAD_ARCHIVES,
    bad_archive,
    reference_files,
    with_manifest,
    zip_bytes,
)

REASONS = {
    "zip_dotdot": "batch.archive_unsafe_path",
    "zip_absolute": "batch.archive_unsafe_path",
    "zip_symlink": "batch.archive_link",
    "zip_duplicate": "batch.archive_duplicate",
    "zip_too_many": "batch.archive_too_many",
    "zip_bomb": "batch.archive_too_big",
    "zip_corrupt": "batch.archive_corrupt",
    "zip_manifest_mismatch": "batch.manifest_mismatch",
}


@pytest.mark.parametrize("kind", BAD_ARCHIVES)
def test_each_bad_archive_names_its_problem(tmp_path: Path, kind: str) -> None:
    destination = tmp_path / "private"
    destination.mkdir()
    with pytest.raises(ArchiveProblem) as raised:
        extract(bad_archive(kind, "mallory"), "mallory.zip", destination)
    assert raised.value.message_id == REASONS[kind]
    assert raised.value.params["archive"] == "mallory.zip"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["private"]  # nothing beside it
    if kind != "zip_manifest_mismatch":  # refused before the first byte was written
        assert list(destination.iterdir()) == []


def test_a_good_archive_unpacks_with_its_manifest(tmp_path: Path) -> None:
    extract(zip_bytes(with_manifest("alice", reference_files("alice"))), "alice.zip", tmp_path)
    assert (tmp_path / "EX-11-01" / "retry_policy_probe.py").read_text().endswith("alice\n")
    assert (tmp_path / "manifest.json").is_file()


def test_an_archive_without_manifest_is_accepted(tmp_path: Path) -> None:
    extract(zip_bytes([("EX-11-02/answer.md", b"text\n")]), "a.zip", tmp_path)
    assert (tmp_path / "EX-11-02" / "answer.md").read_text() == "text\n"


def test_a_manifest_listing_a_file_that_is_absent_is_a_mismatch(tmp_path: Path) -> None:
    entries = with_manifest("alice", {"EX-11-02/answer.md": "a\n", "EX-12-02/answer.md": "b\n"})
    entries = [entry for entry in entries if entry[0] != "EX-12-02/answer.md"]
    with pytest.raises(ArchiveProblem) as raised:
        extract(zip_bytes(entries), "a.zip", tmp_path)
    assert raised.value.params["entry"] == "EX-12-02/answer.md"


def test_a_lying_declared_size_is_caught_while_inflating(tmp_path: Path) -> None:
    data = bytearray(zip_bytes([("big.txt", b"\0" * (21 << 20))]))
    # shrink the declared size in the central directory (a classic bomb trick)
    directory = data.rfind(b"PK\x01\x02")
    data[directory + 24 : directory + 28] = (10).to_bytes(4, "little")
    with pytest.raises(ArchiveProblem) as raised:
        extract(bytes(data), "b.zip", tmp_path)
    assert raised.value.message_id in ("batch.archive_too_big", "batch.archive_corrupt")


@pytest.mark.parametrize("name", ["C:/x.py", "a\\..\\b.py", "./../x.py", "a/../../x.py"])
def test_other_escaping_names_are_unsafe(tmp_path: Path, name: str) -> None:
    with pytest.raises(ArchiveProblem) as raised:
        extract(zip_bytes([(name, b"x")]), "c.zip", tmp_path)
    assert raised.value.message_id == "batch.archive_unsafe_path"


def test_the_zip_itself_must_not_be_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.zip"
    real.write_bytes(zip_bytes([("EX-11-02/answer.md", b"x")]))
    os.symlink(real, tmp_path / "alice.zip")
    with pytest.raises(ArchiveProblem) as raised:
        read_archive(tmp_path / "alice.zip")
    assert raised.value.message_id == "batch.archive_corrupt"
    assert zipfile.is_zipfile(io_of(read_archive(real)))


def io_of(data: bytes) -> object:
    import io

    return io.BytesIO(data)


@pytest.mark.parametrize(
    ("entries", "reason"),
    [
        ([("EX-11-01", b"a file"), ("EX-11-01/retry_policy_probe.py", b"x = 1\n")],
         "batch.archive_prefix_clash"),
        ([("EX-11-01/retry_policy_probe.py", b"x = 1\n"), ("EX-11-01", b"a file")],
         "batch.archive_prefix_clash"),
        ([("ex-11-01", b"a file"), ("EX-11-01/x.py", b"x = 1\n")], "batch.archive_prefix_clash"),
        ([("EX-11-01/" + "n" * 300, b"x")], "batch.archive_name_too_long"),
        ([("EX-11-01/" + "é" * 128 + ".py", b"x")], "batch.archive_name_too_long"),  # 256 bytes
        ([("/".join(["d" * 200] * 6) + "/a.py", b"x")], "batch.archive_path_too_long"),
    ],
)  # fmt: skip
def test_names_the_file_system_would_refuse_are_refused_before_writing(
    tmp_path: Path, entries: list[tuple[str, bytes]], reason: str
) -> None:
    with pytest.raises(ArchiveProblem) as raised:
        extract(zip_bytes(entries), "mallory.zip", tmp_path)
    assert raised.value.message_id == reason
    assert list(tmp_path.iterdir()) == []


def test_names_just_within_the_limits_unpack(tmp_path: Path) -> None:
    part = "n" * 255
    deep = "/".join(["d" * 200] * 4) + "/" + "f" * 100  # 904 bytes
    extract(zip_bytes([(f"EX-11-01/{part}", b"a"), (deep, b"b")]), "ok.zip", tmp_path)
    assert (tmp_path / "EX-11-01" / part).read_bytes() == b"a"
    assert (tmp_path / deep).read_bytes() == b"b"


def test_a_folder_the_file_system_refuses_is_the_archives_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise OSError(36, "File name too long")

    monkeypatch.setattr(Path, "mkdir", refuse)
    with pytest.raises(ArchiveProblem) as raised:
        extract(zip_bytes([("EX-11-02/answer.md", b"x")]), "a.zip", tmp_path)
    assert raised.value.message_id == "batch.archive_corrupt"
    assert "too long" in str(raised.value.params["detail"])
