"""Lesson 14's view of the real services: where they are, whether to use them, unique names.

A live cell of lesson 14 first asks ``skip_reason("RabbitMQ", "Redis")``: ``None`` means
go; otherwise it prints the one line returned (naming the service) and does nothing else.

* URLs come from ``TICKETFLOW_LESSON_RABBITMQ_URL`` / ``..._REDIS_URL`` / ``..._POSTGRES_URL``,
  defaulting to the README's local services;
* ``TICKETFLOW_LESSON_SERVICES=none`` makes every service count as unreachable: the
  embedded-default run (what the benchmark times, what a laptop without services sees);
* every queue, exchange and key a cell creates is named by ``unique_name`` (a uuid
  suffix), so parallel runs and re-runs never meet, and the cell deletes them afterwards.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from ticketflow_lab.platforms import live_gap

SERVICES_ENV = "TICKETFLOW_LESSON_SERVICES"


@dataclass(frozen=True)
class Service:
    name: str
    env: str
    default_url: str
    default_port: int

    def url(self, env: Mapping[str, str] | None = None) -> str:
        return (env if env is not None else os.environ).get(self.env) or self.default_url

    def where(self, env: Mapping[str, str] | None = None) -> str:
        parts = urlsplit(self.url(env))
        return f"{parts.hostname or '127.0.0.1'}:{parts.port or self.default_port}"


SERVICES = {
    service.name: service
    for service in (
        Service(
            "RabbitMQ",
            "TICKETFLOW_LESSON_RABBITMQ_URL",
            "amqp://guest:guest@127.0.0.1:5672//",
            5672,
        ),
        Service("Redis", "TICKETFLOW_LESSON_REDIS_URL", "redis://127.0.0.1:6379/0", 6379),
        Service(
            "PostgreSQL",
            "TICKETFLOW_LESSON_POSTGRES_URL",
            "postgresql://postgres@127.0.0.1:5432/test",
            5432,
        ),
    )
}


def url(name: str) -> str:
    return SERVICES[name].url()


def _reachable(service: Service, timeout: float) -> bool:
    parts = urlsplit(service.url())
    host, port = parts.hostname or "127.0.0.1", parts.port or service.default_port
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def skip_reason(*names: str, timeout: float = 1.0) -> str | None:
    """One line saying which needed service is unreachable, or ``None`` when all are up."""
    if os.environ.get(SERVICES_ENV, "").strip().lower() == "none":
        listed = "、".join(names)
        return f"跳过：本次不连接 {listed}（{SERVICES_ENV}=none，嵌入式默认环境）。"
    gap = live_gap(services=names, capture=False)
    if gap is not None:  # the workers these cells start need Linux (prefork, signals)
        return gap
    down = [SERVICES[name] for name in names if not _reachable(SERVICES[name], timeout)]
    if not down:
        return None
    shown = "、".join(f"{service.name}（{service.where()}）" for service in down)
    return f"跳过：{shown} 不可达；启动它之后重跑这个单元。"


def unique_name(prefix: str) -> str:
    """``prefix`` plus a fresh uuid suffix: a queue, exchange or key nobody else uses."""
    return f"{prefix}.{uuid.uuid4().hex[:10]}"
