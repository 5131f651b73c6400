# ruff: noqa: E501  (catalogue text and rubric patterns read best unwrapped)
"""EX-12-02 [prose]: why each of the two non-atomic orders is wrong."""

from __future__ import annotations

from grader.judge.exercises.ex_11_02 import NEAR, SAME
from grader.judge.exercises.spec import Concept, ProseExercise, Section

CRASH = r"崩溃|kill|挂掉|挂了|宕机|死掉|中断|断电|被杀|crash|die[sd]?\b|killed|power"
RECEIPT = r"receipt|回执|收据"
LOST = r"丢|遗漏|漏掉|漏发|永远不会|再也不会?|没有发|没发|没有写|没写出|没送出|发不出|收不到|\blost\b|\blose|never (sent|delivered|goes out|notif|arrive|happen)|missing|dropped|gone|not sent|nobody (ever )?gets|no one (ever )?gets|never (gets|receives)"
AGAIN = r"next delivery|no (receipt|record)|重投|重新投递|再次投递|再次交付|再交付|重新交付|再投递|redeliver|comes back|第二次|重新执行|再次执行"
TWICE = r"重复|两次|再次发送|再发一次|又发|又写|又通知|多次|再通知一次|再写一次|duplicate|twice|double|second (notification|email|time)"

EXERCISE = ProseExercise(
    id="EX-12-02",
    student_file="answer.md",
    sections=(
        Section("conclusion", r"结论|总结|小结|conclusion|summary|修正|修复|the fix|解决|how to fix"),
        Section("receipt_first", r"^\(?(1|一)[.)、:： ．]|先(插入|提交|写) ?receipt|receipt (first|before)"),
        Section("effect_first", r"^\(?(2|二)[.)、:： ．]|先写 ?(副作用|effect|通知)|(side )?effects? first|effect before"),
    ),
    concepts=(
        Concept(
            "receipt_first_loses_notification",
            (
                (r"(先|首先)" + SAME + r"(" + RECEIPT + r")|(" + RECEIPT + r")" + SAME + r"(先|首先|已经?提交|提交了)", LOST),
                (r"receipt" + SAME + r"(first|before)|first" + SAME + r"receipt|(commit|insert)[a-z]{0,3} the receipt", LOST),
                (CRASH, LOST),
                (r"通知|notification|email|消息", LOST),
            ),
            sections=("receipt_first", "conclusion"),
        ),
        Concept(
            "redelivery_sees_receipt_and_skips",
            (
                (
                    r"重投|重新投递|再次投递|再次执行|再交付|再次交付|重新交付|再投递|重试|第二次|再次到达|重新执行|再执行|再来|redeliver|retry|second|again|re-?run",
                    r"已存在|已经存在|已经有|已有|视为重复|当作重复|当成重复|认为" + NEAR + r"重复|判定" + NEAR + r"重复|跳过|忽略|直接返回|不再处理|什么都不做"
                    r"|duplicate|no-?op|skip|ignor|already (exists|there|present|committed|recorded|in|handled|processed|done|seen)|treat[a-z]{0,3} it as"
                    r"|does nothing|do nothing|nothing happens",
                ),
            ),
            sections=("receipt_first", "conclusion"),
        ),
        Concept(
            "effect_first_duplicates_notification",
            (
                (
                    r"(先|首先)" + SAME + r"(副作用|通知|effect|业务|发送)|(副作用|通知|effect)" + NEAR + r"(先|已经?(提交|发出|发送|写入))"
                    r"|(receipt|回执)" + NEAR + r"(不存在|没有|还没|没写|没插|未写|未插)|没有 ?(receipt|回执)",
                    TWICE,
                ),
                (
                    r"(effect|notification|notify|side effect)" + SAME + r"(first|before)|first" + SAME + r"(effect|notif)|no receipt"
                    r"|receipt (is|was) (not|never)|without (a |the )?receipt|receipt" + SAME + r"(missing|absent|does not exist|doesn't exist)",
                    TWICE,
                ),
                (CRASH, TWICE),
                (AGAIN, TWICE),
            ),
            sections=("effect_first", "conclusion"),
        ),
        Concept(
            "crash_between_the_two_commits",
            (
                (r"之间|中间|间隙|窗口|空隙|缝隙|两步|两次提交|两个事务|between|window|gap|in the middle", CRASH),
                (CRASH, r"(提交|commit|插入|写)" + NEAR + r"(之后|以后|后|之前|以前|前)|(之后|以后|之前|以前)" + NEAR + r"(提交|插入|写)"),
                (CRASH, r"(after|before) .{0,25}(commit|insert|writ|record|sen[dt])"),
                (r"between (the |two |both )?(separate )?(commits|transactions|writes)|(两次|两个|两步)(提交|写入|事务)?之间",),
            ),
        ),
        Concept(
            "fix_is_one_transaction",
            (
                (r"(同一|一个|单个|同个|一次)[个次]?" + NEAR + r"事务|原子|一起提交|一起回滚|同时提交|一并提交|同时成功",),
                (r"(same|one|single)[^,]{0,20}transaction|atomic|commit[a-z]{0,3} (them |both )?together|together in one",),
            ),
            sections=("conclusion",),
        ),
    ),
)
