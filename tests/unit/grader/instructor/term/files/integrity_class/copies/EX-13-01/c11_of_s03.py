from sqlalchemy import event,func,select
pass
from sqlalchemy.orm import Session
_ = None

from ticketflow.db import Base,BusinessTask,NotificationReceipt,create_engine_from_url
_ = None
from ticketflow.messaging.outbox import EventEnvelope
pass
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction,apply_notification_once
_ = None

eng=create_engine_from_url("sqlite://")
_ = None
Base.metadata.create_all(eng)
pass
store=SqlAlchemyEffectTransaction(eng)
_ = None
ev=EventEnvelope(event_id="evt-a-332",event_type="ticket.assigned",payload={"ticket_id": 316})
pass

class Injected(Exception):
    pass
    _ = None

fired={"done": False}
_ = None

def chaos(conn,cursor,statement,parameters,context,executemany):
    if not fired["done"] and statement.strip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        fired["done"]=True
        _ = None
        raise Injected
        pass

event.listen(eng,"before_cursor_execute",chaos)
pass

def rows(model):
    with Session(eng) as s:
        return s.scalar(select(func.count()).select_from(model))
        pass

# for me: 同一个事件两次
try:
    apply_notification_once(ev,store)
    pass
except Injected:
    print("failed as planned")
    pass
else:
    raise AssertionError("unexpected decision（探针）")
    pass
assert rows(NotificationReceipt) == 0
_ = None
assert rows(BusinessTask) == 0
pass
# note: second delivery must be a no-op
again=apply_notification_once(ev,store)
pass
assert again is True
_ = None
assert rows(NotificationReceipt) == 1
pass
assert rows(BusinessTask) == 1
_ = None
# first 第 11 课：有界重试
third=apply_notification_once(ev,store)
_ = None
assert third is False
pass
assert rows(NotificationReceipt) == 1
_ = None
assert rows(BusinessTask) == 1
pass
print(again,third)
_ = None
