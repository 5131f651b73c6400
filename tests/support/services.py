"""Reachability of the local services, and throwaway namespaces on them.

A test that needs a service skips only when that service is unreachable, and the skip
reason names the service, where it was looked for and how to start it.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

POSTGRES_ADMIN_URL = os.environ.get(
    "TICKETFLOW_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
RABBITMQ_URL = os.environ.get("TICKETFLOW_TEST_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:5672//")
REDIS_URL = os.environ.get("TICKETFLOW_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")

START_HINT = "start it with .ci/run (or see README, 'Services')"


def reachable(url: str, default_port: int, timeout: float = 1.0) -> bool:
    parts = urlsplit(url)
    host = parts.hostname or "127.0.0.1"
    port = parts.port or default_port
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def unreachable_reason(name: str, url: str, default_port: int) -> str | None:
    if reachable(url, default_port):
        return None
    parts = urlsplit(url)
    where = f"{parts.hostname or '127.0.0.1'}:{parts.port or default_port}"
    return f"{name} is unreachable at {where}; {START_HINT}"


def postgres_unreachable() -> str | None:
    return unreachable_reason("PostgreSQL", POSTGRES_ADMIN_URL, 5432)


def rabbitmq_unreachable() -> str | None:
    return unreachable_reason("RabbitMQ", RABBITMQ_URL, 5672)


def redis_unreachable() -> str | None:
    return unreachable_reason("Redis", REDIS_URL, 6379)


@contextmanager
def temporary_postgres_database(prefix: str = "tf_test") -> Iterator[str]:
    """Create a fresh PostgreSQL database, yield its URL, drop it afterwards."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        url = make_url(POSTGRES_ADMIN_URL).set(database=name)
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
