"""Grade one file through the real command line and keep everything it said."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.hostile.corpus import REPO

GRADER_TRACEBACK = "Traceback (most recent call last)"
#: Characters a report must never carry to a terminal: C0/C1 controls (but tab and newline),
#: DEL, and the bidi overrides/isolates that reorder what the reader sees.
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: Keys of a check whose text came from the student's process (fenced off as untrusted).
STUDENT_TEXT = ("evidence",)


@dataclass(frozen=True)
class Graded:
    argv: tuple[str, ...]
    exit_code: int | None  # None: we had to kill the grader (it hung)
    stdout: str
    stderr: str
    seconds: float

    @property
    def payload(self) -> dict[str, Any] | None:
        try:
            document = json.loads(self.stdout)
        except ValueError:
            return None
        return document if isinstance(document, dict) else None

    @property
    def isolation(self) -> str | None:
        payload = self.payload
        return None if payload is None else payload.get("isolation")

    @property
    def status(self) -> str | None:
        payload = self.payload
        return None if payload is None else str(payload.get("status"))

    def message(self) -> str:
        """The grader's own words: the error message, or the failed checks' messages."""
        payload = self.payload or {}
        error = payload.get("error")
        if isinstance(error, dict):
            return str(error.get("message", ""))
        failed = [c for c in payload.get("checks", []) if not c.get("passed")]
        return " | ".join(f"{c.get('name')}: {c.get('message')}" for c in failed)

    def controls(self) -> list[str]:
        """Terminal controls anywhere in the report (student text included), JSON decoded."""
        payload = self.payload
        text = self.stdout if payload is None else "\n".join(_strings(payload))
        return sorted({repr(m) for m in FORBIDDEN.findall(text + self.stderr)})

    def grader_text(self) -> str:
        """Everything the grader itself wrote, with the student's fenced-off text removed."""
        payload = self.payload
        if payload is None:
            return self.stdout + self.stderr
        stripped = dict(payload)
        stripped["checks"] = [
            {k: v for k, v in check.items() if k not in STUDENT_TEXT}
            for check in payload.get("checks", [])
        ]
        return json.dumps(stripped, ensure_ascii=False) + self.stderr


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def check_argv(
    exercise: str, path: Path, root: Path, *, as_json: bool = True, lang: str = "en"
) -> list[str]:
    args = ["check", exercise, "--path", str(path), "--root", str(root), "--lang", lang]
    return [sys.executable, "-m", "grader", *args, *(["--json"] if as_json else [])]


def grade(
    exercise: str,
    path: Path,
    root: Path,
    *,
    timeout: float,
    isolation: str | None = None,
    as_json: bool = True,
    cwd: Path = REPO,
    lang: str = "en",
) -> Graded:
    """Run ``grader check`` as a student would; kill it (and say so) after ``timeout`` s.

    ``isolation`` forces the sandbox mode through ``$GRADER_ISOLATION`` (None: the default).
    """
    argv = check_argv(exercise, path, root, as_json=as_json, lang=lang)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "PYTEST_"))}
    if isolation is not None:
        env["GRADER_ISOLATION"] = isolation
    started = time.monotonic()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    seconds = time.monotonic() - started
    return Graded(
        tuple(argv), code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), seconds
    )
