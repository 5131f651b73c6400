from __future__ import annotations

import pytest

from ticketflow.workers.app import create_app, reliability_settings


def test_embedded_default_is_eager_and_needs_no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TICKETFLOW_BROKER_URL", raising=False)
    monkeypatch.delenv("TICKETFLOW_RESULT_BACKEND", raising=False)
    app = create_app()
    assert app.conf.task_always_eager is True
    assert app.conf.broker_url == "memory://"


def test_reliability_configuration() -> None:
    app = create_app("amqp://guest:guest@127.0.0.1:5672//")
    conf = app.conf
    assert conf.task_always_eager is False
    assert (conf.task_acks_late, conf.task_reject_on_worker_lost) == (True, True)
    assert conf.worker_prefetch_multiplier == 1
    assert (conf.task_serializer, conf.result_serializer) == ("json", "json")
    assert conf.accept_content == ["json"]
    assert conf.task_default_delivery_mode == "persistent"
    assert (conf.task_soft_time_limit, conf.task_time_limit) == (15, 20)


def test_environment_selects_broker_and_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TICKETFLOW_BROKER_URL", "redis://127.0.0.1:6379/3")
    monkeypatch.setenv("TICKETFLOW_RESULT_BACKEND", "redis://127.0.0.1:6379/4")
    app = create_app()
    assert app.conf.broker_url == "redis://127.0.0.1:6379/3"
    assert app.conf.result_backend == "redis://127.0.0.1:6379/4"
    assert app.conf.task_always_eager is False
    assert app.conf.broker_transport_options["visibility_timeout"] > app.conf.task_time_limit


def test_every_setting_is_one_celery_knows() -> None:
    from celery.app.defaults import find

    for key in reliability_settings():
        assert find(key) is not None, key
