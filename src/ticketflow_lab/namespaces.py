"""Throwaway namespaces on the real services: a RabbitMQ vhost and a PostgreSQL database.

A scenario never touches anything it did not create: it gets its own vhost (so its
queues, its unacked counts and its control replies are its own) and its own database,
and drops both afterwards, even when it fails.
"""

from __future__ import annotations

import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit, urlunsplit

RABBITMQCTL_TIMEOUT_SECONDS = 30.0


class NamespaceError(RuntimeError):
    """A namespace could not be created, probed or dropped; the message says why."""


@dataclass(frozen=True)
class QueueCounts:
    ready: int
    unacked: int

    def __str__(self) -> str:
        return f"ready={self.ready} unacked={self.unacked}"


def _rabbitmqctl(*args: str) -> str:
    executable = shutil.which("rabbitmqctl")
    if executable is None:
        raise NamespaceError(
            "rabbitmqctl was not found on PATH: it is needed to create a throwaway vhost "
            "and to read the broker's unacked counts (run this on the broker's host)"
        )
    try:
        completed = subprocess.run(
            [executable, *args],
            capture_output=True,
            text=True,
            timeout=RABBITMQCTL_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise NamespaceError(f"rabbitmqctl {' '.join(args)} timed out") from error
    if completed.returncode != 0:
        detail = (completed.stderr or completed.stdout).strip().splitlines()
        raise NamespaceError(
            f"rabbitmqctl {' '.join(args)} failed ({completed.returncode}): "
            + (detail[-1] if detail else "no output")
        )
    return completed.stdout


class RabbitMQVhost:
    """A vhost on the broker of ``base_url``, with the URL's user allowed everything."""

    def __init__(self, base_url: str, name: str) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("amqp", "pyamqp", "amqps"):
            raise NamespaceError(f"a RabbitMQ URL (amqp://...) is needed, got {parts.scheme}://")
        self.name = name
        self.user = unquote(parts.username or "guest")
        self.url = urlunsplit(parts._replace(path="/" + quote(name, safe="")))

    def create(self) -> None:
        _rabbitmqctl("add_vhost", self.name)
        _rabbitmqctl("set_permissions", "-p", self.name, self.user, ".*", ".*", ".*")

    def delete(self) -> None:
        _rabbitmqctl("delete_vhost", self.name)

    def queue_counts(self) -> dict[str, QueueCounts]:
        """Ready and unacknowledged messages per queue, as the broker counts them."""
        output = _rabbitmqctl(
            "-q",
            "list_queues",
            "-p",
            self.name,
            "name",
            "messages_ready",
            "messages_unacknowledged",
            "--no-table-headers",
        )
        counts = {}
        for line in output.splitlines():
            fields = line.split("\t")
            if len(fields) == 3 and fields[1].isdigit() and fields[2].isdigit():
                counts[fields[0]] = QueueCounts(int(fields[1]), int(fields[2]))
        return counts

    def counts(self, queue: str) -> QueueCounts:
        return self.queue_counts().get(queue, QueueCounts(0, 0))


@contextmanager
def temporary_vhost(base_url: str, prefix: str = "tf_test") -> Iterator[RabbitMQVhost]:
    """Create a fresh vhost, yield it, delete it (and everything in it) afterwards."""
    vhost = RabbitMQVhost(base_url, f"{prefix}_{uuid.uuid4().hex[:12]}")
    vhost.create()
    try:
        yield vhost
    finally:
        vhost.delete()


@contextmanager
def temporary_database(admin_url: str, prefix: str = "tf_demo") -> Iterator[str]:
    """Create a fresh PostgreSQL database next to ``admin_url``'s; drop it afterwards."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    url = make_url(admin_url)
    if url.get_backend_name() != "postgresql":
        raise NamespaceError(f"a PostgreSQL URL is needed for a throwaway database, got {url}")
    if url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield url.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()
