"""The student's side of ``grader inbox``: hand a packed zip in, and ask what the inbox holds.

Standard library only (``urllib``), so the student copy needs nothing more. The inbox's
address and the student's token come from ``--to``/``--token`` or from ``GRADER_INBOX`` and
``GRADER_TOKEN``; a refusal comes back as a catalogue id and is shown in the student's
language, saying what to do.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from grader.errors import UsageError

INBOX_ENV = "GRADER_INBOX"
TOKEN_ENV = "GRADER_TOKEN"
STUDENT_HEADER = "X-Grader-Student"
TIMEOUT_SECONDS = 60.0


@dataclass(frozen=True)
class HandinReceipt:
    """What the inbox recorded: the server's time, the zip's sha256 and size, its version."""

    student: str
    version: int
    received_at: str
    sha256: str
    size: int
    exercises: tuple[str, ...]


@dataclass(frozen=True)
class InboxAddress:
    url: str
    token: str


def inbox_address(url: str | None, token: str | None) -> InboxAddress:
    """``url``/``token``, else the environment; a usage error says which one is missing."""
    url = url or os.environ.get(INBOX_ENV, "")
    token = token or os.environ.get(TOKEN_ENV, "")
    if not url:
        raise UsageError("error.inbox_no_url")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError("error.inbox_bad_url", given=url[:200])
    if not token:
        raise UsageError("error.inbox_no_token")
    return InboxAddress(url.rstrip("/") + "/", token)


def hand_in(address: InboxAddress, student: str, zip_bytes: bytes) -> HandinReceipt:
    """POST the zip; the receipt, checked against the bytes sent."""
    answer = _call(address, student, "handin", zip_bytes)
    receipt = _receipt(answer)
    if receipt.sha256 != hashlib.sha256(zip_bytes).hexdigest():
        raise UsageError("error.inbox_sha_mismatch", url=address.url)
    return receipt


def inbox_status(address: InboxAddress, student: str) -> tuple[HandinReceipt, ...]:
    answer = _call(address, student, "status", None)
    return tuple(_receipt(item) for item in answer.get("handins", []))


def _call(address: InboxAddress, student: str, path: str, body: bytes | None) -> dict[str, Any]:
    headers = {STUDENT_HEADER: student, "Authorization": f"Bearer {address.token}"}
    if body is not None:
        headers["Content-Type"] = "application/zip"
    request = urllib.request.Request(
        address.url + path, data=body, headers=headers, method="POST" if body else "GET"
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            return _json(response.read())
    except urllib.error.HTTPError as error:
        refusal = _json(error.read())
        message_id = str(refusal.get("error") or "error.inbox_refused")
        params = refusal.get("params")
        shown = {str(k): v for k, v in params.items()} if isinstance(params, Mapping) else {}
        raise UsageError(_known(message_id), **_plain(shown)) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise UsageError("error.inbox_unreachable", url=address.url, detail=str(reason)) from None


def _known(message_id: str) -> str:
    """Only the inbox's own ids are shown as such (a proxy's page is not the inbox)."""
    return message_id if message_id.startswith("inbox.") else "error.inbox_refused"


def _plain(params: Mapping[str, Any]) -> dict[str, str | int | float | None]:
    return {k: v if isinstance(v, str | int | float) else str(v) for k, v in params.items()}


def _json(data: bytes) -> dict[str, Any]:
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _receipt(item: Mapping[str, Any]) -> HandinReceipt:
    try:
        return HandinReceipt(
            student=str(item["student"]),
            version=int(item["version"]),
            received_at=str(item["received_at"]),
            sha256=str(item["sha256"]),
            size=int(item["size"]),
            exercises=tuple(str(e) for e in item.get("exercises", ())),
        )
    except (KeyError, TypeError, ValueError):
        raise UsageError("error.inbox_refused") from None
