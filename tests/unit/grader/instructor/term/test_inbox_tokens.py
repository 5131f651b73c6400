"""A student's inbox token is one argument on any command line: it never starts with "-".

Before, ``secrets.token_urlsafe`` gave one token in 64 a leading "-", and ``grader submit
--token -x...`` then failed with "argument --token: expected one argument" (seen in CI).
"""

from __future__ import annotations

import pytest

from grader.instructor.term import inbox_store


def test_a_token_with_a_leading_dash_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = iter(["-looks-like-an-option", "--also", "plain_token-with-dashes"])
    monkeypatch.setattr(inbox_store.secrets, "token_urlsafe", lambda n: next(drawn))
    assert inbox_store.new_token() == "plain_token-with-dashes"


def test_real_tokens_are_long_and_never_start_with_a_dash() -> None:
    tokens = [inbox_store.new_token() for _ in range(2000)]
    assert not [t for t in tokens if t.startswith("-")]
    assert min(len(t) for t in tokens) >= 43 and len(set(tokens)) == len(tokens)
