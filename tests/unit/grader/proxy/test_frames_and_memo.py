"""One frame per method looked up and called at once; pure answers reused within one run.

Both ends are driven for real (a socketpair, ``converse`` on a thread): what the student's
process sees (its objects' lookups and calls, in order; fresh values; the exceptions) must
be what it saw with one frame per operation and no memo.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from grader.proxy.child import conversation as child
from grader.proxy.child.conversation import Conversation
from grader.proxy.oracle.link import Link
from grader.proxy.oracle.session import converse


class Logged:
    """A student's object that logs every lookup and call made on it."""

    def __init__(self, log: list[str]) -> None:
        object.__setattr__(self, "log", log)
        object.__setattr__(self, "name", "plain")

    def __getattribute__(self, name: str) -> Any:
        if name not in ("log", "__class__", "__dict__"):
            object.__getattribute__(self, "log").append(f"get {name}")
        return object.__getattribute__(self, name)

    def add(self, value: int) -> int:
        self.log.append(f"call add({value})")
        return value + 1


@contextmanager
def talking(
    answer: Callable[[Any, Link], Any], *, pure: bool = False
) -> Iterator[tuple[Conversation, list[str], list[Link]]]:
    """A child ``Conversation`` talking to ``answer``; the ops it performed; the links."""
    ours, theirs = socket.socketpair()
    links: list[Link] = []

    def serve() -> None:
        def counted(facts: Any, link: Link) -> Any:
            if link not in links:
                links.append(link)
            return answer(facts, link)

        converse(ours, counted)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    talk = Conversation(theirs, pure=pure)
    ops: list[str] = []  # the operations the oracle asked for, one per frame
    receive = talk._receive

    def logged() -> Any:
        message = receive()
        if message.get("op") not in ("return", "raise"):
            ops.append(str(message.get("op")))
        return message

    talk._receive = logged  # type: ignore[method-assign]
    try:
        yield talk, ops, links
    finally:
        theirs.close()
        thread.join(5)
        ours.close()


def _add_at_once(facts: Any, link: Link) -> Any:
    return facts["obj"].add(1)


def _add_in_two(facts: Any, link: Link) -> Any:
    method = getattr(facts["obj"], "add")  # noqa: B009 -- the two-operation path on purpose
    return method(1)


def test_a_method_called_at_once_is_one_frame_with_the_same_effects() -> None:
    one: list[str] = []
    two: list[str] = []
    with talking(_add_at_once) as (talk, ops, links):
        assert talk.call({"obj": Logged(one)}) == 2
    assert ops == ["callattr"]
    assert links[0].operations == 2  # counted as the two operations it stands for
    with talking(_add_in_two) as (talk, ops, _):
        assert talk.call({"obj": Logged(two)}) == 2
    assert ops == ["getattr", "call"]
    assert one == two == ["get add", "call add(1)"]


def test_code_between_the_lookup_and_the_call_keeps_two_frames() -> None:
    def between(facts: Any, link: Link) -> Any:
        return facts["obj"].add(len([1, 2]))

    log: list[str] = []
    with talking(between) as (talk, ops, _):
        assert talk.call({"obj": Logged(log)}) == 3
    assert ops == ["getattr", "call"]


def test_a_lookup_that_raises_surfaces_where_it_would() -> None:
    def missing(facts: Any, link: Link) -> Any:
        try:
            return facts["obj"].missing(1)
        except AttributeError:
            return "caught"

    with talking(missing) as (talk, ops, _):
        assert talk.call({"obj": Logged([])}) == "caught"
    assert ops == ["callattr"]


def test_a_plain_attribute_is_called_by_the_oracle_as_before() -> None:
    def plain(facts: Any, link: Link) -> Any:
        return facts["obj"].name()

    with talking(plain) as (talk, ops, _), pytest.raises(TypeError, match="not callable"):
        talk.call({"obj": Logged([])})
    assert ops == ["callattr"]


def test_a_pure_answer_is_asked_once_per_run_and_decoded_afresh() -> None:
    def listed(facts: Any, link: Link) -> Any:
        return [facts["n"], {"k": facts["n"]}]

    with talking(listed, pure=True) as (talk, _, links):
        first = talk.call({"n": 1})
        first[1]["k"] = "mutated by the probe"
        second = talk.call({"n": 1})
        assert talk.call({"n": 2}) == [2, {"k": 2}]
        assert links[0].calls == 2
    assert second == [1, {"k": 1}] and second is not first


def test_a_mutated_argument_is_other_facts() -> None:
    """The attack: a probe that mutates what it passed, to catch a stale memoised answer."""

    def total(facts: Any, link: Link) -> Any:
        return sum(facts["xs"])

    numbers = [1, 2]
    with talking(total, pure=True) as (talk, _, links):
        assert talk.call({"xs": numbers}) == 3
        numbers.append(4)
        assert talk.call({"xs": numbers}) == 7
        numbers.pop()
        assert talk.call({"xs": numbers}) == 3  # the memo: asked before, same answer
        assert links[0].calls == 2


def test_equal_but_distinguishable_facts_are_not_confused() -> None:
    def shown(facts: Any, link: Link) -> Any:
        return repr(facts["v"])

    with talking(shown, pure=True) as (talk, _, _links):
        answers = [talk.call({"v": v}) for v in (1, 1.0, True, -0.0, 0.0, "1")]
    assert answers == ["1", "1.0", "True", "-0.0", "0.0", "'1'"]


def test_an_exception_is_raised_afresh_each_time() -> None:
    def refuse(facts: Any, link: Link) -> Any:
        raise ValueError(f"no {facts['n']}")

    with talking(refuse, pure=True) as (talk, _, links):
        raised = []
        for _ in range(2):
            with pytest.raises(ValueError, match="no 1") as caught:
                talk.call({"n": 1})
            raised.append(caught.value)
        assert links[0].calls == 1
    assert raised[0] is not raised[1]


def test_no_memo_for_a_target_not_declared_pure_or_for_handles() -> None:
    state = {"n": 0}

    def counting(facts: Any, link: Link) -> Any:
        state["n"] += 1
        return state["n"]

    with talking(counting) as (talk, _, _links):
        assert [talk.call({"n": 1}) for _ in range(2)] == [1, 2]
    box = Logged([])
    with talking(counting, pure=True) as (talk, _, _links):
        assert [talk.call({"obj": box}) for _ in range(2)] == [3, 4]  # a handle: never kept


def test_an_answer_that_needed_an_operation_is_not_kept() -> None:
    log: list[str] = []
    box = Logged(log)
    with talking(_add_at_once, pure=True) as (talk, ops, _):
        assert [talk.call({"obj": box}) for _ in range(2)] == [2, 2]
    assert ops == ["callattr", "callattr"]
    assert log == ["get add", "call add(1)"] * 2


def test_the_memo_is_the_run_s_own_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(child, "MAX_MEMO", 2)

    def echo(facts: Any, link: Link) -> Any:
        return facts["n"]

    with talking(echo, pure=True) as (talk, _, links):
        for n in (1, 2, 3, 1, 2, 3):
            assert talk.call({"n": n}) == n
        assert links[0].calls == 4  # 3 was never kept
    with talking(echo, pure=True) as (talk, _, links):  # the next run asks afresh
        assert talk.call({"n": 1}) == 1
        assert links[0].calls == 1
