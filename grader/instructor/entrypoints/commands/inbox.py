"""``grader inbox --submissions DIR [--db URL] [--host 127.0.0.1] [--port 8766]``: the
endpoint students hand in to (see grader/instructor/inbox)."""

from __future__ import annotations

import argparse
from pathlib import Path

from grader.errors import EXIT_PASSED, UsageError
from grader.frontends.commands.common import add_db

EPILOG = """Students hand in with `grader submit --to URL --token TOKEN` (or with GRADER_INBOX
and GRADER_TOKEN set); `grader roster tokens` makes the tokens. Each hand-in is checked as
`grader grade` checks a zip before it is stored; it is kept as the next version under
DIR/.versions/, copied to DIR/ID.zip for `grade`, and its received time is the server's
clock (`grade` takes lateness from it, never from the file).

exit codes:
  0  stopped with Ctrl-C
  2  DIR does not exist, no student has a token yet, the address cannot be bound, or the
     gradebook does not exist or is not the grader's"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "inbox",
        help="serve the hand-in endpoint (students run grader submit --to URL)",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--submissions", type=Path, required=True, metavar="DIR", help="the class folder"
    )
    add_db(parser)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=8766, help="port (default 8766; 0 picks a free one)"
    )
    parser.add_argument(
        "--max-mib", type=int, default=5, help="largest hand-in accepted, in MiB (default 5)"
    )
    parser.add_argument(
        "--base-path",
        default="/",
        help="answer under this path, e.g. /services/inbox/ behind a JupyterHub proxy",
    )
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.inbox.server import InboxOptions, serve

    if not 0 <= args.port <= 65535:
        raise UsageError("error.usage", detail=f"--port {args.port}: use 0 to 65535")
    if not 1 <= args.max_mib <= 40:
        raise UsageError("error.usage", detail=f"--max-mib {args.max_mib}: use 1 to 40")
    options = InboxOptions(
        args.db, args.submissions, args.host, args.port, lang, args.max_mib << 20, args.base_path
    )
    serve(options)
    return EXIT_PASSED
