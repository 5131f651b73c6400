"""Reading an answer: headings mark sections and are never scored, bullets under them are."""

from __future__ import annotations

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric.text import MAX_CHARS, MAX_SENTENCE, read_answer, strip_comments
from grader.judge.starters import starter_template

SPEC = get_exercise("EX-11-02")
assert isinstance(SPEC, ProseExercise)
TEMPLATE = starter_template("EX-11-02")


def test_bullets_under_template_headings_are_kept_headings_and_placeholders_are_not() -> None:
    text = TEMPLATE.replace("（在这里写你的回答）", "- broker 会重投这条消息", 1)
    answer = read_answer(text, TEMPLATE, SPEC.sections)
    assert answer.sectioned
    assert [(s.section, s.text) for s in answer.sentences] == [("a", "- broker 会重投这条消息")]


def test_english_headings_open_the_same_sections() -> None:
    text = (
        "## (a) Killed before the handler starts\n\nIt is redelivered.\n\n"
        "## Conclusion\n\nIdempotent.\n"
    )
    answer = read_answer(text, "", SPEC.sections)
    assert [s.section for s in answer.sentences] == ["a", "conclusion"]


def test_hard_wrapped_lines_of_a_paragraph_are_one_sentence() -> None:
    answer = read_answer("The broker\nredelivers the message.\nThen it stops.\n", "", ())
    assert [s.text for s in answer.sentences] == [
        "The broker redelivers the message.",
        "Then it stops.",
    ]


def test_comments_are_hidden_and_an_unclosed_one_hides_the_rest() -> None:
    assert strip_comments("a<!-- b -->c<!-- d") == "ac"


def test_long_input_is_capped_and_long_sentences_cut() -> None:
    answer = read_answer("x" * (MAX_CHARS + 10), "", ())
    assert answer.capped
    assert max(len(s.text) for s in answer.sentences) <= MAX_SENTENCE


def test_full_width_letters_curly_apostrophes_and_invisible_characters_are_normalised() -> None:
    answer = read_answer("Ｔｈｅ broker doesn’t re\u200bdeliver ｉｔ。", "", ())
    assert [s.text for s in answer.sentences] == ["The broker doesn't redeliver it。"]
