"""A worker started on another gradebook than ``grade``'s refuses the run's tasks before it
writes anything, names both gradebooks, and stops with exit 2; ``grade`` hears of it, names
both too (exit 2) and takes its tasks off the queue. Real RabbitMQ, two SQLite gradebooks."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from grader.instructor.batch.celery_app import QUEUE
from grader.instructor.gradebook.models import BatchTask, Grading
from tests.e2e.batch_support import environment
from tests.e2e.conftest import grader_command
from tests.support.classroom import make_class
from ticketflow_lab.namespaces import RabbitMQVhost

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _count(url: str, table: type) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(table)) or 0)
    finally:
        engine.dispose()


def test_a_worker_on_another_gradebook_refuses_writes_nothing_and_names_both(
    tmp_path: Path, rabbitmq_vhost: RabbitMQVhost
) -> None:
    make_class(tmp_path / "submissions", tmp_path / "unused.db", ["reference", "reference"])
    mine = f"sqlite:///{tmp_path / 'grade.db'}"
    other = f"sqlite:///{tmp_path / 'elsewhere.db'}"
    log = tmp_path / "worker.log"
    with log.open("wb") as sink:
        worker = subprocess.Popen(
            [
                *grader_command(),
                "worker",
                "--broker",
                rabbitmq_vhost.url,
                "--db",
                other,
                "--concurrency",
                "1",
                "--lang",
                "en",
            ],
            env=environment(),
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        grade = subprocess.run(
            [
                *grader_command(),
                "grade",
                "submissions",
                "--broker",
                rabbitmq_vhost.url,
                "--db",
                mine,
                "--wait-timeout",
                "25",
                "--lang",
                "en",
            ],
            cwd=tmp_path,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        code = worker.wait(timeout=120)  # it stopped itself
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    said = log.read_text(encoding="utf-8", errors="replace")
    assert code == 2, said
    assert f"writes into the gradebook {other}" in said
    assert f"is recorded in {mine}" in said and "Start the worker again with the same --db" in said
    assert "Traceback" not in said.split("refused the task")[-1]
    assert _count(other, Grading) == 0 and _count(other, BatchTask) == 0  # nothing written
    assert grade.returncode == 2, grade.stderr
    assert f"writes into the gradebook {other}, not this grade's {mine}" in grade.stderr
    assert "unanswered tasks of this run were revoked" in grade.stderr
    assert "Traceback" not in grade.stderr
    assert _count(mine, Grading) == 0
    queues = rabbitmq_vhost.queue_counts()
    assert queues[QUEUE].ready == 0  # the run's tasks were taken off the queue
    assert not [name for name in queues if name.startswith(f"{QUEUE}.refused.")]  # deleted
