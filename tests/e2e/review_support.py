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
from collections.abc import Callable, Iterator
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
#: review.js marks <html data-ready="1"> once its handlers are bound (one mark per page).
READY = "html[data-ready='1']"
#: How long a page may take to arrive and bind its script (generous: the machine is shared).
PAGE_TIMEOUT_MS = 30_000


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


# -- page state -------------------------------------------------------------------------
# A key press or click is only made on a page whose script has bound its handlers, and what
# it does is awaited as page state (the URL it leads to, then that page's script ready),
# never as "some navigation happened": a key pressed before review.js ran does nothing.


def settled(page: Any) -> None:
    """Wait until the page's script is ready (its key and click handlers are bound)."""
    from playwright.sync_api import expect

    expect(page.locator(READY)).to_be_attached(timeout=PAGE_TIMEOUT_MS)


def arrived(page: Any, url: str | Callable[[str], bool]) -> None:
    """Wait until the page is at ``url`` (an exact URL or a test on it), loaded and ready."""
    test = url if callable(url) else (lambda seen: seen == url)
    page.wait_for_url(test, timeout=PAGE_TIMEOUT_MS)
    settled(page)


def press(page: Any, key: str) -> None:
    """Press ``key`` once the page's script is listening for it."""
    settled(page)
    page.keyboard.press(key)


def click(page: Any, selector: str) -> None:
    """Click ``selector`` once the page's script is ready and the element is visible."""
    settled(page)
    shown(page, selector)
    page.click(selector)


def shown(page: Any, selector: str) -> None:
    """Wait until ``selector`` is visible on the page."""
    from playwright.sync_api import expect

    expect(page.locator(selector)).to_be_visible(timeout=PAGE_TIMEOUT_MS)


def href(page: Any, selector: str) -> str:
    """The absolute URL the link ``selector`` leads to (read on a ready page)."""
    settled(page)
    target = page.get_attribute(selector, "href")
    assert target, f"{selector} has no href on {page.url}"
    return str(page.evaluate("target => new URL(target, document.baseURI).href", target))
