"""How the tests start the real ``grader`` command: the venv's script, else ``-m grader``."""

from __future__ import annotations

import sys
from pathlib import Path


def grader_command() -> list[str]:
    script = Path(sys.executable).parent / "grader"
    return [str(script)] if script.exists() else [sys.executable, "-m", "grader"]
