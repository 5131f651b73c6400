"""A term's hand-ins through the inbox, with the real CLI and a real server on 127.0.0.1.

Three students hand in from their own copies of the released course (``grader release``);
a fourth uses a wrong token, a fifth sends an oversized upload and a sixth a zip naming
another student (each refused, nothing stored); one re-submits after the deadline. Then
every stored file's time is set to 2001 and ``grade`` grades the inbox's folder: lateness
comes from the server's receipts, never from the files, and an exercise left unchanged by
the late re-submission stays on time.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from grader.instructor.gradebook import Gradebook
from grader.instructor.term.inbox_store import handins
from grader.instructor.term.store import receipts
from tests.e2e.batch_support import environment, grader
from tests.e2e.conftest import grader_command
from tests.support.classroom import EXERCISES, FILE_NAMES, REPO, signed, solution

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

STUDENTS = ("s1", "s2", "s3", "s4-wrong-token", "s5-too-big", "s6-other-name")
EPOCH_2001 = datetime(2001, 1, 1, tzinfo=UTC).timestamp()


def course_copy(work: Path, student: str) -> Path:
    """The student's own copy of the released course, every exercise answered."""
    root = work / f"course-{student}"
    shutil.copytree(work / "release", root)
    for exercise in EXERCISES:
        target = root / "exercises" / exercise / FILE_NAMES[exercise]
        target.write_text(signed(exercise, solution(exercise), student), encoding="utf-8")
    return root


@pytest.fixture
def inbox(tmp_path: Path) -> Iterator[tuple[Path, str, dict[str, str]]]:
    (tmp_path / "submissions").mkdir()
    with (tmp_path / "roster.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(("id", "name", "email"))
        writer.writerows((s, f"学生{s}", f"{s}@example.edu") for s in STUDENTS)
    assert grader("roster", "import", "roster.csv", cwd=tmp_path).code == 0
    made = grader("roster", "tokens", "--out", "tokens.csv", "--lang", "en", cwd=tmp_path)
    assert made.code == 0, made.stderr
    assert oct((tmp_path / "tokens.csv").stat().st_mode & 0o777) == "0o600"
    with (tmp_path / "tokens.csv").open(encoding="utf-8") as handle:
        tokens = {row["id"]: row["token"] for row in csv.DictReader(handle)}
    server = subprocess.Popen(
        [*grader_command(), "inbox", "--submissions", "submissions", "--port", "0",
         "--lang", "en"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(),
    )  # fmt: skip
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = line.split("Inbox listening on ", 1)[1].split(" ", 1)[0]
        yield tmp_path, url, tokens
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
        assert "Traceback" not in err, err
        for token in tokens.values():
            assert token not in err


def post(url: str, student: str, token: str, body: bytes) -> int | str:
    """The answer's status; "reset" when the server refused before reading the whole body
    (it answers 413 from Content-Length and closes, so a client still sending sees a reset)."""
    request = urllib.request.Request(
        url + "handin",
        data=body,
        method="POST",
        headers={"X-Grader-Student": student, "Authorization": f"Bearer {token}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except urllib.error.URLError as error:
        if isinstance(error.reason, ConnectionResetError | BrokenPipeError):
            return "reset"
        raise


def test_a_term_handed_in_through_the_inbox(inbox: tuple[Path, str, dict[str, str]]) -> None:
    work, url, tokens = inbox
    released = grader("release", "--out", str(work / "release"), "--root", str(REPO), cwd=work)
    assert released.code == 0, released.stderr
    assert not (work / "release" / "grader" / "instructor").exists()
    courses = {s: course_copy(work, s) for s in STUDENTS}

    def submit(student: str, *extra: str, env: dict[str, str] | None = None) -> tuple[int, str]:
        ran = grader("submit", "--student", student, "--root", str(courses[student]),
                     "--lang", "en", *extra, cwd=work, env=env)  # fmt: skip
        return ran.code, ran.stdout + ran.stderr

    for student in ("s1", "s2", "s3"):
        code, said = submit(student, "--to", url, "--token", tokens[student])
        assert code == 0, said
        assert "version 1, received by the server at" in said
    code, said = submit("s4-wrong-token", "--to", url, "--token", tokens["s1"])
    assert code == 2 and "not s4-wrong-token's token" in said
    assert post(url, "s5-too-big", tokens["s5-too-big"], b"PK" + b"\0" * (6 << 20)) in (
        413,
        "reset",
    )
    packed = grader("submit", "--student", "s1", "--root", str(courses["s1"]), "--out",
                    "s1-copy.zip", cwd=work)  # fmt: skip
    assert packed.code == 0, packed.stderr
    body = (work / "s1-copy.zip").read_bytes()
    assert post(url, "s6-other-name", tokens["s6-other-name"], body) == 422

    with Gradebook(f"sqlite:///{work / 'gradebook.db'}") as book:
        on_time = max(view.received_at for view in handins(book))
    time.sleep(1.2)  # the re-submission is received at least a second after the others
    answer = courses["s1"] / "exercises" / "EX-11-02" / FILE_NAMES["EX-11-02"]
    answer.write_text(answer.read_text(encoding="utf-8") + "\n补充：重投时仍然先查回执。\n",
                      encoding="utf-8")  # fmt: skip
    env = {"GRADER_INBOX": url, "GRADER_TOKEN": tokens["s1"]}  # the environment's way in
    code, said = submit("s1", env=env)
    assert code == 0 and "version 2" in said, said
    code, said = submit("s1", "--status", env=env)
    assert code == 0 and "version 1" in said and "version 2" in said

    stored = sorted(p.name for p in (work / "submissions").iterdir())
    assert stored == [".versions", "s1.zip", "s2.zip", "s3.zip"]  # refusals stored nothing
    with Gradebook(f"sqlite:///{work / 'gradebook.db'}") as book:
        late_at = max(view.received_at for view in handins(book))
    due = on_time + (late_at - on_time) / 2
    (work / "course.toml").write_text(
        'timezone = "UTC"\n[due]\n'
        + "".join(f'"{e}" = "{due.isoformat()}"\n' for e in EXERCISES)
        + "[late]\npenalty_per_day = 0.1\n",
        encoding="utf-8",
    )
    for path in (work / "submissions").rglob("*"):
        os.utime(path, (EPOCH_2001, EPOCH_2001), follow_symlinks=False)
    graded = grader("grade", "submissions", "--jobs", "2", "--course", "course.toml",
                    "--lang", "en", cwd=work)  # fmt: skip
    assert graded.code == 0, graded.stderr

    with Gradebook(f"sqlite:///{work / 'gradebook.db'}") as book:
        held = receipts(book)
    by = {(student, exercise): view for (student, exercise, _), view in held.items()}
    assert {student for student, _ in by} == {"s1", "s2", "s3"}
    for (student, exercise), view in by.items():
        assert view.source == "inbox", (student, exercise)
        assert view.received_at.year == datetime.now(UTC).year  # never the files' 2001
        late = (student, exercise) == ("s1", "EX-11-02")
        assert (view.late_by_seconds > 0) == late, (student, exercise, view)
        assert view.penalty == (0.1 if late else 0.0)
