# ruff: noqa: E501  (catalogue text and rubric patterns read best unwrapped)
"""EX-11-02 [prose]: three timings of the same event arriving again."""

from __future__ import annotations

from grader.exercises.spec import Concept, ProseExercise

#: "Within the same sentence": at most 60 characters and no sentence end in between.
S = r"[^。！？!?\n]{0,60}"

EXERCISE = ProseExercise(
    id="EX-11-02",
    student_file="answer.md",
    concepts=(
        Concept(
            "late_ack_redelivery",
            (
                (
                    r"(未|没有|尚未|还没|还未|之前|前)" + S + r"(ack|确认)",
                    r"重投|重新投递|重新交付|再次投递|redeliver",
                ),
                (r"(before|no|not yet|never|without)\W+(\w+\W+){0,3}ack", r"redeliver"),
            ),
        ),
        Concept(
            "redelivery_is_not_retry",
            (
                (r"(不|没有|并不|不会|未)(消耗|增加|计入|占用|算|改变|影响)" + S + r"(retr|重试)",),
                (r"(retr|重试)" + S + r"(不|没有|并不|不会)(变|增加|消耗|计入|改变)",),
                (
                    r"(not|n't|never|without)\s+(\w+\s+){0,2}(consum|increas|count|us|touch|spend|bump)\w*"
                    + S
                    + r"retr",
                ),
                (r"retr\w*\s+(count\s+)?(stays?|remains?|is unchanged|unchanged)",),
            ),
        ),
        Concept(
            "receipt_makes_duplicate_a_no_op",
            (
                (
                    r"receipt|回执|收据|凭据|凭证|唯一约束",
                    r"duplicate|no-?op|重复|空操作|去重|幂等|跳过",
                ),
                (r"receipt|unique", r"duplicate|no-?op|idempot|dedup|skip"),
            ),
        ),
        Concept(
            "bounded_task_retry",
            (
                (r"retry|重试", r"countdown|max_retries|上限|次数|退避"),
                (r"retry", r"countdown|max_retries|bound|limit|backoff"),
            ),
        ),
        Concept(
            "idempotency_on_every_path",
            (
                (
                    r"(不能|不可|不应|不是|无法|不只|不仅)"
                    + S
                    + r"(只|仅|单单)?"
                    + S
                    + r"(retry|重试)"
                    + S
                    + r"(分支|路径|逻辑)",
                ),
                (
                    r"(所有|每一?|三)(种|条|个)?"
                    + S
                    + r"(路径|时序|情况|时机|途径)"
                    + S
                    + r"(幂等|去重|receipt|回执)",
                ),
                (r"(not|n't)\s+(only|just)" + S + r"retr",),
                (
                    r"(every|all|each|any)\s+(of the\s+)?(three\s+)?(paths?|timings?|cases?|routes?|ways?)"
                    + S
                    + r"(idempot|dedup|receipt)",
                ),
            ),
        ),
    ),
)
