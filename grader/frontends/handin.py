"""Pack the course's answers and hand them to the inbox: what ``grader submit --to`` and the
notebook's ``submit()`` both do. The zip is packed in a private temporary folder and
removed after the upload; the inbox keeps the copy that counts."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from grader.app.handin import Packed, pack
from grader.app.inbox_client import HandinReceipt, InboxAddress, hand_in


@dataclass(frozen=True)
class HandedIn:
    packed: Packed
    receipt: HandinReceipt


def pack_and_hand_in(root: Path, student: str, address: InboxAddress) -> HandedIn:
    scratch = Path(tempfile.mkdtemp(prefix="grader-submit-"))
    try:
        packed = pack(root, student, scratch / f"{student}.zip")
        receipt = hand_in(address, student, packed.path.read_bytes())
        return HandedIn(packed, receipt)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
