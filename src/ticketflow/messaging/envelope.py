"""The event envelope: what travels on the wire between producer and worker.

Parsing is strict on purpose. A message that does not match the schema exactly is a
*poison message*: waiting and retrying cannot fix it, so the worker must recognise it at
once (and dead-letter it with its original body) instead of guessing.

Light on purpose: this module imports only the standard library, at the top like every
ticketflow module, never Celery or SQLAlchemy. Producers, probes and the worker's parsing
all load it in milliseconds; keep it so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import MappingProxyType
from typing import NoReturn

__all__ = ["SUPPORTED_SCHEMA_VERSIONS", "EventEnvelope", "JSONObject"]

#: A decoded JSON object (the envelope's ``payload``, and the envelope on the wire).
JSONObject = dict[str, object]

SUPPORTED_SCHEMA_VERSIONS = frozenset({1})
_FIELDS = ("event_id", "event_type", "payload", "occurred_at", "schema_version")
_REQUIRED = ("event_id", "event_type", "payload")


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"invalid JSON number {name!r}: NaN and Infinity are not allowed")


@dataclass(frozen=True)
class EventEnvelope:
    """One business event, identified by ``event_id`` for as long as it lives.

    ``event_id`` is the deduplication key: every redelivery and every retry of the same
    event carries the same id, whatever the broker's delivery tag or Celery's task id.
    """

    event_id: str
    event_type: str
    payload: Mapping[str, object]
    occurred_at: datetime = field(default_factory=_utcnow)
    schema_version: int = 1

    def __post_init__(self) -> None:
        for name in ("event_id", "event_type"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a string, not {type(value).__name__}")
            if not value.strip():
                raise ValueError(f"{name} must not be empty")
        if not isinstance(self.payload, Mapping):
            raise TypeError(f"payload must be a JSON object, not {type(self.payload).__name__}")
        if not isinstance(self.occurred_at, datetime):
            raise TypeError(
                f"occurred_at must be a datetime, not {type(self.occurred_at).__name__}"
            )
        if self.occurred_at.tzinfo is None or self.occurred_at.utcoffset() is None:
            raise ValueError("occurred_at must be timezone-aware (for example UTC)")
        if type(self.schema_version) is not int:
            raise TypeError(
                f"schema_version must be an integer, not {type(self.schema_version).__name__}"
            )
        if self.schema_version not in SUPPORTED_SCHEMA_VERSIONS:
            raise ValueError(
                f"schema_version {self.schema_version} is not supported "
                f"(supported: {sorted(SUPPORTED_SCHEMA_VERSIONS)})"
            )
        # A frozen envelope should not carry a payload someone else can still mutate.
        object.__setattr__(self, "payload", MappingProxyType(dict(self.payload)))

    def __hash__(self) -> int:
        return hash((self.event_id, self.event_type, self.occurred_at, self.schema_version))

    # -- wire format -----------------------------------------------------------------
    def to_dict(self) -> JSONObject:
        """The JSON-ready form (what a Celery task receives as its ``event`` argument)."""
        return {
            "event_id": self.event_id,
            "event_type": self.event_type,
            "payload": _plain(self.payload),
            "occurred_at": self.occurred_at.isoformat(),
            "schema_version": self.schema_version,
        }

    def to_json_bytes(self) -> bytes:
        return json.dumps(
            self.to_dict(), ensure_ascii=False, separators=(",", ":"), allow_nan=False
        ).encode("utf-8")

    @classmethod
    def from_json_bytes(cls, data: bytes) -> EventEnvelope:
        """Parse a wire message strictly; every error names the offending field."""
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"data must be bytes, not {type(data).__name__}")
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"body is not valid UTF-8: {error}") from error
        try:
            document = json.loads(text, parse_constant=_reject_constant)
        except json.JSONDecodeError as error:
            raise ValueError(f"body is not valid JSON: {error}") from error
        return cls.from_dict(document)

    @classmethod
    def from_dict(cls, document: object) -> EventEnvelope:
        """Validate an already-decoded JSON document (same rules as ``from_json_bytes``)."""
        if not isinstance(document, dict):
            raise ValueError(f"envelope must be a JSON object, not {type(document).__name__}")
        unknown = sorted(set(document) - set(_FIELDS))
        if unknown:
            raise ValueError(f"unknown top-level field(s): {', '.join(map(str, unknown))}")
        for name in _REQUIRED:
            if name not in document:
                raise ValueError(f"missing required field {name}")
        if not isinstance(document["payload"], dict):
            raise TypeError(
                f"payload must be a JSON object, not {type(document['payload']).__name__}"
            )
        if "occurred_at" in document:
            occurred_at = _parse_timestamp(document["occurred_at"])
        else:
            occurred_at = _utcnow()
        return cls(
            event_id=document["event_id"],
            event_type=document["event_type"],
            payload=document["payload"],
            occurred_at=occurred_at,
            schema_version=document.get("schema_version", 1),
        )


def _parse_timestamp(value: object) -> datetime:
    if not isinstance(value, str):
        raise TypeError(f"occurred_at must be an ISO 8601 string, not {type(value).__name__}")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as error:
        raise ValueError(f"occurred_at is not an ISO 8601 timestamp: {value!r}") from error
    if parsed.tzinfo is None:
        raise ValueError(f"occurred_at must carry a timezone offset: {value!r}")
    return parsed


def _plain(value: object) -> object:
    """Turn read-only mapping proxies back into plain dicts for ``json``."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value
