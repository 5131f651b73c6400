"""Shared helpers for the runner tests."""

from __future__ import annotations

import importlib.metadata
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from grader.runner import ForkServer, Limits, Observations, RunRequest, sandbox

PRELUDES = "tests.unit.grader.runner.preludes"
FILENAME = "probe.py"


def namespaces_skip_reason() -> str | None:
    reason = sandbox.namespaces_unavailable()
    return None if reason is None else f"requires Linux namespaces, not available here: {reason}"


def require_namespaces() -> None:
    reason = namespaces_skip_reason()
    if reason:
        pytest.skip(reason)  # "requires Linux namespaces, not available here: ..."


def server_for(mode: str) -> Iterator[ForkServer]:
    """A server whose host preloads the test preludes: a run's view holds the packages its
    host loaded (``grader.runner.view``), as a grading host loads the grader's own."""
    if mode == "namespaces":
        require_namespaces()
    with ForkServer(isolation=mode, preload=[PRELUDES]) as server:
        assert server.isolation == mode
        yield server


def run(
    server: ForkServer,
    source: str,
    *,
    limits: Limits | None = None,
    prelude: str | None = None,
    prelude_args: dict[str, Any] | None = None,
    filename: str = FILENAME,
) -> Observations:
    request = RunRequest(
        source=source,
        filename=filename,
        prelude=prelude,
        prelude_args=prelude_args or {},
        limits=limits or Limits(wall_seconds=10.0),
    )
    return server.run(request)


def marker() -> str:
    """A unique number usable as a ``sleep`` argument and findable in /proc/*/cmdline."""
    return f"{9000 + uuid.uuid4().int % 1000}.{uuid.uuid4().int % 10**6:06d}"


def processes_with(text: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if text.encode() in f.read():
                    found.append(int(name))
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    """``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


#: Prints the plugins pytest loaded from packages' entry points, as ``PLUGINS [names]``.
PLUGINS_OF_PYTEST_MAIN = """
import pytest
class Seen:
    def pytest_configure(self, config):
        found = config.pluginmanager.list_plugin_distinfo()
        print("PLUGINS", sorted(dist.project_name for _, dist in found))
pytest.main(["-q", "-p", "no:cacheprovider", "--co", "no_such_test.py"], plugins=[Seen()])
"""


def installed_pytest_plugins() -> list[str]:
    """The pytest plugins this venv offers through entry points (``pytest11``)."""
    return [entry.name for entry in importlib.metadata.entry_points(group="pytest11")]
