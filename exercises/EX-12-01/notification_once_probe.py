"""EX-12-01: deliver the same event twice; it must take effect exactly once.

Run from the course root:  python exercises/EX-12-01/notification_once_probe.py
Check it:                  grader check EX-12-01
"""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

# TODO(EX-12-01): 在这里写你的代码，要求见 README.md。
raise NotImplementedError("EX-12-01: 尚未完成")
