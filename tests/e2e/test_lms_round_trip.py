"""The LMS round trip, as the files come (the LMS-shaped files are beside the unit tests):
import the LMS's roster export, grade its bulk download as it names files, export for it,
and every exported row maps to a roster student by the identity the LMS matches on."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from tests.e2e.batch_support import grader
from tests.support.classroom import reference_files, with_manifest, zip_bytes

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

FILES = Path(__file__).parents[1] / "unit" / "grader" / "instructor" / "term" / "files"
CANVAS_IDS = {"zhangwei": "91010", "lihua": "91011", "wangxm": "91012"}
SIS_IDS = {"zhangwei": "2025013010", "lihua": "2025013011", "wangxm": "2025013012"}
PARTICIPANTS = {"2025013010": "3344556", "2025013011": "3344557", "2025013012": "3344558"}


def handin(student: str) -> bytes:
    return zip_bytes(with_manifest(student, reference_files(student)))


def rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def test_canvas_roster_bulk_download_and_export(tmp_path: Path) -> None:
    shutil.copy(FILES / "canvas_gradebook_export.csv", tmp_path / "canvas.csv")
    imported = grader("roster", "import", "canvas.csv", "--lang", "en", cwd=tmp_path)
    assert imported.code == 0, imported.stderr
    download = tmp_path / "download"
    download.mkdir()
    for student, canvas_id in CANVAS_IDS.items():
        late = "_LATE" if student == "lihua" else ""
        name = f"{student}{late}_{canvas_id}_33445{canvas_id[-2:]}_{student}.zip"
        (download / name).write_bytes(handin(student))
    (download / "ghost_99999_3344999_ghost.zip").write_bytes(handin("ghost"))
    graded = grader("grade", "download", "--exercise", "EX-11-01", "--jobs", "2",
                    "--lang", "en", cwd=tmp_path)  # fmt: skip
    assert graded.code == 0, graded.stderr
    assert "ghost_99999_3344999_ghost.zip" in graded.stderr  # named, not graded
    assert "no roster student has that Canvas id" in graded.stderr
    exported = grader("export", "--format", "canvas", "--out", "out.csv", "--lang", "en",
                      cwd=tmp_path)  # fmt: skip
    assert exported.code == 0, exported.stderr
    table = rows(tmp_path / "out.csv")
    assert table[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert table[1][0] == "Points Possible"
    body = {row[3]: row for row in table[2:]}
    assert set(body) == set(CANVAS_IDS)  # every row is a roster student; no ghost
    for login, row in body.items():
        assert row[1] == CANVAS_IDS[login] and row[2] == SIS_IDS[login]
        assert row[5] != ""  # graded: a score, from the file Canvas named


def test_moodle_roster_worksheet_download_and_export(tmp_path: Path) -> None:
    for name in ("moodle_grade_export.csv", "moodle_grading_worksheet.csv"):
        shutil.copy(FILES / name, tmp_path / name)
        imported = grader("roster", "import", name, "--lang", "en", cwd=tmp_path)
        assert imported.code == 0, imported.stderr
    download = tmp_path / "download"
    for number, participant in PARTICIPANTS.items():
        folder = download / f"Name {number[-2:]}_{participant}_assignsubmission_file_"
        folder.mkdir(parents=True)
        (folder / f"{number}.zip").write_bytes(handin(number))
    empty = download / "Somebody_3344558_assignsubmission_file_"  # a second folder, no zip
    empty.mkdir()
    graded = grader("grade", "download", "--exercise", "EX-11-01", "--jobs", "2",
                    "--lang", "en", cwd=tmp_path)  # fmt: skip
    assert graded.code == 0, graded.stderr
    assert "Somebody_3344558_assignsubmission_file_" in graded.stderr
    exported = grader("export", "--format", "moodle", "--identifier", "idnumber", "--out",
                      "out.csv", "--lang", "en", cwd=tmp_path)  # fmt: skip
    assert exported.code == 0, exported.stderr
    table = rows(tmp_path / "out.csv")
    assert table[0][0] == "ID number"
    assert {row[0] for row in table[1:]} == set(PARTICIPANTS)
    assert all(row[1] != "" for row in table[1:])
