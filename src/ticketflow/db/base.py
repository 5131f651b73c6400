"""The declarative base every ticketflow model shares."""

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """``Base.metadata.create_all(engine)`` creates every ticketflow table."""
