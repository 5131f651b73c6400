from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once
import unittest


class InjectedFailure(RuntimeError):
    pass


class AtomicTest(unittest.TestCase):
    def setUp(self):
        self.engine = create_engine_from_url("sqlite://")
        Base.metadata.create_all(self.engine)
        self.armed = True
        event.listen(self.engine, "before_cursor_execute", self.maybe_fail)

    def maybe_fail(self, conn, cursor, statement, parameters, context, executemany):
        if self.armed and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            self.armed = False
            raise InjectedFailure("store down")

    def rows(self):
        with Session(self.engine) as s:
            return (
                s.query(NotificationReceipt).count(),
                s.query(BusinessTask).count(),
            )

    def test_failure_then_redelivery_then_duplicate(self):
        tx = SqlAlchemyEffectTransaction(self.engine)
        env = EventEnvelope(event_id="evt-ut13", event_type="ticket.assigned", payload={})
        with self.assertRaises(InjectedFailure):
            apply_notification_once(env, tx)
        self.assertEqual(self.rows(), (0, 0))
        self.assertIs(apply_notification_once(env, tx), True)
        self.assertEqual(self.rows(), (1, 1))
        self.assertIs(apply_notification_once(env, tx), False)
        self.assertEqual(self.rows(), (1, 1))


if __name__ == "__main__":
    unittest.main()
