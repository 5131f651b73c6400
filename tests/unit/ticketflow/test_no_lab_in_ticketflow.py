"""The taught package has no test switches and never loads the lab harness."""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import ticketflow

PACKAGE_DIR = Path(ticketflow.__file__).parent
LAB_IMPORT = re.compile(r"^\s*(from|import)\s+ticketflow_lab\b|import_module\(.ticketflow_lab")


def test_no_test_switch_in_the_taught_package() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE_DIR)}:{number}"
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "TICKETFLOW_TEST_" in line or LAB_IMPORT.search(line)
    ]
    assert offenders == []


def test_importing_every_ticketflow_module_and_the_worker_app_loads_no_lab_module() -> None:
    names = sorted(
        info.name for info in pkgutil.walk_packages(ticketflow.__path__, prefix="ticketflow.")
    )
    assert "ticketflow.workers.celery_worker" in names  # the walk did find the package
    script = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "lab = sorted(m for m in sys.modules if m.split('.')[0] == 'ticketflow_lab')\n"
        "print(len(sys.modules), lab)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    loaded, lab = done.stdout.split(" ", 1)
    assert int(loaded) > 0
    assert lab.strip() == "[]"


def test_the_lab_worker_module_is_what_lab_workers_run() -> None:
    from ticketflow_lab.worker_process import WORKER_MODULE, worker_command

    assert WORKER_MODULE == "ticketflow_lab.worker_app"
    assert worker_command("n1", "q")[3:5] == ["-A", "ticketflow_lab.worker_app"]
