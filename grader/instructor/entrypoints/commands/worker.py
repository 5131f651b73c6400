"""``grader worker --broker URL --db URL [--concurrency N]``: a Celery worker that grades
the students ``grader grade --broker URL`` queues, into the same gradebook.

exit codes: 0 stopped; 2 an unreachable broker or gradebook, no isolating sandbox, or a
task of a ``grade`` run on another gradebook (refused before anything was written; the
message names both gradebooks, and ``grade`` hears of it and stops its run)."""

from __future__ import annotations

import argparse
import contextlib
import os

from grader.errors import EXIT_PASSED, UsageError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("worker", help="a Celery worker for distributed grading")
    parser.add_argument("--broker", required=True, help="amqp://... or redis://...")
    parser.add_argument(
        "--db", help="gradebook URL (default: $GRADER_DB_URL or sqlite:///gradebook.db)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=None, help="pool processes (default: cores)"
    )
    parser.add_argument(
        "--allow-weak-isolation",
        action="store_true",
        help="run even without the isolating sandbox (rows marked as not official)",
    )
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.batch.celery_app import (
        QUEUE,
        create_batch_app,
        refusal,
        watch_gradebook,
    )
    from grader.instructor.batch.distributed import check_broker
    from grader.instructor.batch.pool import preload
    from grader.instructor.batch.run import OFFICIAL, default_jobs
    from grader.instructor.batch.sessions import isolation_available
    from grader.instructor.gradebook import Gradebook

    with Gradebook(args.db) as book:  # migrated and reachable before taking any task
        db_url = book.url.render_as_string(hide_password=False)
    mode = isolation_available()
    if mode != OFFICIAL and not args.allow_weak_isolation:
        raise UsageError("error.batch_weak_isolation", mode=mode)
    app = create_batch_app(args.broker, db_url)
    check_broker(app, args.broker)
    preload()  # the pool processes fork from this one, warm
    concurrency = args.concurrency or default_jobs()
    watch_gradebook(app, db_url)
    with contextlib.suppress(SystemExit):  # Celery's own exit: a refusal is said below
        app.worker_main(
            [
                "worker",
                f"--concurrency={concurrency}",
                "--pool=prefork",
                "--loglevel=WARNING",
                f"--queues={QUEUE}",
                f"--hostname=grader{os.getpid()}@%h",
                "--without-gossip",
                "--without-mingle",
            ]
        )
    refused = refusal()
    if refused is not None:
        raise refused
    return EXIT_PASSED
