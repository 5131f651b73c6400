"""A unit of work over a SQLAlchemy session: it rolls back unless committed."""

from __future__ import annotations

from types import TracebackType

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker


class SqlAlchemyEffectTransaction:
    """One database transaction per ``with`` block.

    >>> with transaction as uow:          # doctest: +SKIP
    ...     uow.session.add(row)
    ...     uow.commit()

    Leaving the block without ``commit()`` — normally or through an exception — rolls
    everything back. The object can be entered again for the next transaction, but not
    while it is already open (that would silently share one transaction).
    """

    def __init__(self, session_factory: sessionmaker[Session] | Engine) -> None:
        if isinstance(session_factory, Engine):
            session_factory = sessionmaker(bind=session_factory, expire_on_commit=False)
        if not callable(session_factory):
            raise TypeError("session_factory must be a sessionmaker or an Engine")
        self._session_factory = session_factory
        self._session: Session | None = None
        self._committed = False

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

    def __enter__(self) -> SqlAlchemyEffectTransaction:
        if self._session is not None:
            raise RuntimeError("this unit of work is already open; nested use is not allowed")
        self._session = self._session_factory()
        self._committed = False
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        session, self._session = self._session, None
        if session is None:
            return
        try:
            if not self._committed:
                session.rollback()
        finally:
            session.close()

    def commit(self) -> None:
        self.session.commit()
        self._committed = True

    def rollback(self) -> None:
        self.session.rollback()
        self._committed = False
