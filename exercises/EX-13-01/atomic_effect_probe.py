"""EX-13-01: a failure between receipt and effect must leave neither behind.

Run from the course root:  python exercises/EX-13-01/atomic_effect_probe.py
Check it:                  grader check EX-13-01
"""

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

# TODO(EX-13-01): 在这里写你的代码，要求见 README.md。
raise NotImplementedError("EX-13-01: 尚未完成")
