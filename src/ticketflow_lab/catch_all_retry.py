"""The article's catch-all branch, ``except Exception: retry(countdown=60)``, run eagerly.

The article's inference task sorts errors into ``ConnectionError`` → retry in 120 s,
``ValueError`` → ``Reject``, and everything else → retry in 60 s. A bug (a ``KeyError``
from a missing field) lands in "everything else": it is retried ``max_retries`` times —
three minutes of waiting that cannot fix code — and then fails, and a late-ACK task that
fails is acknowledged: no dead letter, nothing left to replay. ticketflow's policy sends
the same error to a ``permanent_failure`` dead letter on the first run.

The app is eager (the embedded default): countdowns are recorded, not waited for.
"""

from __future__ import annotations

from typing import Any

ARTICLE_COUNTDOWN_SECONDS = 60


def run_catch_all() -> list[str]:
    from celery.exceptions import Reject

    from ticketflow.workers.app import create_app
    from ticketflow.workers.policy import BoundedRetryPolicy

    app = create_app(None, eager=True, main="lesson14-catch-all")
    runs: list[int] = []
    countdowns: list[int] = []

    @app.task(bind=True, max_retries=3, acks_late=True, shared=False)  # type: ignore[untyped-decorator]
    def process_ai_inference(self: Any, input_data: dict[str, Any]) -> dict[str, Any]:
        runs.append(int(self.request.retries))
        try:
            return {"prediction": len(input_data["text"])}  # the bug: "text" may be missing
        except ConnectionError as exc:
            raise self.retry(exc=exc, countdown=120) from exc
        except ValueError as exc:
            raise Reject(str(exc), requeue=False) from exc
        except Exception as exc:  # the article's catch-all
            countdowns.append(ARTICLE_COUNTDOWN_SECONDS)
            raise self.retry(exc=exc, countdown=ARTICLE_COUNTDOWN_SECONDS) from exc

    outcome = process_ai_inference.apply(args=[{"prompt": "hello"}])
    decision = BoundedRetryPolicy().decision(KeyError("text"), retries_so_far=0)
    scheduled = countdowns[: len(runs) - 1]  # the last call had no retries left
    return [
        "article's task, input without 'text' (a KeyError, i.e. a bug):",
        f"  runs: {len(runs)} (retries seen: {runs}); retries scheduled: {scheduled} "
        f"= {sum(scheduled)} s of waiting for a bug",
        f"  final state: {outcome.state} {type(outcome.result).__name__}; with acks_late the "
        "failed message is ACKed: no dead letter, nothing to replay",
        "ticketflow's BoundedRetryPolicy for the same KeyError on the first run:",
        f"  retry={decision.retry} dead_letter={decision.dead_letter} "
        "-> one run, a permanent_failure dead letter with the original body",
    ]
