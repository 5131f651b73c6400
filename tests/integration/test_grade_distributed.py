"""Distributed grading: two ``grader worker`` processes on the local RabbitMQ and
PostgreSQL, one SIGKILLed mid-run; every (student, exercise) is recorded exactly once.

Skips only when RabbitMQ or PostgreSQL is unreachable (the reason names it).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from grader.instructor.batch.celery_app import QUEUE
from grader.instructor.gradebook.models import Grading
from tests.e2e.batch_support import canonical, environment, expected_profiles, grading_keys
from tests.e2e.conftest import grader_command
from tests.support.classroom import EXERCISES, make_class
from ticketflow_lab.namespaces import RabbitMQVhost

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PROFILES = [
    *["reference"] * 10,
    "crash",
    "partial",
    "zip_dotdot",
    "reference_zip",
    "wrong:EX-12-01/no_assertions.py",
    "prose_en",
]
TOTAL = len(PROFILES) * len(EXERCISES)


def _start_worker(broker: str, db: str, log: Path, tmp: Path) -> subprocess.Popen[bytes]:
    """A worker whose temporary files go to ``tmp`` (so what it leaves there can be seen)."""
    tmp.mkdir()
    with log.open("wb") as sink:
        return subprocess.Popen(
            [*grader_command(), "worker", "--broker", broker, "--db", db, "--concurrency", "1"],
            env=environment({"TMPDIR": str(tmp)}),
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killed as a whole machine would be
        )


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
            found |= {int(child) for child in text.split()}
    except OSError:
        pass
    return found


def _workers_recorded(db: str) -> set[str]:
    engine = create_engine(db)
    try:
        with engine.connect() as connection:
            return set(connection.scalars(select(Grading.worker).distinct()))
    except Exception:
        return set()
    finally:
        engine.dispose()


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def workers(
    rabbitmq_vhost: RabbitMQVhost, postgres_url: str, tmp_path: Path
) -> Iterator[list[subprocess.Popen[bytes]]]:
    started = [
        _start_worker(
            rabbitmq_vhost.url, postgres_url, tmp_path / f"worker{n}.log", tmp_path / f"tmp{n}"
        )
        for n in (1, 2)
    ]
    try:
        yield started
    finally:
        for process in started:
            _stop(process)


def test_two_workers_one_killed_every_grading_recorded_once(
    tmp_path: Path,
    rabbitmq_vhost: RabbitMQVhost,
    postgres_url: str,
    workers: list[subprocess.Popen[bytes]],
) -> None:
    members = make_class(tmp_path / "submissions", tmp_path / "unused.db", PROFILES)
    grade = subprocess.Popen(
        [
            *grader_command(),
            "grade",
            "submissions",
            "--broker",
            rabbitmq_vhost.url,
            "--db",
            postgres_url,
            "--json",
            "--wait-timeout",
            "300",
        ],
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    victim = workers[0]
    host = socket.gethostname()
    deadline = time.monotonic() + 600
    while True:  # kill the first worker once it has recorded something: it is mid-run
        assert grade.poll() is None, grade.communicate()
        assert time.monotonic() < deadline, "the first worker never recorded a grading"
        mine = {f"{host}:{child}" for child in _children(victim.pid)}
        if mine & _workers_recorded(postgres_url):
            break
        time.sleep(0.1)
    os.killpg(victim.pid, signal.SIGKILL)
    victim.wait()

    stdout, stderr = grade.communicate(timeout=900)
    assert grade.returncode == 0, stderr.decode()
    assert "Traceback" not in stderr.decode()
    summary = json.loads(stdout)
    assert summary["graded"] + summary["unchanged"] == TOTAL

    keys = grading_keys(postgres_url)
    assert len(keys) == len(set(keys)) == TOTAL  # each (student, exercise) exactly once
    expected = expected_profiles()
    rows = {(row[0], row[1]): row[2] for row in canonical(postgres_url)}
    for member in members:
        for exercise in EXERCISES:
            want = expected[member.profile][exercise]["status"]
            assert rows[(member.student, exercise)] == want, (member, exercise)
    assert len({row[3] for row in canonical(postgres_url)}) > 1
    assert len(_workers_recorded(postgres_url)) >= 2  # both workers took part

    survivor = workers[1]
    _stop(survivor)  # a warm shutdown, as a machine's service manager does it
    assert survivor.returncode == 0, (tmp_path / "worker2.log").read_text()
    assert list((tmp_path / "tmp2").iterdir()) == []  # no scratch folder or file left behind


def test_no_worker_consuming_is_exit_2_after_the_wait_timeout(
    tmp_path: Path, rabbitmq_vhost: RabbitMQVhost
) -> None:
    make_class(tmp_path / "submissions", tmp_path / "gradebook.db", ["reference", "reference"])
    other_run = _foreign_message(rabbitmq_vhost.url)  # another run's task on the same queue
    done = subprocess.run(
        [
            *grader_command(),
            "grade",
            "submissions",
            "--broker",
            rabbitmq_vhost.url,
            "--wait-timeout",
            "7",
            "--lang",
            "en",
        ],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "No worker has answered" in done.stderr  # said while waiting
    assert "No worker finished a student" in done.stderr and "0/2 students" in done.stderr
    assert "Traceback" not in done.stderr
    # the run's unanswered tasks were revoked and purged: no worker grades them later
    assert "2 unanswered tasks of this run were revoked and 2 of them purged" in done.stderr
    assert rabbitmq_vhost.counts(QUEUE).ready == 1  # only the other run's message is left
    assert _queued_runs(rabbitmq_vhost.url) == [other_run]


def test_ctrl_c_ends_the_wait_and_takes_the_runs_tasks_off_the_queue(
    tmp_path: Path, rabbitmq_vhost: RabbitMQVhost
) -> None:
    """No worker consumes: Ctrl-C after the students are queued exits 130 at once, and the
    run's tasks are revoked and purged (another run's message stays), so no worker that
    starts later grades them behind the instructor's back."""
    make_class(tmp_path / "submissions", tmp_path / "gradebook.db", ["reference", "reference"])
    other_run = _foreign_message(rabbitmq_vhost.url)
    process = subprocess.Popen(
        [*grader_command(), "grade", "submissions", "--broker", rabbitmq_vhost.url, "--lang", "en"],
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    said = []
    for line in process.stderr:  # the notes are whole lines on stderr
        said.append(line)
        if "Queued 2 student(s)" in line:
            break
    interrupted = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, rest = process.communicate(timeout=60)
    stderr = "".join(said) + rest
    assert process.returncode == 130, stderr
    assert time.monotonic() - interrupted < 15, stderr
    assert "Stopping: no more waiting" in stderr
    assert "Stopped: 2 unanswered tasks of this run were revoked and 2 of them purged" in stderr
    assert "Traceback" not in stderr
    assert rabbitmq_vhost.counts(QUEUE).ready == 1  # only the other run's message is left
    assert _queued_runs(rabbitmq_vhost.url) == [other_run]


def _foreign_message(url: str) -> str:
    from grader.instructor.batch.celery_app import TASK_NAME, create_batch_app

    app = create_batch_app(url)
    app.send_task(TASK_NAME, args=["another-run", "zed", "/nowhere", "folder", {}], queue=QUEUE)
    return "another-run"


def _queued_runs(url: str) -> list[str]:
    from grader.instructor.batch.abandon import _run_of
    from grader.instructor.batch.celery_app import create_batch_app

    app = create_batch_app(url)
    runs = []
    with app.connection_for_write() as connection:
        channel = connection.channel()
        queue = app.amqp.queues[QUEUE].bind(channel)
        while (message := queue.get(no_ack=False, accept=["json"])) is not None:
            runs.append(_run_of(message) or "")
            message.ack()
        channel.close()
    return runs
