"""Canvas is not a transaction: a chord whose header half fails, a chain that stops halfway.

A real worker (``lesson14_app`` on Redis, with a Redis result backend) runs
``lesson14.step`` tasks; each step's effect goes through ticketflow's receipt
(``apply_notification_once`` on a SQLite file), keyed by ``<order>:<step>``.

* chord: four header steps, two of which fail. The body never runs (the chord's result
  is a ``ChordError``), but the two good steps have committed their effects: nothing
  undoes them;
* group: three steps side by side, the middle one failing. The group's result holds one
  failure and two successes; the two effects stay committed;
* chain: ``reserve -> charge -> notify`` where ``charge`` fails. ``reserve`` stays done,
  ``notify`` never runs, and the chain has no rollback;
* the receipt per step makes the way out safe: run the whole chain again once the cause
  is fixed. ``reserve`` finds its receipt (a duplicate, no second effect), the rest runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ticketflow_lab.lesson14_app import DATABASE_ENV, RESULT_BACKEND_ENV
from ticketflow_lab.lesson14_workers import WorkerSet
from ticketflow_lab.live_services import url
from ticketflow_lab.two_workers import redis_transport

CHORD_STEPS = (("a", False), ("b", True), ("c", False), ("d", True))
CHAIN_STEPS = ("reserve", "charge", "notify")
GROUP_STEPS = (("x", False), ("y", True), ("z", False))


@dataclass
class CanvasRun:
    lines: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.lines.append(text)


def run_canvas(folder: Path, *, timeout: float = 12.0) -> CanvasRun:
    from celery import chain, chord, group

    run = CanvasRun()
    broker = url("Redis")
    database = f"sqlite:///{folder / 'effects.db'}"
    _create_schema(database)
    with WorkerSet(
        folder,
        broker_url=broker,
        transport_options=redis_transport(3600),
        prefix="lesson14.canvas",
        extra_env={RESULT_BACKEND_ENV: broker, DATABASE_ENV: database},
    ) as workers:
        workers.start("canvas")

        def step(key: str, name: str, fail: bool = False) -> Any:
            return workers.signature("lesson14.step", key, name, fail)

        header = [step("order-1", name, fail) for name, fail in CHORD_STEPS]
        body = workers.signature("lesson14.summarize", key="order-1").set(immutable=False)
        outcome = chord(header, body).apply_async()
        outcome.get(timeout=timeout, propagate=False)
        done = _steps(workers, "order-1")
        run.say("chord：header 是 a、b、c、d，其中 b、d 失败；body 是 summarize")
        run.say(f"  效果已提交的 header 步骤：{done}")
        run.say(f"  body 运行过：{_body_ran(workers, 'order-1')}")
        run.say(f"  chord 的结果：{outcome.state} {type(outcome.result).__name__}")

        together = group(step("order-3", name, fail) for name, fail in GROUP_STEPS)
        parts = together.apply_async()
        parts.get(timeout=timeout, propagate=False)
        run.say("group：x、y、z 并列执行，其中 y 失败")
        run.say(f"  各项的状态：{[part.state for part in parts.results]}")
        run.say(f"  效果已提交的步骤：{_steps(workers, 'order-3')}；没有任何东西撤销 x 和 z")

        failing = chain(
            step("order-2", "reserve"), step("order-2", "charge", True), step("order-2", "notify")
        )
        failed = failing.apply_async()
        failed.get(timeout=timeout, propagate=False)
        run.say("chain：reserve -> charge（失败）-> notify")
        run.say(f"  效果已提交的步骤：{_steps(workers, 'order-2')}")
        run.say(f"  notify 运行过：{'notify' in _steps(workers, 'order-2')}；reserve 没有被回滚")

        fixed = chain(*(step("order-2", name) for name in CHAIN_STEPS)).apply_async()
        fixed.get(timeout=timeout)
        results = [node.get(timeout=timeout) for node in _chain_nodes(fixed)]
        run.say("修好 charge 后把同一条 chain 再跑一遍（每一步都经过自己的 receipt）：")
        for result in results:
            verdict = (
                "applied（生效）" if result["applied"] else "duplicate（找到 receipt，什么也不改）"
            )
            run.say(f"  {result['step']:<8} {verdict}")
        run.say(f"  每一步的效果次数：{_effect_counts(database, 'order-2')}")
    return run


def _create_schema(database: str) -> None:
    from ticketflow.db.engine import create_engine_from_url, create_schema

    engine = create_engine_from_url(database)
    try:
        create_schema(engine)
    finally:
        engine.dispose()


def _steps(workers: WorkerSet, key: str) -> list[str]:
    return sorted(
        e["step"]
        for e in workers.entries()
        if e["kind"] == "step" and e["key"] == key and e["applied"]
    )


def _body_ran(workers: WorkerSet, key: str) -> bool:
    return any(e["kind"] == "body_ran" and e["key"] == key for e in workers.entries())


def _chain_nodes(result: Any) -> list[Any]:
    """The results of a chain, first step first (``result`` is the last one)."""
    nodes = []
    while result is not None:
        nodes.append(result)
        result = result.parent
    return list(reversed(nodes))


def _effect_counts(database: str, key: str) -> dict[str, int]:
    from sqlalchemy import func, select

    from ticketflow.db import BusinessTask
    from ticketflow.db.engine import create_engine_from_url

    engine = create_engine_from_url(database)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(BusinessTask.event_id, func.count())
                .where(BusinessTask.event_id.like(f"{key}:%"))
                .group_by(BusinessTask.event_id)
            ).all()
    finally:
        engine.dispose()
    counts = {str(event_id).split(":", 1)[1]: int(count) for event_id, count in rows}
    return {name: counts.get(name, 0) for name in CHAIN_STEPS}
