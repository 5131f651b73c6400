"""Send SQLAlchemy things by name: statements, model classes, new model objects.

An implementation that executes a statement the catalogue does not know
(``grader.proxy.child.statements``) is a grader bug (``OracleBug``): the unit tests run every
variant through the oracle, so such a variant never reaches a student. Statements are
matched by identity first (the real code's cached objects), then by their SQL text and
construct type (``insert(BusinessTask)`` is ``insert(BusinessTask.__table__)``).
"""

from __future__ import annotations

import threading
from typing import Any

from grader.proxy.child.statements import models, statement_builders
from grader.proxy.oracle.link import NOT_MINE, Link, OracleBug

_lock = threading.Lock()
_catalogue: Catalogue | None = None


class Catalogue:
    def __init__(self) -> None:
        from sqlalchemy.sql import ClauseElement

        from ticketflow.db import Base

        self.clause, self.base = ClauseElement, Base
        self.models = models()
        self.model_names = {cls: name for name, cls in self.models.items()}
        self._kept: list[Any] = []
        self._by_id: dict[int, str] = {}
        self._by_text: dict[tuple[str, str], str] = {}
        self._builders = statement_builders()
        self._lock = threading.Lock()
        # PostgreSQL's statements (and its dialect's import) only when a statement is missed
        self._add(name for name in self._builders if not name.endswith(":postgresql"))
        self._complete = False

    def _add(self, names: Any) -> None:
        for name in names:
            statement = self._builders[name]()
            self._kept.append(statement)
            self._by_id[id(statement)] = name
            self._by_text[_text_key(statement)] = name

    def statement_name(self, statement: Any) -> str | None:
        name = self._by_id.get(id(statement)) or self._by_text.get(_text_key(statement))
        if name is None and not self._complete:
            with self._lock:
                if not self._complete:
                    self._add(n for n in self._builders if n.endswith(":postgresql"))
                    self._complete = True
            return self.statement_name(statement)
        return name


def catalogue() -> Catalogue:
    global _catalogue
    with _lock:
        if _catalogue is None:
            _catalogue = Catalogue()
        return _catalogue


def _text_key(statement: Any) -> tuple[str, str]:
    return (type(statement).__qualname__, str(statement))


def encode_sqlalchemy(value: Any, link: Link, depth: int) -> Any:
    """The ``Encoder`` of the effects target (``grader.proxy.oracle.link``)."""
    known = catalogue()
    if isinstance(value, known.clause):
        name = known.statement_name(value)
        if name is None:
            raise OracleBug(f"a statement the conversation cannot name: {str(value)[:200]}")
        return {"$stmt": name}
    if isinstance(value, type) and value in known.model_names:
        return {"$model": known.model_names[value]}
    if isinstance(value, known.base) and type(value) in known.model_names:
        fields = {k: v for k, v in vars(value).items() if not k.startswith("_")}
        return {
            "$new": known.model_names[type(value)],
            "id": link.new_object_id(value),
            "values": link.encode(fields, depth + 1),
        }
    return NOT_MINE
