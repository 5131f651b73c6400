"""The service-free parts of lesson 14's demos: skip lines, settings, reports, keys, pickle."""

from __future__ import annotations

import pickle
import socket
from pathlib import Path

import pytest

from ticketflow_lab import lesson14_app
from ticketflow_lab.catch_all_retry import run_catch_all
from ticketflow_lab.dead_letter_exchange import CASES, DeadLetterRun
from ticketflow_lab.live_services import SERVICES_ENV, skip_reason, unique_name
from ticketflow_lab.observability import describe_events, trim_inspect
from ticketflow_lab.pickle_payload import MarkerPayload, callables_named, refuse_then_load
from ticketflow_lab.results_and_keys import idempotent_key, key_comparison
from ticketflow_lab.two_workers import Redelivery
from ticketflow_lab.worker_lost import ChildLoss


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens once the socket is closed


def test_skip_reason_names_the_unreachable_service_and_where(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(SERVICES_ENV, raising=False)
    port = closed_port()
    monkeypatch.setenv("TICKETFLOW_LESSON_REDIS_URL", f"redis://127.0.0.1:{port}/0")
    reason = skip_reason("Redis", timeout=0.5)
    assert reason == f"跳过：Redis（127.0.0.1:{port}） 不可达；启动它之后重跑这个单元。"


def test_services_none_skips_everything_without_connecting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SERVICES_ENV, "none")
    reason = skip_reason("RabbitMQ", "PostgreSQL")
    assert reason is not None
    assert "RabbitMQ、PostgreSQL" in reason and SERVICES_ENV in reason
    assert reason.count("\n") == 0


def test_unique_names_differ_and_keep_the_prefix() -> None:
    first, second = unique_name("lesson14.dlx"), unique_name("lesson14.dlx")
    assert first != second and first.startswith("lesson14.dlx.")


def test_worker_settings_follow_the_environment() -> None:
    plain = lesson14_app.settings_from({lesson14_app.QUEUE_ENV: "q1"})
    assert plain["task_default_queue"] == "q1"
    assert plain["task_reject_on_worker_lost"] is True
    assert "task_queues" not in plain and "result_backend" not in plain
    off = lesson14_app.settings_from({lesson14_app.REJECT_ENV: "0"})
    assert off["task_reject_on_worker_lost"] is False
    dead = lesson14_app.settings_from(
        {lesson14_app.QUEUE_ENV: "q2", lesson14_app.DEAD_LETTER_ENV: "dlx2"}
    )
    (queue,) = dead["task_queues"]
    assert queue.name == "q2"
    assert queue.queue_arguments == {
        "x-dead-letter-exchange": "dlx2",
        "x-dead-letter-routing-key": "dlx2",
    }
    backend = lesson14_app.settings_from({lesson14_app.RESULT_BACKEND_ENV: "redis://x/0"})
    assert backend["result_expires"] == lesson14_app.RESULT_EXPIRES_SECONDS


def test_the_journal_skips_a_torn_last_line(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    lesson14_app.note(journal, "started", key="k")
    with journal.open("a") as handle:
        handle.write('{"kind": "fini')  # a process killed mid-write
    assert [entry["kind"] for entry in lesson14_app.read_journal(journal)] == ["started"]


def entry(hostname: str, t: float, redelivered: bool | None = None) -> dict[str, object]:
    return {"hostname": hostname, "t": t, "redelivered": redelivered, "retries": 0}


def test_redis_conclusion_is_true_only_after_the_visibility_timeout() -> None:
    waited = Redelivery("Redis", 3.0, 100.0, 100.2, entry("a", 100.1), entry("b", 103.3, True))
    assert "才重投：True" in waited.conclusions()[-1]
    early = Redelivery("Redis", 3.0, 100.0, 100.2, entry("a", 100.1), entry("b", 101.0, True))
    assert "才重投：False" in early.conclusions()[-1]


def test_rabbitmq_conclusion_says_whether_it_was_at_once_and_elsewhere() -> None:
    quick = Redelivery("RabbitMQ", None, 10.0, 10.5, entry("a", 10.1), entry("b", 10.6, True))
    assert "（连接一断，broker 就把消息退回队列）：True" in quick.conclusions()[-1]
    assert "第二次执行在另一个 Worker 上：True" in quick.conclusions()[1]
    slow = Redelivery("RabbitMQ", None, 10.0, 10.5, entry("a", 10.1), entry("a", 13.0, True))
    assert "退回队列）：False" in slow.conclusions()[-1]
    assert "另一个 Worker 上：False" in slow.conclusions()[1]
    lost = Redelivery("RabbitMQ", None, 10.0, 10.5, entry("a", 10.1), None)
    assert "消息丢了" in lost.conclusions()[-1]


def test_dead_letter_report_marks_only_what_reached_the_dlq() -> None:
    run = DeadLetterRun(
        runs={name: 1 for name, _, _ in CASES},
        left_in_work_queue=0,
        dead_letters=[
            {"task": CASES[0][0], "args": ["req-1"], "reason": "rejected", "from_work_queue": True}
        ],
    )
    rows = run.report()[1:4]
    assert [row.split()[-1] for row in rows] == ["是", "否（消失）", "否（消失）"]


def test_child_loss_conclusions() -> None:
    assert ChildLoss(True, 2, [False, True], 0).conclusion().endswith("退回队列，又执行了一次")
    assert ChildLoss(False, 1, [False], 0).conclusion().endswith("主进程确认：消息没了")
    assert "没有再执行" in ChildLoss(True, 1, [False], 1).conclusion()


def test_trim_inspect_keeps_what_the_lesson_discusses() -> None:
    replies = {
        "active": [{"name": "lesson14.hold", "args": ["k"], "acknowledged": False}],
        "reserved": [],
        "stats": {
            "pool": {"max-concurrency": 1},
            "prefetch_count": 1,
            "broker": {"transport": "amqp"},
        },
        "registered": ["celery.chord_unlock", "lesson14.hold"],
    }
    lines = trim_inspect(replies)
    assert lines[0].startswith("active:     lesson14.hold acknowledged=False")
    assert lines[1] == "reserved:   0 条"
    assert lines[-1] == "registered: lesson14.hold"
    held_back = trim_inspect({**replies, "sent": 4, "queued": 3})
    assert held_back[-1] == "Worker 手里的消息不超过预取窗口 prefetch_count=1：True"
    hoarded = {**replies, "reserved": [{}, {}], "sent": 4, "queued": 1}
    assert trim_inspect(hoarded)[-1].endswith("prefetch_count=1：False")


def test_describe_events_tells_a_redelivery_from_a_retry() -> None:
    lines = describe_events(
        {
            "t1": [
                {"type": "task-received", "name": "lesson14.hold", "retries": 0},
                {"type": "task-rejected", "requeue": True},
                {"type": "task-received", "name": "lesson14.hold", "retries": 0},
            ],
            "t2": [
                {"type": "task-retried", "exception": "ConnectionError('down')"},
                {"type": "task-sent", "name": "lesson14.flaky", "retries": 1},
                {"type": "task-received", "name": "lesson14.flaky", "retries": 1},
            ],
        }
    )
    assert lines == [
        "lesson14.hold：发布 0 次；Worker 的事件：received -> rejected(requeue=True) -> received",
        "lesson14.flaky：发布 1 次；Worker 的事件：retried(ConnectionError) -> received(retries=1)",
    ]


def test_the_articles_key_hashes_arguments_only() -> None:
    assert idempotent_key(7, "alice") == idempotent_key(7, "alice")
    assert idempotent_key(7, "alice") != idempotent_key(7, "alice", "09:00:05")
    assert len(idempotent_key(1)) == 16
    marks = [line.count("(!)") for line in key_comparison()[1:]]
    assert marks == [0, 1, 1]  # each argument hash is wrong once; the event id never


def test_the_pickle_payload_names_its_callable_and_is_refused_before_it_runs(
    tmp_path: Path,
) -> None:
    payload = pickle.dumps(MarkerPayload(tmp_path / "m.txt"))
    assert "pathlib.Path.write_text" in callables_named(payload)
    assert not (tmp_path / "m.txt").exists()  # reading the opcodes ran nothing
    lines = refuse_then_load(tmp_path)
    assert "ContentDisallowed" in lines[1]
    assert lines[2].endswith("exists afterwards: False")
    assert lines[4].startswith("  marker file exists afterwards: True")


def test_the_catch_all_retries_a_bug_and_the_policy_does_not() -> None:
    lines = run_catch_all()
    assert "执行 4 次" in lines[1] and "[60, 60, 60] = 为一个 bug 白等 180 s" in lines[1]
    assert "FAILURE KeyError" in lines[2] and "没有 broker" in lines[2]
    assert "retry=False dead_letter=True" in lines[4]
