# ruff: noqa: E501  (catalogue text and rubric patterns read best unwrapped)
"""EX-13-02 [prose]: two deliveries of one event race on two connections."""

from __future__ import annotations

from grader.exercises.ex_11_02 import S
from grader.exercises.spec import Concept, ProseExercise

EXERCISE = ProseExercise(
    id="EX-13-02",
    student_file="answer.md",
    concepts=(
        Concept(
            "unique_constraint_decides",
            ((r"唯一约束|唯一索引|唯一键|unique",), (r"unique\s+(constraint|index|key)",)),
        ),
        Concept(
            "select_then_insert_races",
            (
                (
                    r"select|查询|先查|检查",
                    r"竞态|竞争|race|toctou|check-then-act|都没有|都不存在|都查不到|都看不到|同时.{0,10}(没有|不存在)",
                ),
                (
                    r"select|check|read",
                    r"race|toctou|check-then-act|time.of.check|both"
                    + S
                    + r"(no|nothing|not|empty|absent)",
                ),
            ),
        ),
        Concept(
            "first_insert_wins",
            (
                (
                    r"(先|第一个|最先|率先)" + S + r"(提交|插入|commit|insert|写入)",
                    r"赢|胜|成功|生效|获胜",
                ),
                (r"first", r"commit|insert", r"\bwins?\b|succeed|takes? effect"),
            ),
        ),
        Concept(
            "loser_changes_nothing",
            (
                (
                    r"另一个|第二个|后者|失败的一方|输的一方|后到|落败",
                    r"false|回滚|rollback|不写|没有"
                    + S
                    + r"(任务|副作用|business)|no-?op|空操作|什么都不",
                ),
                (
                    r"loser|second|other|later",
                    r"\bfalse\b|roll(s|ed)?\s*back|no\s+(business\s+)?task|no-?op|nothing",
                ),
            ),
        ),
        Concept(
            "postgresql_loser",
            (
                (r"postgres|\bpg\b", r"等待|阻塞|wait|block|锁|lock"),
                (
                    r"postgres|\bpg\b",
                    r"integrityerror|aborted?|中止|终止|unique.violation|23505|on conflict|do nothing",
                ),
            ),
        ),
        Concept(
            "sqlite_loser",
            (
                (
                    r"sqlite",
                    r"database is locked|busy|锁|lock|串行|一个写|single writer|one writer|等待|wait",
                ),
            ),
        ),
    ),
)
