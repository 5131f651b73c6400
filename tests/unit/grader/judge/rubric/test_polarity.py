"""Whose claim is it? Denials after a claim, claims put in others' mouths, and the words
that look like a denial but are not one."""

from __future__ import annotations

import pytest

from grader.judge.rubric.polarity import polarity, read


def _kind(text: str, claim: str, following: str = "") -> str | None:
    start = text.index(claim)
    reading = read(text, [(start, start + len(claim))], following)
    return polarity([(start, start + len(claim))], list(reading.regions))


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("先提交 receipt 会丢通知，这种情况其实不会发生。", "会丢通知"),
        ("两次提交之间崩溃的窗口并不存在。", "崩溃的窗口"),
        ("把它们放进同一个事务是多余的。", "同一个事务"),
        ("只在调用 retry 的分支里去重是不够的。", "只在调用 retry 的分支里去重"),
        ("A crash between the two commits is harmless.", "crash between"),
        ("One transaction is unnecessary.", "One transaction"),
        ("With one transaction, a lost notification cannot happen.", "a lost notification"),
        ("The loser waits, but that is false.", "The loser waits"),
        ("It is a myth that the loser waits: it fails.", "the loser waits"),
    ],
)
def test_a_claim_followed_by_a_denial_is_denied(text: str, claim: str) -> None:
    assert _kind(text, claim) == "denied"


@pytest.mark.parametrize(
    ("text", "claim", "following"),
    [
        ("先提交 receipt 会丢通知。", "会丢通知", "这种情况其实不会发生。"),
        ("The redelivery is skipped.", "skipped", "Actually, that is a myth."),
    ],
)
def test_a_denial_opening_the_next_sentence_denies(text: str, claim: str, following: str) -> None:
    assert _kind(text, claim, following) == "denied"


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("有人说 broker 会重投。", "broker 会重投"),
        ("有人担心会丢通知，但是我觉得说得有道理。", "会丢通知"),
        ("People say the broker redelivers it.", "the broker redelivers"),
        ("Some think the loser waits.", "the loser waits"),
        (
            "Some think it is redelivered as it is not yet acked.",
            "redelivered as it is not yet acked",
        ),
    ],
)
def test_a_claim_put_in_others_mouths_is_attributed(text: str, claim: str) -> None:
    assert _kind(text, claim) == "attributed"


@pytest.mark.parametrize(
    ("text", "claim", "following"),
    [
        # The student's own voice after the turn.
        (
            "Some think it counts as a retry, but that is false: retries stay 0.",
            "retries stay 0",
            "",
        ),
        ("有人说会重复，其实 receipt 让它变成 no-op。", "receipt 让它变成 no-op", ""),
        # A denial of what follows, or advice, is no denial of what precedes.
        ("receipt 已存在，没有必要再发一次。", "receipt 已存在", ""),
        ("先 SELECT 有竞态，不会出现只有一个成功的情况。", "先 SELECT 有竞态", ""),
        # The consequence of a fix.
        ("如果放进同一个事务，就不会发生了。", "同一个事务", ""),
        ("放进同一个事务，这两种问题就都不会发生了。", "同一个事务", ""),
        ("With one transaction, a lost notification cannot happen.", "one transaction", ""),
        # A next sentence that states something of its own.
        ("先 SELECT 再 INSERT 有竞态。", "有竞态", "用唯一约束就不会发生这种问题。"),
        # "they" are the workers, not other people.
        ("Both check and they think there is no receipt.", "there is no receipt", ""),
        # Endorsed.
        ("有人说 broker 会重投，这是对的。", "broker 会重投", ""),
    ],
)
def test_the_students_own_claims_stay_their_own(text: str, claim: str, following: str) -> None:
    start = text.index(claim)
    terms = [(start, start + len(claim))]
    if following:
        terms_next = [(following.index("唯一约束"), following.index("唯一约束") + 4)]
    else:
        terms_next = []
    reading = read(text, terms, following, terms_next)
    assert polarity(terms, list(reading.regions)) is None


def test_a_denial_that_is_a_terms_own_wording_is_no_denial() -> None:
    text = "崩溃时 receipt 并不存在。"
    term = (text.index("receipt"), text.index("。"))
    assert read(text, [term]).regions == ()
