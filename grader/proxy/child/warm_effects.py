"""A warm-up for the fork-server host of the effects exercises.

Listed as the preload entry ``"grader.proxy.child.warm_effects:warm_up"``: the host calls it
once before it forks any run. It performs the steps a probe performs (in-memory SQLite,
``create_all``, two deliveries, two counts) so every forked run starts with the mappers
configured and SQLAlchemy's lazily imported internals loaded: about 100 ms less per run,
which is most of a run. Nothing it creates survives: the engine is disposed and the
database was in memory.
"""

from __future__ import annotations


def warm_up() -> None:
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session, configure_mappers

    from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
    from ticketflow.messaging.envelope import EventEnvelope
    from ticketflow.notifications.effects import (
        SqlAlchemyEffectTransaction,
        apply_notification_once,
    )

    configure_mappers()
    engine = create_engine_from_url("sqlite://")
    try:
        Base.metadata.create_all(engine)
        transaction = SqlAlchemyEffectTransaction(engine)
        envelope = EventEnvelope(event_id="warm-up", event_type="warm.up", payload={})
        apply_notification_once(envelope, transaction)
        apply_notification_once(envelope, transaction)
        with Session(engine) as session:
            for model in (NotificationReceipt, BusinessTask):
                session.scalar(select(func.count()).select_from(model))
            session.query(BusinessTask).filter_by(event_id="warm-up").first()
    finally:
        engine.dispose()
