"""``grader review [--db URL] [--host 127.0.0.1] [--port 8765] [--no-browser] [--reviewer NAME]``:
the instructors' web page over the gradebook (see grader/instructor/review)."""

from __future__ import annotations

import argparse

from grader.errors import EXIT_PASSED

EPILOG = """The page is served on this machine only (127.0.0.1) unless --host says otherwise.
Every request needs the token printed in the address at start-up; decisions (final scores
and comments) are stored in the gradebook with the reviewer's name and the time, kept
across re-grades, and used by grader export and grader feedback."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "review",
        help="review prose answers, override scores and see class insight in a local web page",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--db", help="gradebook URL (default: $GRADER_DB_URL or sqlite:///gradebook.db)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)"
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="print the address, do not open a browser"
    )
    parser.add_argument("--reviewer", help="name stored with each decision (default: OS user)")
    parser.add_argument("--lang", choices=("zh", "en"), help="the page's default language")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.gradebook.service import default_reviewer
    from grader.instructor.review.server import ServeOptions, serve

    if not 0 <= args.port <= 65535:
        from grader.errors import UsageError

        raise UsageError("error.usage", detail=f"--port {args.port}: use 0 to 65535")
    serve(
        ServeOptions(
            db_url=args.db,
            host=args.host,
            port=args.port,
            open_browser=not args.no_browser,
            reviewer=(args.reviewer or default_reviewer()).strip()[:120] or default_reviewer(),
            lang=lang,
        )
    )
    return EXIT_PASSED
