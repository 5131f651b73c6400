"""The oracle treats its conversation as untrusted: whatever the student's side sends, the
oracle ends the conversation as "broken" (a failed run), never with an exception of its own."""

from __future__ import annotations

import json
import socket
import struct
import time
from typing import Any

import pytest

from grader.proxy import wire
from grader.proxy.child.conversation import Conversation, GraderConnectionLost
from grader.proxy.oracle import session
from grader.proxy.oracle.session import Oracle, Outcome, _judged
from tests.support.db import counts, ready_engine
from tests.support.factories import make_envelope
from tests.support.oracle import proxied
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError

POLICY_CALL = {
    "$dict": {
        "max_retries": 2,
        "base_delay_seconds": 5,
        "retryable": True,
        "retries_so_far": 1,
    }
}


def _body(message: Any) -> bytes:
    data = json.dumps(message).encode()
    return struct.pack(">I", len(data)) + data


def _talk(target: str, *frames: bytes) -> Outcome:
    oracle = Oracle(target, "real")
    student = socket.socket(fileno=oracle.student_fd)
    try:
        for data in frames:
            try:
                student.sendall(data)
            except OSError:
                break
        student.shutdown(socket.SHUT_WR)
        student.settimeout(5)
        try:
            while student.recv(1 << 16):
                pass
        except OSError:
            pass
    finally:
        student.detach()
    return oracle.close()


@pytest.mark.parametrize(
    ("frames", "why"),
    [
        ([struct.pack(">I", wire.MAX_FRAME + 1)], "announced"),
        ([struct.pack(">I", 5) + b"nope!"], "not a JSON frame"),
        ([_body([1])], "expected a call"),
        ([_body({"call": "[" * 10_000 + "]" * 10_000})], "malformed"),
        ([struct.pack(">I", 80_000) + b"[" * 40_000 + b"]" * 40_000], "JSON"),
        ([_body({"call": {"$dict": {"max_retries": 2}}})], "malformed policy call"),
        ([_body({"call": {"$int": "x" * (wire.MAX_HEX + 1)}})], "bad $int"),
        ([_body({"call": {"$h": 0, "extra": 1}})], "tag"),
        ([_body({"call": {"$dt": "2026-01-01"}})], "may not send"),
        ([_body({"call": POLICY_CALL}), _body({"ok": 1})], "expected a call"),
        ([_body({"call": POLICY_CALL, "more": 1})], "expected a call"),
        ([b"\xff\xff"], None),  # a torn header, then the end: nothing to answer
    ],
)
def test_junk_from_the_student_breaks_the_conversation(
    frames: list[bytes], why: str | None
) -> None:
    outcome = _talk("policy", *frames)
    assert outcome.bug is None
    if why is None:
        assert outcome.broken is None
    else:
        assert outcome.broken is not None and why in outcome.broken, outcome


def test_junk_in_the_middle_of_an_effects_call_breaks_it() -> None:
    call = {"call": {"$dict": {"envelope": {"$dict": {"not_an_envelope": "x"}}, "transaction": 1}}}
    fine = _talk("effects", _body(call))
    assert fine == Outcome(calls=1)
    fields: dict[str, Any] = {"$dict": {"fields": {"$dict": {}}}}
    with_object = {"call": {"$dict": {"envelope": fields, "transaction": 1}}}
    assert "malformed envelope" in str(_talk("effects", _body(with_object)).broken)


def test_a_student_that_goes_silent_mid_frame_is_broken_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(session, "SILENCE_SECONDS", 0.2)
    oracle = Oracle("policy", "real")
    student = socket.socket(fileno=oracle.student_fd)
    try:
        student.sendall(struct.pack(">I", 100) + b"{")
        time.sleep(0.6)
    finally:
        student.detach()
    assert "silent" in str(oracle.close().broken)


def test_a_broken_conversation_fails_a_run_that_exited_cleanly() -> None:
    from grader.runner import Observations

    ok = Observations(0, None, False, None, "", "", False, False, (), None, 0.1, "namespaces")
    failed = _judged(ok, Outcome(calls=1, broken="expected a call"))
    assert not failed.ok and failed.uncaught is not None
    assert "expected a call" in failed.uncaught["message"]
    assert _judged(ok, Outcome(calls=1)) is ok


def test_an_uncatalogued_statement_is_a_grader_bug_not_a_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sqlalchemy import text

    from grader.proxy.oracle import implementations

    def odd(envelope: Any, transaction: Any) -> Any:
        with transaction as uow:
            return uow.session.connection().execute(text("SELECT 1")).scalar()

    monkeypatch.setattr(implementations, "implementation", lambda target, name: odd)
    ended: list[Outcome] = []
    transaction = SqlAlchemyUnitOfWork(ready_engine())
    with proxied("effects", "odd", ended) as apply, pytest.raises(GraderConnectionLost):
        apply(make_envelope("evt-odd"), transaction)
    assert ended[0].bug is not None and "cannot name" in ended[0].bug


def test_the_probe_may_call_again_from_inside_an_operation() -> None:
    """A listener that calls the function (re-entering the conversation) is answered first."""
    outer_db, inner_db = ready_engine(), ready_engine()
    inner = SqlAlchemyUnitOfWork(inner_db)
    answers: list[Any] = []

    class Reentering(SqlAlchemyUnitOfWork):
        def commit(self) -> None:
            answers.append(apply(make_envelope("evt-inner"), inner))
            super().commit()

    with proxied("effects", "real") as apply:
        assert apply(make_envelope("evt-outer"), Reentering(outer_db)) is True
    assert answers == [True]
    assert counts(outer_db)["business_tasks"] == counts(inner_db)["business_tasks"] == 1


def test_the_conversation_code_is_the_same_whoever_answers() -> None:
    """The proxy holds no trace of the implementation: two conversations answered by the real
    code and by a mutant are built from the same functions, with the same state."""
    from grader.proxy.child.policy import asking
    from ticketflow.workers.policy import RetryDecision

    a = asking(Conversation(-1), RetryableTaskError, RetryDecision)
    b = asking(Conversation(-1), RetryableTaskError, RetryDecision)
    assert a.__code__ is b.__code__
    assert [type(c.cell_contents) for c in a.__closure__] == [
        type(c.cell_contents) for c in b.__closure__
    ]


def test_a_policy_answer_arrives_as_a_retry_decision() -> None:
    with proxied("policy", "constant_delay") as decide:
        policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
        assert decide(policy, RetryableTaskError("t"), retries_so_far=1).countdown_seconds == 5


def test_an_oracle_that_cannot_start_is_a_runner_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from grader.runner import RunnerError, RunRequest

    def broken(target: str, name: str) -> Any:
        raise ImportError("no such module")

    class Starting:
        """Makes each run's oracle as it would start the run (``ForkServer.run_until``)."""

        def run_until(self, requests: list[Any], **options: Any) -> list[None]:
            for index in range(len(requests)):
                options["pass_fd_for"](index)
            return [None] * len(requests)

    monkeypatch.setattr(session, "answer_for", broken)
    with pytest.raises(RunnerError, match="could not start"):
        session.run_with_oracles(
            Starting(), RunRequest("", "p.py"), "policy", ["real"], max_parallel=1
        )  # type: ignore[arg-type]


def test_a_conversation_that_sends_too_much_is_broken_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a run sends can stay in the oracle (the real code caches per dialect name): the
    bytes one conversation may send are capped."""
    from grader.proxy.oracle import link

    monkeypatch.setattr(link, "MAX_RECEIVED", 4096)
    call = {"call": {"$dict": {"envelope": {"$dict": {"not_an_envelope": "x"}}, "transaction": 1}}}
    outcome = _talk("effects", *[_body(call)] * 100)
    assert outcome.bug is None and "bytes sent to the oracle" in str(outcome.broken), outcome


def test_an_answer_too_large_to_send_back_breaks_the_conversation() -> None:
    """The real code sends the student's payload back in its INSERT: a payload just under the
    frame limit makes an answer just over it. The student's data: a failed run, no bug."""
    from ticketflow.messaging.envelope import EventEnvelope

    def call_frame(payload: dict[str, str]) -> int:  # the proxy's call, as it frames it
        fields = {"event_id": "e", "event_type": "t", "payload": {"$dict": payload}}
        fields |= {"occurred_at": {"$h": 0}, "schema_version": 1}
        envelope = {"$dict": {"fields": {"$dict": fields}}}
        return len(
            wire.frame({"call": {"$dict": {"envelope": envelope, "transaction": {"$h": 1}}}})
        )

    payload = {f"k{i}": "x" * 60_000 for i in range(69)}
    payload["pad"] = ""
    payload["pad"] = "x" * (wire.MAX_FRAME + wire.HEADER.size - 8 - call_frame(payload))
    ended: list[Outcome] = []
    transaction = SqlAlchemyUnitOfWork(ready_engine())
    with proxied("effects", "real", ended) as apply, pytest.raises(GraderConnectionLost):
        apply(EventEnvelope(event_id="e", event_type="t", payload=payload), transaction)
    assert ended[0].bug is None and "too large to send back" in str(ended[0].broken), ended
