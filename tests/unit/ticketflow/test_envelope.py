from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.factories import make_envelope
from ticketflow.messaging.outbox import EventEnvelope

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text()
    | st.floats(allow_nan=False, allow_infinity=False)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=12,
)
aware_datetimes = st.datetimes(
    min_value=datetime(1970, 1, 2),
    max_value=datetime(2200, 1, 1),
    timezones=st.sampled_from([UTC, timezone(timedelta(hours=8)), timezone(timedelta(hours=-5))]),
)


@given(
    event_id=st.text(min_size=1).filter(str.strip),
    event_type=st.text(min_size=1).filter(str.strip),
    payload=st.dictionaries(st.text(), json_values, max_size=5),
    occurred_at=aware_datetimes,
)
def test_json_round_trip(
    event_id: str, event_type: str, payload: dict[str, Any], occurred_at: datetime
) -> None:
    envelope = EventEnvelope(event_id, event_type, payload, occurred_at)
    again = EventEnvelope.from_json_bytes(envelope.to_json_bytes())
    assert again == envelope
    assert again.to_json_bytes() == envelope.to_json_bytes()


def test_default_occurred_at_is_aware_utc_now() -> None:
    before = datetime.now(UTC)
    envelope = EventEnvelope("e1", "t", {})
    assert envelope.occurred_at.tzinfo is not None
    assert before <= envelope.occurred_at <= datetime.now(UTC)
    assert envelope.schema_version == 1


def test_envelope_is_frozen_and_payload_read_only() -> None:
    envelope = make_envelope(payload={"a": 1})
    with pytest.raises(AttributeError):
        envelope.event_id = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        envelope.payload["a"] = 2  # type: ignore[index]
    assert hash(envelope) == hash(make_envelope(envelope.event_id, payload={"a": 1}))


def _body(**fields: Any) -> bytes:
    base: dict[str, Any] = {"event_id": "e1", "event_type": "ticket.created", "payload": {}}
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not _MISSING}).encode()


_MISSING = object()


@pytest.mark.parametrize(
    ("data", "error", "field"),
    [
        (b"\xff\xfe", ValueError, "UTF-8"),
        (b"{not json", ValueError, "JSON"),
        (b"[1, 2]", ValueError, "object"),
        (b'"text"', ValueError, "object"),
        (b'{"event_id": "e", "event_type": "t", "payload": {}, "x": NaN}', ValueError, "NaN"),
        (_body(event_id=_MISSING), ValueError, "event_id"),
        (_body(event_id=""), ValueError, "event_id"),
        (_body(event_id="   "), ValueError, "event_id"),
        (_body(event_id=7), TypeError, "event_id"),
        (_body(event_type=_MISSING), ValueError, "event_type"),
        (_body(event_type=""), ValueError, "event_type"),
        (_body(payload=_MISSING), ValueError, "payload"),
        (_body(payload=[1]), TypeError, "payload"),
        (_body(payload="x"), TypeError, "payload"),
        (_body(occurred_at="yesterday"), ValueError, "occurred_at"),
        (_body(occurred_at="2026-11-30T08:00:00"), ValueError, "occurred_at"),
        (_body(occurred_at=1700000000), TypeError, "occurred_at"),
        (_body(schema_version=2), ValueError, "schema_version"),
        (_body(schema_version="1"), TypeError, "schema_version"),
        (_body(schema_version=True), TypeError, "schema_version"),
        (_body(priority="high"), ValueError, "priority"),
    ],
)
def test_strict_parsing_names_the_field(data: bytes, error: type[Exception], field: str) -> None:
    with pytest.raises(error, match=field):
        EventEnvelope.from_json_bytes(data)


def test_non_bytes_input_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="bytes"):
        EventEnvelope.from_json_bytes('{"event_id": "e"}')  # type: ignore[arg-type]


def test_accepts_z_suffix_and_offsets() -> None:
    envelope = EventEnvelope.from_json_bytes(_body(occurred_at="2026-11-30T08:00:00Z"))
    assert envelope.occurred_at == datetime(2026, 11, 30, 8, tzinfo=UTC)
