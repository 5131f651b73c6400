# ruff: noqa: E501  (catalogue text and rubric patterns read best unwrapped)
"""EX-13-02 [prose]: two deliveries of one event race on two connections."""

from __future__ import annotations

from grader.judge.exercises.ex_11_02 import NEAR, SAME
from grader.judge.exercises.spec import Concept, ProseExercise, Section

EXERCISE = ProseExercise(
    id="EX-13-02",
    student_file="answer.md",
    sections=(
        Section("who_wins", r"谁赢|谁胜|who wins|winner|由什么决定|^\(?(1|一)[.)、:： ．]"),
        Section("select_insert", r"select|先查|查询|check-then|check then|^\(?(2|二)[.)、:： ．]"),
        Section("databases", r"postgres|sqlite|分别看到|each database|^\(?(3|三)[.)、:： ．]"),
    ),
    concepts=(
        Concept(
            "unique_constraint_decides",
            (
                (r"唯一约束|唯一索引|唯一键|主键冲突|unique|uniqueness",),
                (r"event_id" + NEAR + r"唯一|唯一" + NEAR + r"event_id",),
            ),
            sections=("who_wins", "select_insert"),
        ),
        Concept(
            "select_then_insert_races",
            (
                (
                    r"select|查询|先查|检查|查一下|check|read|look",
                    r"竞态|竞争|race|toctou|check-then-act|都没有|都不存在|都查不到|都看不到|都没查到|都以为|都看到" + NEAR + r"(不存在|没有)|同时" + SAME + r"(没有|不存在|查不到|看不到)"
                    r"|both" + SAME + r"(no|nothing|not|empty|absent|miss|don't|see)|neither|time.of.check|并发|窗口|间隙|gap|window",
                ),
            ),
            sections=("select_insert",),
        ),
        Concept(
            "first_insert_wins",
            (
                (r"(先|第一个|最先|率先|最早|先到)" + SAME + r"(提交|插入|commit|insert|写入|拿到)", r"赢|胜|成功|生效|获胜|得到|返回 ?true"),
                (r"first|earlier|whichever", r"commit|insert", r"\bwins?\b|succeed|takes? effect|gets? the row|returns? true|keeps?"),
            ),
            sections=("who_wins",),
        ),
        Concept(
            "loser_changes_nothing",
            (
                (
                    r"另一个|第二个|后者|失败的一方|输的一方|后到|落败|后来的?|输家|另一方|失败者|loser|second|other|later|losing",
                    r"false|回滚|rollback|不写|没有" + NEAR + r"(任务|副作用|business)|no-?op|空操作|什么都不|不插入|不会写|得不到行|不返回行|不写入"
                    r"|roll(s|ed)? ?back|no (business )?task|nothing|no rows?|does not write|doesn't write|writes nothing",
                ),
            ),
            sections=("who_wins", "databases"),
        ),
        Concept(
            "postgresql_loser",
            (
                (
                    r"postgres|\bpg\b",
                    r"等待|阻塞|挂起|卡住|锁|wait|block|lock|integrityerror|aborted?|中止|终止|unique.violation|23505|on conflict|do nothing",
                ),
            ),
            sections=("databases",),
        ),
        Concept(
            "sqlite_loser",
            (
                (
                    r"sqlite",
                    r"database is locked|busy|锁|lock|串行|一个写|只允许一个|single writer|one writer|等待|wait|serializ|one at a time",
                ),
            ),
            sections=("databases",),
        ),
    ),
)
