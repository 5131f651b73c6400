"""A denied mention is not an assertion, in zh and en; "not only … but" is not a denial."""

from __future__ import annotations

import pytest

from grader.judge.rubric.negation import negated


def _negated(sentence: str, term: str, covered: tuple[tuple[int, int], ...] = ()) -> bool:
    return negated(sentence, sentence.index(term), covered)


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("PostgreSQL 上后来的事务不会等待。", "等待"),
        ("broker 并没有重投这条消息。", "重投"),
        ("这里无需回滚。", "回滚"),
        ("receipt 未写入。", "写入"),
        ("别跳过 receipt 检查。", "跳过"),
        ("这不是原子的。", "原子"),
        ("The broker does not redeliver it.", "redeliver"),
        ("The broker won't redeliver it.", "redeliver"),
        ("It never redelivers the message.", "redelivers"),
        ("Without a receipt, this works.", "receipt"),
        ("There is no unique constraint.", "unique"),
    ],
)
def test_a_preceding_negator_denies_the_term(sentence: str, term: str) -> None:
    assert _negated(sentence, term)


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("不仅 retry 分支，而且所有路径都要幂等。", "retry"),
        ("Idempotency is needed not only in retry but on every path.", "retry"),
        ("没有 ACK 的时候，broker 会重投。", "重投"),
        ("If it is not acked, the broker redelivers it.", "redelivers"),
        ("不是 retry，而是 redelivery。", "redelivery"),
        ("两个不同的连接都会等待。", "等待"),
        ("broker 会重投，request.retries 不会变。", "重投"),
    ],
)
def test_no_negation_outside_the_clause_or_in_not_only(sentence: str, term: str) -> None:
    assert not _negated(sentence, term)


def test_a_negator_inside_another_rubric_term_does_not_deny() -> None:
    sentence = "还没ACK就重投"
    ack_term = (sentence.index("还没"), sentence.index("就"))
    assert _negated(sentence, "重投")
    assert not _negated(sentence, "重投", (ack_term,))


@pytest.mark.parametrize(
    ("sentence", "term"),
    [("broker 把消息交给别的进程重投。", "重投"), ("两者有区别：重投不是重试。", "重投")],
)
def test_words_that_merely_contain_a_negator_character_do_not_deny(
    sentence: str, term: str
) -> None:
    assert not _negated(sentence, term)
