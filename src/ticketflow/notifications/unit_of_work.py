"""The unit of work: one database transaction per ``with`` block, rolled back unless committed.

The effects (``apply_notification_once``), the outbox relay and the dead-letter sink all
write through a ``UnitOfWork``, never through a session they open themselves:

>>> with uow:                             # doctest: +SKIP
...     uow.session.add(row)
...     uow.commit()

``UnitOfWork`` is the abstract base: it owns the rules (leaving the block without
``commit()``, normally or through an exception, rolls everything back; a unit of work that
is already open refuses to be entered again, which would silently share one transaction).
A subclass supplies only how a session begins and ends: ``SqlAlchemyUnitOfWork`` opens a
SQLAlchemy session; a fake in a test or a lesson can keep rows in a list.
"""

from __future__ import annotations

import abc
from types import TracebackType
from typing import Self

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["SqlAlchemyUnitOfWork", "UnitOfWork"]


class UnitOfWork(abc.ABC):
    """Enter, work through ``session``, ``commit()``; anything else rolls back."""

    def __init__(self) -> None:
        self._open = False
        self._committed = False

    def __enter__(self) -> Self:
        if self._open:
            raise RuntimeError("this unit of work is already open; nested use is not allowed")
        self._begin()
        self._open, self._committed = True, False
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not self._open:
            return
        self._open = False
        try:
            if not self._committed:
                self._rollback()
        finally:
            self._end()

    def commit(self) -> None:
        self._require_open()
        self._commit()
        self._committed = True

    def rollback(self) -> None:
        self._require_open()
        self._rollback()
        self._committed = False

    def _require_open(self) -> None:
        if not self._open:
            raise RuntimeError("the unit of work is not open: use it in a 'with' block")

    # -- what a subclass supplies ------------------------------------------------------------
    @property
    @abc.abstractmethod
    def session(self) -> Session:
        """The session of the open transaction."""

    @abc.abstractmethod
    def _begin(self) -> None:
        """Start a transaction."""

    @abc.abstractmethod
    def _commit(self) -> None:
        """Make the transaction's writes permanent."""

    @abc.abstractmethod
    def _rollback(self) -> None:
        """Undo the transaction's writes."""

    @abc.abstractmethod
    def _end(self) -> None:
        """Release what ``_begin`` took (after a commit or a rollback)."""


class SqlAlchemyUnitOfWork(UnitOfWork):
    """A unit of work over a SQLAlchemy session, one new session per ``with`` block."""

    def __init__(self, session_factory: sessionmaker[Session] | Engine) -> None:
        super().__init__()
        if isinstance(session_factory, Engine):
            session_factory = sessionmaker(bind=session_factory, expire_on_commit=False)
        if not isinstance(session_factory, sessionmaker):
            raise TypeError("session_factory must be a sessionmaker or an Engine")
        self._session_factory = session_factory
        self._session: Session | None = None

    @property
    def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("the unit of work is not open: use it in a 'with' block")
        return self._session

    @property
    def bind(self) -> Engine:
        """The engine this unit of work's sessions are bound to."""
        bind = self._session_factory.kw.get("bind")
        if not isinstance(bind, Engine):
            raise RuntimeError("the session factory is not bound to an Engine")
        return bind

    def _begin(self) -> None:
        self._session = self._session_factory()

    def _commit(self) -> None:
        self.session.commit()

    def _rollback(self) -> None:
        self.session.rollback()

    def _end(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            session.close()
