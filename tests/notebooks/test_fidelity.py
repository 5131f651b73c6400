"""Issue 33's corrected claims, each asserted on the value its lesson cell observed.

One test per claim, reading the executed lessons (the session's shared runs): the pickle
message's fate, the connection-loss warning's absence at start-up, prefetch with more than
one task, the redelivery loop bounded by the guard, early ACK holding prefetched messages
unacknowledged, ``task_reject_on_worker_lost``'s real default, and the literal hard-limit
line. A cell that needs a service that is down here prints one line; its test then skips
and names the service.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.notebooks.conftest import lesson_group
from tests.notebooks.kernel import cells_tagged, stream_text
from tests.support.services import (
    postgres_unreachable,
    rabbitmq_unreachable,
    redis_unreachable,
)

pytestmark = [pytest.mark.notebooks, pytest.mark.slow]

L11A = "11a-late-ack-and-prefetch"
L12 = "12-worker-loss-retry-and-time-limits"
L14 = "14-beyond-the-three-lessons"


def printed(notebook: Any, tag: str) -> list[str]:
    (cell,) = cells_tagged(notebook, tag)
    return stream_text(cell).splitlines()


UNREACHABLE: dict[str, Callable[[], str | None]] = {
    "RabbitMQ": rabbitmq_unreachable,
    "Redis": redis_unreachable,
    "PostgreSQL": postgres_unreachable,
}


def needs(*services: str) -> None:
    """Skip only when a named service is unreachable (the reason names it)."""
    for service in services:
        reason = UNREACHABLE[service]()
        if reason is not None:
            pytest.skip(reason)  # "<service> is unreachable at host:port; ..."


@lesson_group(L14)
def test_a_pickle_message_is_rejected_into_the_dead_letter_queue(
    executed_lesson: Callable[[str], Any],
) -> None:
    needs("RabbitMQ")
    lines = printed(executed_lesson(L14), "pickle-dlx")
    assert "Worker 日志：Received invalid task message（级别 ERROR）" in lines
    assert "  日志里有“Can't decode message body”（critical）：False" in lines
    assert "消息的去向：rejected（rejected = basic.reject，不退回队列）" in lines
    dead = [line for line in lines if line.startswith("  死信队列收到：")]
    assert dead and dead[0].startswith(
        "  死信队列收到：1 条，x-death 原因 = rejected，来自原队列：True"
    )
    assert "任务开始执行过：False；payload 被反序列化（标记文件存在）：False" in lines


@lesson_group(L11A)
def test_the_connection_loss_warning_is_absent_at_start_up(
    executed_lesson: Callable[[str], Any],
) -> None:
    needs("RabbitMQ")
    lines = printed(executed_lesson(L11A), "connection-loss-warning")
    assert "Worker 启动完成（ready）时，日志里有这条警告：False" in lines
    assert "晚 ACK 任务执行中、连接正常时，有这条警告：False" in lines
    assert "断线之后，有这条警告：True" in lines


@lesson_group(L14)
def test_prefetch_one_holds_one_of_four_tasks(executed_lesson: Callable[[str], Any]) -> None:
    needs("RabbitMQ")
    lines = printed(executed_lesson(L14), "inspect-cli")
    assert (
        "发出 4 条：Worker 手里 1 条（active 1 + reserved 0），问之前 broker 队列里在等 3 条"
        in lines
    )
    assert "Worker 手里的消息不超过预取窗口 prefetch_count=1：True" in lines


@lesson_group(L11A)
def test_prefetch_rows_and_early_ack_holding_unacknowledged(
    executed_lesson: Callable[[str], Any],
) -> None:
    rows = {}
    for line in printed(executed_lesson(L11A), "prefetch-inspect"):
        fields = line.split()
        if len(fields) == 8 and fields[0] in ("late", "early"):
            rows[fields[0], int(fields[1])] = [int(value) for value in fields[2:]]
    # prefetch_count, threads, active, reserved, still queued, reserved acknowledged (6 sent)
    assert rows["late", 4] == [4, 1, 1, 3, 2, 0]
    assert rows["late", 1] == [1, 1, 1, 0, 5, 0]
    assert rows["early", 4][3] > 0 and rows["early", 4][5] == 0  # prefetched, not ACKed


@lesson_group(L12)
def test_the_redelivery_loop_is_bounded_by_the_guard(
    executed_lesson: Callable[[str], Any],
) -> None:
    lines = printed(executed_lesson(L12), "redelivery-loop")
    assert "没有守卫：池进程连死 5 次，消息还在一次次重投：True" in lines
    assert "  重投循环被守卫终止：True" in lines
    assert (
        "  第 4 次投递被守卫拦下：receipt 里的投递次数 = 4，死信 = "
        "[('evt-loop', 'redelivery_limit', 4)]"
    ) in lines


@lesson_group(L14)
def test_reject_on_worker_lost_default_is_none_in_both_lessons(
    executed_lesson: Callable[[str], Any],
) -> None:
    lines = printed(executed_lesson(L14), "reject-default")
    assert lines[0].endswith("默认值： None") and lines[-1] == "当作开启吗： False"


@lesson_group(L12)
def test_the_course_hard_limit_line_is_shown_literally(
    executed_lesson: Callable[[str], Any],
) -> None:
    text = "\n".join(printed(executed_lesson(L12), "rabbitmq-capture"))
    assert (
        "Hard time limit (20s) exceeded for ticketflow.workers.tasks.deliver_notification" in text
    )


@lesson_group(L12)
def test_the_course_pytest_command_passes_in_the_lesson(
    executed_lesson: Callable[[str], Any],
) -> None:
    lines = printed(executed_lesson(L12), "course-pytest-local")
    assert lines[-2:] == ["1 passed", "（退出码 0）"]


@lesson_group(L12)
def test_the_remote_selector_is_shown_passing_from_its_capture(
    executed_lesson: Callable[[str], Any],
) -> None:
    lines = printed(executed_lesson(L12), "course-pytest-remote-capture")
    assert "在真实 RabbitMQ + PostgreSQL 上运行的记录，本次没有执行" in lines[0]
    assert any(line.startswith("1 passed") for line in lines) and lines[-1] == "（退出码 0）"
