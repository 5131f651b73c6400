"""``grader submit [--student ID] [--out FILE]``, ``grader submit --verify FILE``, and
handing in to the course's inbox: ``grader submit --to URL --token T`` (or with
``GRADER_INBOX`` and ``GRADER_TOKEN`` set) and ``grader submit --status``."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path

from grader.app.inbox_client import INBOX_ENV, HandinReceipt, inbox_address, inbox_status
from grader.errors import EXIT_PASSED
from grader.render.catalog import render_message


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "submit", help="pack your exercise answers into ID.zip (with a manifest) to hand in"
    )
    parser.add_argument("--student", help="your student id (default: your user name)")
    parser.add_argument("--out", type=Path, help="zip to write (default: ./ID.zip)")
    parser.add_argument(
        "--verify", type=Path, metavar="FILE", help="check a zip against its manifest"
    )
    parser.add_argument(
        "--force", action="store_true", help="overwrite the zip when it already exists"
    )
    parser.add_argument(
        "--to", metavar="URL", help="hand in to the course's inbox (default: $GRADER_INBOX)"
    )
    parser.add_argument("--token", help="your hand-in token (default: $GRADER_TOKEN)")
    parser.add_argument(
        "--status", action="store_true", help="ask the inbox what it holds of your hand-ins"
    )
    parser.add_argument("--root", type=Path, help="course root (default: search upward)")
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.app.course import find_course_root
    from grader.app.handin import pack, verify

    if args.verify is not None:
        verified = verify(args.verify)
        params = {"path": str(args.verify), "count": verified.files, "student": verified.student}
        print(render_message("submit.verified", params, lang))
        return EXIT_PASSED
    student = args.student or getpass.getuser()
    if args.status or ((args.to or os.environ.get(INBOX_ENV)) and args.out is None):
        return _to_inbox(args, student, lang)
    packed = pack(find_course_root(args.root), student, args.out, overwrite=args.force)
    for exercise in packed.left_out:
        print(
            render_message("submit.left_out_starter", {"exercise": exercise}, lang), file=sys.stderr
        )
    params = {"count": len(packed.exercises), "path": str(packed.path)}
    print(render_message("submit.packed", params, lang))
    return EXIT_PASSED


def _to_inbox(args: argparse.Namespace, student: str, lang: str) -> int:
    from grader.app.course import find_course_root
    from grader.frontends.handin import pack_and_hand_in

    address = inbox_address(args.to, args.token)
    if args.status:
        held = inbox_status(address, student)
        if not held:
            print(render_message("submit.inbox_none", {"url": address.url}, lang))
        for receipt in held:
            print(receipt_line(receipt, lang))
        return EXIT_PASSED
    done = pack_and_hand_in(find_course_root(args.root), student, address)
    for exercise in done.packed.left_out:
        print(
            render_message("submit.left_out_starter", {"exercise": exercise}, lang), file=sys.stderr
        )
    print(render_message("submit.handed_in", {"url": address.url}, lang))
    print(receipt_line(done.receipt, lang))
    return EXIT_PASSED


def receipt_line(receipt: HandinReceipt, lang: str) -> str:
    params = {
        "version": receipt.version,
        "time": receipt.received_at,
        "sha": receipt.sha256,
        "size": receipt.size,
        "exercises": ", ".join(receipt.exercises),
    }
    return render_message("submit.receipt", params, lang)
