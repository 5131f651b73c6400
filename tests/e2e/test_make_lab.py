"""``make lab`` starts JupyterLab as root too: Jupyter refuses root without --allow-root."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def lab_command(tmp_path: Path, uid: int) -> str:
    """What ``make lab`` would run when ``id -u`` says ``uid`` (a fake ``id`` first on PATH)."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "id").write_text(f"#!/bin/sh\necho {uid}\n", encoding="utf-8")
    (fake / "id").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["make", "-s", "-n", "lab"],  # -n: print the commands, run none
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    (line,) = [line for line in done.stdout.splitlines() if "jupyter lab" in line]
    return line


@pytest.mark.parametrize(("uid", "allowed"), [(0, True), (1000, False)])
def test_make_lab_adds_allow_root_only_for_root(tmp_path: Path, uid: int, allowed: bool) -> None:
    line = lab_command(tmp_path, uid)
    assert f'--ServerApp.root_dir="{REPO}"' in line
    assert ("--allow-root" in line) is allowed, line
