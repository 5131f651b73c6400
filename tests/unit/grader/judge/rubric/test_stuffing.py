"""Keyword lists, fragments, chants and pasted sentences count for nothing."""

from __future__ import annotations

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric.scoring import _hits
from grader.judge.rubric.stuffing import repeated_sentences, stuffed

SPEC = get_exercise("EX-11-02")
assert isinstance(SPEC, ProseExercise)


def _stuffed(sentence: str, sections: int = 1) -> bool:
    hits = _hits(SPEC, sentence)
    spans = sorted({span for found in hits.values() for span in found})
    return stuffed(sentence, spans, sections)


def test_a_list_of_rubric_words_is_stuffing() -> None:
    assert _stuffed("late ACK 未 ack 重投 redeliver，不消耗 retry 计数，receipt duplicate no-op。")
    assert _stuffed("receipt, duplicate, no-op, idempotent, dedup.")


def test_a_sentence_that_explains_is_not_stuffing() -> None:
    assert not _stuffed("第二次执行时 handler 发现 receipt 已经存在，就把它当作重复直接跳过。")
    assert not _stuffed(
        "On the second run the handler finds the receipt and treats it as a duplicate."
    )


def test_an_arrow_note_is_not_stuffing() -> None:
    assert not _stuffed("- 第二次执行 → receipt 已存在 → duplicate")
    assert not _stuffed("- second run -> receipt already exists -> no-op")
    assert _stuffed("- 第二次执行 receipt 已存在 duplicate")


def test_one_sentence_reaching_three_sections_is_stuffing() -> None:
    assert _stuffed("broker 会重投，receipt 让它变成重复，retry 有 countdown。", sections=3)


def test_a_chant_is_stuffing() -> None:
    assert _stuffed("retry 重试 countdown " * 12)


def test_the_same_sentence_in_two_sections_is_flagged() -> None:
    pasted = "broker 会把消息重投，receipt 让第二次变成 no-op。"
    flagged = repeated_sentences([(pasted, "a"), (pasted, "b"), ("别的句子写在这里。", "c")])
    assert len(flagged) == 1
    assert not repeated_sentences([(pasted, "a"), ("别的句子写在这里。", "b")])
