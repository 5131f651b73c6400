"""The real ``grader review`` server in a subprocess, and Debian's Chromium driven by
Playwright (``executable_path``: ``playwright install`` downloads browsers and cannot work
here; nothing is fetched)."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.batch_support import environment
from tests.e2e.conftest import grader_command

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
URL_PATTERN = re.compile(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]+)")
START_TIMEOUT = 60.0


def chromium_missing() -> str | None:
    if CHROMIUM.exists():
        return None
    return (
        f"chromium not available: {CHROMIUM} is missing"
        " (apt-get install -y chromium; .ci/run installs it)"
    )


def screenshots_folder() -> Path:
    given = os.environ.get("REVIEW_SCREENSHOTS")
    folder = Path(given) if given else Path(tempfile.mkdtemp(prefix="review-screenshots-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass(frozen=True)
class Server:
    base: str
    token: str
    process: subprocess.Popen[str]

    @property
    def url(self) -> str:
        return f"{self.base}/?token={self.token}"


@contextmanager
def review_server(db_url: str, cwd: Path, lang: str = "en") -> Iterator[Server]:
    command = [
        *grader_command(),
        "review",
        "--db",
        db_url,
        "--port",
        "0",
        "--no-browser",
        "--reviewer",
        "prof-e2e",
        "--lang",
        lang,
    ]
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
        start_new_session=True,
    )
    try:
        yield _wait_for_url(process)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            _, stderr = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            _, stderr = process.communicate()
        assert "Traceback" not in (stderr or ""), stderr


def _wait_for_url(process: subprocess.Popen[str]) -> Server:
    assert process.stdout is not None
    seen = ""
    while True:
        ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT)
        line = process.stdout.readline() if ready else ""
        if not line:
            stderr = process.stderr.read() if process.stderr and process.poll() is not None else ""
            raise AssertionError(f"grader review printed no address: {seen!r} {stderr!r}")
        seen += line
        found = URL_PATTERN.search(line)
        if found:
            return Server(f"http://127.0.0.1:{found.group(1)}", found.group(2), process)


@contextmanager
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()
