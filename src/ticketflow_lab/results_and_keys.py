"""The result backend in the normal flow, ``result_expires``, and why it is no dedupe store.

Live part (``run_result_backend``): a real worker on Redis with a Redis result backend
(``result_expires=60``). The caller sends a task, the worker stores its return value under
``celery-task-meta-<task id>``, ``AsyncResult.get()`` reads it back, and the key carries
a TTL: after ``result_expires`` the backend has forgotten the task ever ran.

Pure part (``key_comparison``): the article's ``idempotent_key()`` (a hash of the task's
arguments) against ticketflow's business key (the event id under a unique constraint).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from pathlib import Path
from typing import Any

from ticketflow_lab.article_idempotent import DEDUPE_TTL_SECONDS, dedupe_key
from ticketflow_lab.lesson14_app import RESULT_BACKEND_ENV, RESULT_EXPIRES_SECONDS
from ticketflow_lab.lesson14_workers import WorkerSet
from ticketflow_lab.live_services import url
from ticketflow_lab.two_workers import redis_transport


def run_result_backend(folder: Path, *, timeout: float = 10.0) -> list[str]:
    import redis

    broker = url("Redis")
    transport = redis_transport(3600)
    with WorkerSet(
        folder,
        broker_url=broker,
        transport_options=transport,
        prefix="lesson14.results",
        extra_env={RESULT_BACKEND_ENV: broker},
    ) as workers:
        workers.start("results")
        first = workers.client.send_task("lesson14.echo", args=["evt-7"], queue=workers.queue)
        value = first.get(timeout=timeout)
        client = redis.Redis.from_url(broker)
        try:
            ttl = int(client.ttl(f"{transport['global_keyprefix']}celery-task-meta-{first.id}"))
        finally:
            client.close()
        again = workers.client.send_task("lesson14.echo", args=["evt-7"], queue=workers.queue)
        again.get(timeout=timeout)
        unknown = workers.client.AsyncResult(str(uuid.uuid4())).state
    return [
        f"get() 读回的就是 Worker 存下的结果：{value == {'key': 'evt-7', 'task_id': first.id}}"
        f"（状态 {first.state}）",
        f"存下的结果会过期：0 < TTL <= result_expires（{RESULT_EXPIRES_SECONDS} s）："
        f"{0 < ttl <= RESULT_EXPIRES_SECONDS}",
        f"同一个事件再发一次，拿到新的 task id：{again.id != first.id}"
        "（按 task id 去重，找错了地方）",
        f"结果后端从没见过的 task id 的状态：{unknown}"
        "（和“还没运行”是同一个词：查不到什么也证明不了）",
    ]


def run_article_idempotent_task(folder: Path, *, timeout: float = 15.0) -> list[str]:
    """The article's ``IdempotentTask`` on a real worker (concurrency 2) and Redis backend."""
    import redis

    broker = url("Redis")
    transport = redis_transport(3600)
    with WorkerSet(
        folder,
        broker_url=broker,
        transport_options=transport,
        prefix="lesson14.dedupe",
        extra_env={RESULT_BACKEND_ENV: broker},
    ) as workers:
        workers.start("dedupe", concurrency=2)
        client = workers.client

        sent: list[str] = []

        def send(event_id: str, task_id: str, hold: float = 0.0) -> Any:
            sent.append(task_id)
            return client.send_task(
                "lesson14.idempotent_notify",
                args=[event_id, hold],
                queue=workers.queue,
                task_id=task_id,
            )

        task_a = f"task-a-{uuid.uuid4().hex[:8]}"
        first = send("evt-A", task_a).get(timeout=timeout)
        second = send("evt-A", task_a).get(timeout=timeout)  # a redelivery: the same task id
        store = redis.Redis.from_url(broker)
        try:
            ttl = int(store.ttl(dedupe_key(task_a)))  # the article's keys carry no run prefix
            for _ in range(2):  # the producer publishes the same event twice: two task ids
                send("evt-B", str(uuid.uuid4())).get(timeout=timeout)
            task_c = f"task-c-{uuid.uuid4().hex[:8]}"
            together = [send("evt-C", task_c, hold=1.0) for _ in range(2)]  # both at once
            for result in together:
                result.get(timeout=timeout)
            runs = {
                event: sum(e["kind"] == "notified" and e["key"] == event for e in workers.entries())
                for event in ("evt-A", "evt-B", "evt-C")
            }
        finally:
            store.delete(*(dedupe_key(task_id) for task_id in set(sent)))  # leave nothing
            store.close()
    return [
        f"情况 A（同一个 task id 先后投递两次）：通知发出 {runs['evt-A']} 次，"
        f"第二次返回了缓存的结果：{second == first}",
        f"  去重键 {dedupe_key('<task id>')} 存在 Redis 里，0 < TTL <= {DEDUPE_TTL_SECONDS} s："
        f"{0 < ttl <= DEDUPE_TTL_SECONDS}",
        f"情况 B（同一个事件发布两次，两个 task id）：通知发出 {runs['evt-B']} 次",
        f"情况 C（同一个 task id 同时到达两个池进程）：通知发出 {runs['evt-C']} 次"
        "（先查再写不是原子的）",
    ]


def idempotent_key(*args: Any, **kwargs: Any) -> str:
    """The article's key: a hash of the arguments (reproduced as printed there)."""
    raw = json.dumps({"args": args, "kwargs": kwargs}, sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def key_comparison() -> list[str]:
    """Pairs of deliveries, judged by two argument hashes and by the business key.

    A task ``notify(ticket_id, assignee[, sent_at])``; ``evt-9`` is a real second
    assignment of the same ticket to the same person (it went to someone else between).
    """
    first = {"event_id": "evt-7", "ticket_id": 7, "assignee": "alice", "sent_at": "09:00:00"}
    restamped = {**first, "sent_at": "09:00:05"}  # the producer re-sent evt-7
    later = {"event_id": "evt-9", "ticket_id": 7, "assignee": "alice", "sent_at": "09:30:00"}
    pairs = [
        ("evt-7 delivered twice", first, True),
        ("evt-7 re-sent with a new sent_at", restamped, True),
        ("evt-9: a new assignment, same args", later, False),
    ]
    lines = [
        f"{'second delivery':<36} {'hash(ticket,who)':<17} {'hash(+sent_at)':<15} "
        f"{'event_id':<10} truth"
    ]
    for label, second, same in pairs:
        short = _same(
            idempotent_key(first["ticket_id"], first["assignee"]),
            idempotent_key(second["ticket_id"], second["assignee"]),
        )
        full = _same(
            idempotent_key(first["ticket_id"], first["assignee"], first["sent_at"]),
            idempotent_key(second["ticket_id"], second["assignee"], second["sent_at"]),
        )
        by_key = first["event_id"] == second["event_id"]
        lines.append(
            f"{label:<36} {_word(short, same):<17} {_word(full, same):<15} "
            f"{_word(by_key, same):<10} {_word(same, same)}"
        )
    return lines


def _same(left: str, right: str) -> bool:
    return left == right


def _word(duplicate: bool, truth: bool) -> str:
    word = "duplicate" if duplicate else "new"
    return word if duplicate == truth else word + " (!)"
