"""EX-12-02 [prose]: why each of the two non-atomic orders is wrong."""

from __future__ import annotations

from grader.exercises.ex_11_02 import S
from grader.exercises.spec import Concept, ProseExercise

EXERCISE = ProseExercise(
    id="EX-12-02",
    student_file="answer.md",
    concepts=(
        Concept(
            "receipt_first_loses_notification",
            (
                (
                    r"(先|首先)"
                    + S
                    + r"(receipt|回执|收据)|(receipt|回执|收据)"
                    + S
                    + r"(先|首先)",
                    r"丢|遗漏|漏掉|永远不会|再也不|没有发",
                ),
                (r"receipt" + S + r"(first|before)", r"\blost\b|\blose|never|missing|dropped"),
            ),
        ),
        Concept(
            "redelivery_sees_receipt_and_skips",
            (
                (
                    r"重投|重新投递|再次|重试|redeliver",
                    r"已存在|已经存在|视为重复|当作重复|当成重复|跳过|duplicate|no-?op",
                ),
                (
                    r"redeliver|retry|second|again",
                    r"already (exists|there|present)|duplicate|skip|no-?op",
                ),
            ),
        ),
        Concept(
            "effect_first_duplicates_notification",
            (
                (
                    r"(先|首先)" + S + r"(副作用|通知|effect|业务|发送)",
                    r"重复|两次|再次发送|多次|duplicate",
                ),
                (
                    r"(effect|notification|notify)" + S + r"(first|before)",
                    r"duplicate|twice|again|double",
                ),
            ),
        ),
        Concept(
            "crash_between_the_two_commits",
            (
                (
                    r"(之间|中间|间隙|窗口|之后|后)"
                    + S
                    + r"(崩溃|kill|挂|失败|异常|宕|死|中断|断电)",
                ),
                (r"(崩溃|kill|挂掉|失败|异常|宕机|死掉|中断)" + S + r"(之间|中间|之后|之前)",),
                (
                    r"(crash|kill|die|dies|fail|exception|interrupt)\w*"
                    + S
                    + r"(between|after|before)",
                ),
                (r"(between|after)" + S + r"(crash|kill|die|dies|fail|exception|interrupt)",),
            ),
        ),
        Concept(
            "fix_is_one_transaction",
            (
                (r"(同一|一个|单个|同个)个?" + S + r"事务|原子",),
                (r"(same|one|single)\s+(\w+\s+)?transaction|atomic",),
            ),
        ),
    ),
)
