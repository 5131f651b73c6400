"""GradingSettings: built once from flags and the environment; the isolation knob."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.app.settings import GradingSettings, isolation_mode
from grader.errors import UsageError
from grader.runner.model import Limits


@pytest.mark.parametrize(
    ("value", "mode"), [(None, "auto"), ("RLIMITS", "rlimits"), ("namespaces", "namespaces")]
)
def test_the_isolation_knob(value: str | None, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if value is None:
        monkeypatch.delenv("GRADER_ISOLATION", raising=False)
    else:
        monkeypatch.setenv("GRADER_ISOLATION", value)
    assert isolation_mode() == mode
    assert GradingSettings.from_env().isolation == mode


def test_an_unknown_isolation_mode_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADER_ISOLATION", "docker\x1b[2J")
    with pytest.raises(UsageError) as caught:
        GradingSettings.from_env()
    assert caught.value.exit_code == 2
    assert caught.value.params["given"] == "docker\\x1b[2j"


def test_flags_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADER_ISOLATION", "namespaces")
    monkeypatch.setenv("GRADER_LANG", "en")
    settings = GradingSettings.from_env(
        root="~/course", lang="zh", isolation="rlimits", hide=["class"], jobs=3
    )
    assert (settings.lang, settings.isolation, settings.jobs) == ("zh", "rlimits", 3)
    assert settings.root == Path("~/course").expanduser()
    assert settings.hide == (Path("class").absolute(),)
    assert settings.limits == Limits()


def test_settings_are_frozen_and_hashable() -> None:
    settings = GradingSettings.from_env(lang="en")
    with pytest.raises(AttributeError):
        settings.lang = "zh"  # type: ignore[misc]
    assert hash(settings) == hash(GradingSettings.from_env(lang="en"))
