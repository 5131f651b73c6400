from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


def main() -> None:
    engine = create_engine_from_url("sqlite://")
    Base.metadata.create_all(engine)
    tx = SqlAlchemyEffectTransaction(engine)
    env = EventEnvelope(event_id="evt-main", event_type="ticket.assigned", payload={"ticket_id": 8})
    first = apply_notification_once(env, tx)
    second = apply_notification_once(env, tx)
    if first is not True or second is not False:
        raise SystemExit(f"returned {first!r}, {second!r}")
    with Session(engine) as session:
        receipts = session.scalar(select(func.count()).select_from(NotificationReceipt))
        tasks = session.scalar(select(func.count()).select_from(BusinessTask))
    if (receipts, tasks) != (1, 1):
        raise SystemExit(f"{receipts} receipts, {tasks} tasks")
    print("exactly once:", first, second, receipts, tasks)


if __name__ == "__main__":
    main()
