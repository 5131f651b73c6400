# ruff: noqa: E501  (catalogue text and rubric patterns read best unwrapped)
"""EX-11-02 [prose]: three timings of the same event arriving again.

Rubric terms: bounded regular expressions only (``grader.judge.rubric.patterns.lint``); every term
of an alternative must stand, not negated, in one sentence of the listed sections.
"""

from __future__ import annotations

from grader.judge.exercises.spec import Concept, ProseExercise, Section

#: Up to a few characters of the same clause / sentence between two words.
NEAR = r"[^。，,；;]{0,8}"
SAME = r".{0,20}"

ACK_NOT_YET = (
    r"(未|没|尚未|还没|还未|没来得及|来不及|不会)" + NEAR + r"(ack|确认)|(ack|确认)" + NEAR + r"(之前|以前|前)"
    r"|late[ _-]?ack|acks_late|延迟确认|晚确认|unack|un-ack|not (yet )?(been )?ack|never ack|without (an |any )?ack"
    r"|before (the |it |any |an )?(ack|acknowledg)|no ack"
)
REDELIVER = (
    r"重投|重新投递|重新交付|再次投递|重新入队|重新放回|再投递|再次交付|重新派发|re-?deliver|re-?queue"
    r"|deliver(s|ed)? (it |the message |the task )?again|broker" + NEAR + r"(重发|再发)"
    r"|(hands?|gives?|sends?|passes?|puts?|delivers?) .{0,25}\bagain"
)
RETRY = r"retr(y|ies|ied)|重试"

EXERCISE = ProseExercise(
    id="EX-11-02",
    student_file="answer.md",
    sections=(
        Section("conclusion", r"结论|总结|小结|conclusion|summary|takeaway|幂等.{0,10}(哪|放)|where.{0,20}idempot"),
        Section("a", r"^\(?a[).、:： ]|开始(之)?前|before (the handler|it) start|handler starts"),
        Section("b", r"^\(?b[).、:： ]|ack ?(之)?前|已(经)?提交|before (the )?ack|after the (side )?effect"),
        Section("c", r"^\(?c[).、:： ]|可重试|retryable|raises"),
    ),
    concepts=(
        Concept(
            "late_ack_redelivery",
            ((ACK_NOT_YET, REDELIVER),),
            sections=("a", "b"),
        ),
        Concept(
            "redelivery_is_not_retry",
            (
                (r"(不|没有|并不|不会|未)[^。，,]{0,3}(消耗|增加|计入|占用|算|改变|影响|加|动|涨|使用|用掉|增长|计)" + SAME + r"(retr|重试|次数|计数)",),
                (r"(不|没有|并不|不会)[^。，,]{0,3}(让|使|令)" + SAME + r"(retr|重试|次数|计数)" + NEAR + r"(加|增加|变|涨|增长)",),
                (r"(retr|重试)" + SAME + r"(不|没有|并不|不会)[^。，,]{0,3}(变|增加|消耗|计入|改变|增长|加|涨|动)",),
                (r"(retries|retry ?计数|重试次数|重试计数|retry count)" + NEAR + r"(仍然|还是|依然|保持|仍|还|stays?|remains?|is still|still)" + NEAR + r"0",),
                (r"(不是|并非|不算|不属于|不同于|有别于|区别于)" + NEAR + r"(celery ?的?|task ?的?|任务的?)?" + r"(重试|retry)",),
                (r"(not|n't|never|without).{0,3}(consum|increas|count|touch|spend|bump|us|chang|add|incre)[a-z]{0,6}" + SAME + r"retr",),
                (r"retr[a-z]{0,6}" + SAME + r"(stays?|remains?|is still|unchanged|untouched|does not change|doesn't change|is not (incremented|increased|touched|changed))",),
                (r"(is not|isn't|not)( a| an)?( celery)?( task)? retr",),
                (r"(different|distinct|separate) from" + SAME + r"retr|not the same as" + SAME + r"retr",),
            ),
            sections=("a", "b", "c", "conclusion"),
        ),
        Concept(
            "receipt_makes_duplicate_a_no_op",
            (
                (
                    r"receipt|回执|收据|凭据|凭证|唯一约束|唯一键|唯一索引|unique|去重表|处理记录|event.id|事件 ?id|dedupe? record|record",
                    r"duplicate|no-?op|重复|空操作|去重|幂等|跳过|忽略|直接返回|不再(执行|发|通知|处理)|识别|认出|skip|ignor|idempot|dedup"
                    r"|already (processed|handled|done|seen|there|exists|recorded)|已(经)?(处理|存在|执行|记录)|什么都不做"
                    r"|does nothing|do nothing|nothing happens|returns? (early|immediately|at once)",
                ),
            ),
            sections=("b", "conclusion"),
        ),
        Concept(
            "bounded_task_retry",
            (
                (
                    RETRY,
                    r"countdown|max_retries|上限|次数|退避|backoff|back-off|最多|有限|封顶|耗尽|死信|dead.?letter|延迟|间隔|指数"
                    r"|bound|limit|at most|capped|exhaust|delay|exponential|maximum|\d{1,2} (times|次)",
                ),
            ),
            sections=("c",),
        ),
        Concept(
            "idempotency_on_every_path",
            (
                (r"(不能|不可|不应|不是|无法|不只|不仅|不应该|不要|别)" + NEAR + r"(只|仅|单单|光)" + SAME + r"(retry|重试)",),
                (
                    r"(所有|每一?|三|任何|全部|不管哪|无论哪)[种条个次]?" + SAME + r"(路径|时序|情况|时机|途径|执行|入口|分支|投递|到达|场景)",
                    r"幂等|去重|receipt|回执|唯一约束|查重",
                ),
                (
                    r"幂等|去重|receipt|回执",
                    r"(放在|做在|放到|落在|加在|位于)" + NEAR + r"(handler|入口|开头|业务|副作用|效果|数据库|事务|每次)",
                ),
                (r"(not|n't|never).{0,4}(only|just|solely|merely)" + SAME + r"retr",),
                (
                    r"(every|all|each|any|whichever)" + SAME + r"(paths?|timings?|cases?|routes?|ways?|deliver|execution|runs?|attempts?|times?)",
                    r"idempot|dedup|receipt|unique",
                ),
                (
                    r"idempot|dedup|receipt",
                    r"(at|in|into|on) the (start|entry|beginning|top|handler|effect|side effect|database|transaction)|entry point|belongs? (in|at|to|on) the (handler|effect)",
                ),
            ),
            sections=("conclusion",),
        ),
    ),
)
