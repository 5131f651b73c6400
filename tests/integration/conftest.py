"""Fixtures for tests against the real services (marker ``integration``).

Each test gets its own RabbitMQ vhost (``rabbitmq_vhost``) and PostgreSQL database
(``postgres_url``, from tests/conftest.py), created for it and dropped afterwards. A test
skips only when the service is unreachable, and the reason names the service.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.services import RABBITMQ_URL, rabbitmq_unreachable
from ticketflow_lab.namespaces import RabbitMQVhost, temporary_vhost


@pytest.fixture
def rabbitmq_vhost() -> Iterator[RabbitMQVhost]:
    """A fresh vhost on the local RabbitMQ (via rabbitmqctl), deleted afterwards."""
    reason = rabbitmq_unreachable()
    if reason:
        pytest.skip(reason)  # "<service> is unreachable at host:port; ..."
    with temporary_vhost(RABBITMQ_URL, prefix="tf_test") as vhost:
        yield vhost
