"""The article's catch-all branch, ``except Exception: retry(countdown=60)``, run eagerly.

The article's inference task sorts errors into ``ConnectionError`` → retry in 120 s,
``ValueError`` → ``Reject``, and everything else → retry in 60 s. A bug (a ``KeyError``
from a missing field) lands in "everything else": it is retried ``max_retries`` times —
three minutes of waiting that cannot fix code — and then fails. ticketflow's policy sends
the same error to a ``permanent_failure`` dead letter on the first run.

The app is eager (the embedded default): countdowns are recorded, not waited for, and
there is no broker, so nothing here is ACKed or rejected. What a real worker does with the
message of a late-ACK task that failed (it ACKs it) is observed in lesson 14's first
section, not claimed here.
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
        "文章的任务，输入里没有 'text'（KeyError，也就是一个 bug）：",
        f"  执行 {len(runs)} 次（看到的 retries：{runs}）；安排的 retry countdown：{scheduled}"
        f" = 为一个 bug 白等 {sum(scheduled)} s",
        f"  最终状态：{outcome.state} {type(outcome.result).__name__}"
        "（eager 模式：没有 broker，也就没有 ACK 可看）",
        "ticketflow 的 BoundedRetryPolicy 对第一次出现的同一个 KeyError：",
        f"  retry={decision.retry} dead_letter={decision.dead_letter}"
        " -> 只执行一次，写一封 permanent_failure 死信，保留原始 body",
    ]
