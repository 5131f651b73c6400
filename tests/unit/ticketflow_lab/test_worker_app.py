"""The lab worker: the production settings plus the fault plan, and nothing else."""

from __future__ import annotations

import pytest

from ticketflow.workers.celery_worker import worker_settings
from ticketflow.workers.tasks import TASK_NAME
from ticketflow_lab.fault_injection import BREAK_ENV
from ticketflow_lab.worker_app import lab_worker_settings

LIMITS = {"TICKETFLOW_SOFT_TIME_LIMIT": "2", "TICKETFLOW_TIME_LIMIT": "4"}


def test_without_faults_the_lab_worker_runs_the_production_settings() -> None:
    assert lab_worker_settings(LIMITS) == worker_settings(LIMITS)


def test_the_production_worker_ignores_the_break_switch() -> None:
    broken = {**LIMITS, BREAK_ENV: "acks_early"}
    assert worker_settings(broken) == worker_settings(LIMITS)
    assert worker_settings(broken)["task_annotations"] == {
        TASK_NAME: {"soft_time_limit": 2, "time_limit": 4}
    }


def test_acks_early_is_merged_into_the_task_annotations() -> None:
    settings = lab_worker_settings({**LIMITS, BREAK_ENV: "acks_early"})
    assert settings["task_annotations"] == {
        TASK_NAME: {"soft_time_limit": 2, "time_limit": 4, "acks_late": False}
    }


def test_ack_on_worker_lost_overrides_the_app_setting() -> None:
    settings = lab_worker_settings({BREAK_ENV: "ack_on_worker_lost"})
    assert settings["task_reject_on_worker_lost"] is False
    assert "task_reject_on_worker_lost" not in worker_settings({BREAK_ENV: "ack_on_worker_lost"})


def test_an_unknown_variant_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="acks_early"):
        lab_worker_settings({BREAK_ENV: "nonsense"})
