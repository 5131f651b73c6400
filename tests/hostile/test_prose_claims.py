"""Attacks on the prose rubric's reading of claims (issue 31), each written before its fix.

- A claim denied after it ("不会发生", "a myth" …), in its sentence or the next, or
  attributed to others ("有人说", "people say" …) earns nothing and is shown as *denied*
  or *attributed*, never ``found``; the same words said in the student's own voice earn the
  point (the control).
- Correct answers in plain words, spread over two sentences, or written as arrow notes
  score what a human gives; punctuation never decides a point.
- The model answers the course prints (solutions/ and the lessons) score full marks.
- "只在调用 retry 的分支里去重是不够的" is the concept, not its contradiction.
- Both database sides of EX-13-02 can be contradicted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric import RubricResult, answer_text, judge_prose, score_answer
from grader.judge.rubric.text import normalize
from grader.judge.starters import starter_template
from grader.judge.statements import statement_text
from tests.hostile.corpus import REPO

FILES = Path(__file__).parent / "files" / "prose_claims"
PROSE = ("EX-11-02", "EX-12-02", "EX-13-02")

#: One claim per concept, zh and en, as a student states it in their own voice.
CLAIMS: dict[str, dict[str, tuple[str, str]]] = {
    "EX-11-02": {
        "late_ack_redelivery": (
            "late ACK 还没发出时 worker 被 kill，broker 会把消息重投",
            "the worker is killed before the late ack, so the broker redelivers the message",
        ),
        "redelivery_is_not_retry": (
            "broker 的重投不消耗 retry 计数",
            "a redelivery does not consume the retry count",
        ),
        "receipt_makes_duplicate_a_no_op": (
            "第二次执行时 receipt 让它变成 duplicate/no-op",
            "on the second run the receipt turns it into a no-op",
        ),
        "bounded_task_retry": (
            "task 调用 retry(countdown=…)，次数受 max_retries 约束",
            "the task calls retry with a countdown, bounded by max_retries",
        ),
        "idempotency_on_every_path": (
            "幂等要放在每一条路径的 handler 入口",
            "idempotency is needed on every path",
        ),
    },
    "EX-12-02": {
        "receipt_first_loses_notification": (
            "先提交 receipt 再写通知，中间崩溃会丢通知",
            "if the receipt is committed first and the worker crashes, the notification is lost",
        ),
        "redelivery_sees_receipt_and_skips": (
            "重投时 handler 看到 receipt 已存在就跳过",
            "on redelivery the handler sees the receipt already exists and skips the event",
        ),
        "effect_first_duplicates_notification": (
            "先写副作用、崩溃后重投会重复通知",
            "if the effect is written first, the redelivery sends the notification twice",
        ),
        "crash_between_the_two_commits": (
            "问题出在两次提交之间的崩溃窗口",
            "the problem is a crash between the two commits",
        ),
        "fix_is_one_transaction": (
            "receipt 和副作用要放进同一个事务",
            "the receipt and the effect belong in one transaction",
        ),
    },
    "EX-13-02": {
        "unique_constraint_decides": (
            "event_id 上的唯一约束决定谁赢",
            "the unique constraint on event_id decides who wins",
        ),
        "select_then_insert_races": (
            "先 SELECT 再 INSERT 有竞态，两个事务都看到不存在",
            "select then insert is a race: both transactions see no receipt",
        ),
        "first_insert_wins": (
            "先插入并提交 receipt 的事务获胜",
            "the first transaction to insert and commit the receipt wins",
        ),
        "loser_changes_nothing": (
            "输的一方回滚并返回 False",
            "the loser rolls back and returns False",
        ),
        "postgresql_loser": (
            "PostgreSQL 上输的一方会阻塞等待",
            "on PostgreSQL the loser waits on the winner's lock",
        ),
        "sqlite_loser": (
            "SQLite 只允许一个写者，输的一方等待锁",
            "SQLite allows one writer, so the loser waits for the lock",
        ),
    },
}

DENIED_ZH = (
    "{c}，这种情况其实不会发生。",
    "{c}。这种情况其实不会发生。",
    "{c}，这个说法不成立。",
    "{c}。这是误解。",
    "{c}，这是多余的。",
    "{c}。其实没有必要。",
    "{c}——这种问题并不存在。",
)
DENIED_EN = (
    "{c}, but that is false.",
    "{c}. That is a myth.",
    "{c}. That cannot happen.",
    "{c}; that is false.",
)
ATTRIBUTED_ZH = ("有人说{c}。", "有人担心{c}。", "有人担心{c}，其实不会。")
ATTRIBUTED_EN = ("People say {c}.", "Some think {c}.", "Some think {c}, but no.")

CASES = [
    (exercise, concept, lang, form)
    for exercise, claims in CLAIMS.items()
    for concept in claims
    for lang, forms in (
        ("zh", DENIED_ZH + ATTRIBUTED_ZH),
        ("en", DENIED_EN + ATTRIBUTED_EN),
    )
    for form in forms
]


def spec(exercise: str) -> ProseExercise:
    found = get_exercise(exercise)
    assert isinstance(found, ProseExercise)
    return found


def score(exercise: str, text: str) -> RubricResult:
    """Scored as ``grader check`` scores it."""
    template = starter_template(exercise)
    return score_answer(
        spec(exercise), answer_text(text, template), statement=statement_text(exercise)
    )


def status(result: RubricResult, concept: str) -> str:
    return next(c.status for c in result.concepts if c.name == concept)


def claim(exercise: str, concept: str, lang: str) -> str:
    zh, en = CLAIMS[exercise][concept]
    return zh if lang == "zh" else en


@pytest.mark.parametrize(("exercise", "concept", "lang"), [c[:3] for c in CASES[::10]])
def test_control_a_claim_in_the_students_own_voice_is_found(
    exercise: str, concept: str, lang: str
) -> None:
    text = claim(exercise, concept, lang) + ("。" if lang == "zh" else ".")
    assert status(score(exercise, text), concept) == "found", text


@pytest.mark.parametrize(("exercise", "concept", "lang", "form"), CASES)
def test_a_denied_or_attributed_claim_earns_nothing(
    exercise: str, concept: str, lang: str, form: str
) -> None:
    text = form.format(c=claim(exercise, concept, lang))
    result = score(exercise, text)
    expected = {"attributed"} if form in ATTRIBUTED_ZH + ATTRIBUTED_EN else {"denied"}
    if "其实不会" in form or "but no" in form:  # attributed, then denied
        expected = {"attributed", "denied"}
    assert status(result, concept) in expected, text
    assert result.score == 0, [(c.name, c.status) for c in result.concepts]


@pytest.mark.parametrize("exercise", PROSE)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_answer_wrong_on_every_point_scores_nothing(exercise: str, lang: str) -> None:
    denied = DENIED_ZH + ATTRIBUTED_ZH if lang == "zh" else DENIED_EN + ATTRIBUTED_EN
    concepts = list(CLAIMS[exercise])
    own = "\n\n".join(claim(exercise, c, lang) + ("。" if lang == "zh" else ".") for c in concepts)
    wrong = "\n\n".join(
        denied[index % len(denied)].format(c=claim(exercise, c, lang))
        for index, c in enumerate(concepts)
    )
    assert score(exercise, own).score == spec(exercise).max_score
    result = score(exercise, wrong)
    assert result.score == 0, [(c.name, c.status) for c in result.concepts]
    assert all(c.status in ("denied", "attributed") for c in result.concepts)


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        (
            "Some think a redelivery counts as a retry, but that is false: "
            "request.retries stays 0.",
            "redelivery_is_not_retry",
        ),
        (
            "有人以为重投会让 retry 计数加一，其实不会，request.retries 仍然是 0。",
            "redelivery_is_not_retry",
        ),
    ],
)
def test_a_refuted_myth_is_no_contradiction_and_the_own_claim_counts(
    text: str, concept: str
) -> None:
    assert status(score("EX-11-02", text), concept) == "found"


def test_a_following_sentence_about_the_fix_does_not_deny() -> None:
    text = "先 SELECT 再 INSERT 有竞态，两个事务都看到不存在。用唯一约束就不会发生这种问题。"
    assert status(score("EX-13-02", text), "select_then_insert_races") == "found"


@pytest.mark.parametrize(
    "text",
    [
        "结论：只在调用 retry 的分支里去重是不够的，每一次执行都要先查 receipt。",
        "只在调用 retry 的分支里去重是不够的。",
        "Deduplicating only in the branch that calls retry is not enough.",
    ],
)
def test_not_enough_only_in_the_retry_branch_is_the_concept(text: str) -> None:
    result = score("EX-11-02", text)
    assert status(result, "idempotency_on_every_path") == "found"


@pytest.mark.parametrize(
    "text",
    ["幂等只需要放在调用 retry 的分支里。", "Idempotency is only needed in the retry branch."],
)
def test_only_in_the_retry_branch_is_still_a_contradiction(text: str) -> None:
    assert status(score("EX-11-02", text), "idempotency_on_every_path") == "contradicted"


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("The PostgreSQL loser does not wait and gets IntegrityError.", "postgresql_loser"),
        (
            "On PostgreSQL the loser gets an IntegrityError immediately, without waiting.",
            "postgresql_loser",
        ),
        ("PostgreSQL 上输的一方不会等待，直接得到 IntegrityError。", "postgresql_loser"),
        ("SQLite needs no lock.", "sqlite_loser"),
        ("SQLite doesn't need any lock, both writers go through.", "sqlite_loser"),
        ("SQLite 不需要锁，两个写可以同时进行。", "sqlite_loser"),
    ],
)
def test_both_database_sides_can_be_contradicted(text: str, concept: str) -> None:
    assert status(score("EX-13-02", text), concept) == "contradicted"


@pytest.mark.parametrize("path", sorted(FILES.glob("*.md")), ids=lambda p: p.name)
def test_plain_words_two_sentences_and_arrows_score_what_a_human_gives(path: Path) -> None:
    exercise = path.name[:8]
    result = score(exercise, path.read_text(encoding="utf-8"))
    assert result.score == spec(exercise).max_score, [(c.name, c.status) for c in result.concepts]


_ANSWER = re.compile(r"^\*\*(EX-\d\d-\d\d)", re.MULTILINE)
_NEXT = re.compile(r"^(\*\*EX-|#{1,6} )", re.MULTILINE)


def model_answers() -> list[tuple[str, str, str]]:
    """(where, exercise, text): solutions/EX-*-02/answer.md and every answer a lesson prints
    to a prose exercise (in a markdown cell, a paragraph opening with ``**EX-..-02``, up to
    the next such paragraph or heading)."""
    found = [
        (
            f"solutions/{exercise}",
            exercise,
            (REPO / "solutions" / exercise / "answer.md").read_text("utf-8"),
        )
        for exercise in PROSE
    ]
    for notebook in sorted((REPO / "lessons").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(cells):
            text = "".join(cell["source"])
            if cell["cell_type"] != "markdown":
                continue
            for opened in _ANSWER.finditer(text):
                if opened[1] in PROSE:
                    end = _NEXT.search(text, opened.end())
                    answer = text[opened.start() : end.start() if end else len(text)]
                    found.append((f"{notebook.name}#{index}", opened[1], answer))
    return found


def test_the_lessons_print_a_model_answer() -> None:
    assert any(where.endswith(".ipynb#4") for where, _, _ in model_answers())


@pytest.mark.parametrize(
    ("where", "exercise", "text"), [pytest.param(*a, id=a[0]) for a in model_answers()]
)
def test_every_model_answer_scores_full_marks(where: str, exercise: str, text: str) -> None:
    result = score(exercise, text)
    assert result.score == spec(exercise).max_score, [(c.name, c.status) for c in result.concepts]


@pytest.mark.parametrize("exercise", PROSE)
@pytest.mark.parametrize("stop", ["；", "，", "\n", " → "])
def test_punctuation_never_decides_a_point(exercise: str, stop: str) -> None:
    text = (REPO / "solutions" / exercise / "answer.md").read_text("utf-8")
    changed = re.sub("。(?!\n)", stop, text)
    assert changed != text
    assert score(exercise, changed).score == score(exercise, text).score


@pytest.mark.parametrize("exercise", PROSE)
def test_the_reviewer_sees_the_sentence_behind_each_mark(exercise: str) -> None:
    text = (REPO / "solutions" / exercise / "answer.md").read_text("utf-8")
    flat = re.sub(r"\s+", "", normalize(text))
    for check in judge_prose(spec(exercise), answer_text(text, starter_template(exercise))):
        if check.name.startswith("concept:"):
            assert check.evidence, check
            assert re.sub(r"\s+", "", check.evidence) in flat, check.evidence


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("有人担心先写副作用、崩溃后重投会重复通知。这种情况其实不会发生。", "concept.denied"),
        (
            "Some think that writing the effect first sends the notification twice.",
            "concept.attributed",
        ),
    ],
)
def test_the_reviewer_sees_a_denied_or_attributed_claim_with_its_sentence(
    text: str, message: str
) -> None:
    checks = {c.name: c for c in judge_prose(spec("EX-12-02"), text)}
    shown = checks["concept:effect_first_duplicates_notification"]
    assert not shown.passed and shown.points == 0
    assert shown.message.id == message
    assert shown.evidence and shown.evidence in normalize(text)
    assert shown.message.params["sentence"] == shown.evidence
