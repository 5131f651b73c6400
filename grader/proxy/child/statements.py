"""The SQLAlchemy things the oracle may name, and how the student's process rebuilds them.

A statement the implementation executes travels as a NAME (``{"$stmt": name}``) and is
rebuilt here from the student's own ticketflow, exactly as the real code builds it: the
same cached objects (``ticketflow.notifications.statements``: ``BUSINESS_TASK_INSERT``,
``receipt_upsert("sqlite")``), the same
tables. So a probe that hooks ``before_execute`` or compares ``statement.table`` with
``BusinessTask.__table__`` sees what it would see if the real function ran in its process.
The oracle maps the statements its implementation builds to these names by their SQL text
(``grader.proxy.oracle.statements``); a statement that has no name here is a grader bug.

Each is looked up when a statement is rebuilt, in the student's process, so what the probe
sees is what its own ticketflow holds at that moment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def statement_builders() -> dict[str, Callable[[], Any]]:
    from sqlalchemy import insert

    from ticketflow.notifications import statements as real

    return {
        "receipt_upsert:sqlite": lambda: real.receipt_upsert("sqlite"),
        "receipt_upsert:postgresql": lambda: real.receipt_upsert("postgresql"),
        "receipt_insert": lambda: insert(real.RECEIPTS),
        "business_task_insert": lambda: real.BUSINESS_TASK_INSERT,
    }


def models() -> dict[str, type]:
    from ticketflow.db.models import BusinessTask, NotificationReceipt

    return {"BusinessTask": BusinessTask, "NotificationReceipt": NotificationReceipt}


def rebuilders() -> dict[str, Callable[[Any, Any], Any]]:
    """``Conversation`` rebuilders for ``$stmt``, ``$model`` and ``$new`` (bound now: the
    student's process drops ``grader`` modules before the probe runs)."""
    from grader.proxy.child.conversation import GraderConnectionLost

    builders, classes = statement_builders(), models()

    def statement(value: Any, conversation: Any) -> Any:
        build = builders.get(value["$stmt"]) if type(value["$stmt"]) is str else None
        if build is None:
            raise GraderConnectionLost("unknown statement")
        return build()

    def model(value: Any, conversation: Any) -> Any:
        found = classes.get(value["$model"]) if type(value["$model"]) is str else None
        if found is None:
            raise GraderConnectionLost("unknown model")
        return found

    def new(value: Any, conversation: Any) -> Any:
        cls = classes.get(value["$new"]) if type(value["$new"]) is str else None
        fields = conversation.decode(value.get("values"))
        if cls is None or type(fields) is not dict:
            raise GraderConnectionLost("malformed $new")
        return conversation.built(value.get("id"), lambda: cls(**fields))

    return {"$stmt": statement, "$model": model, "$new": new}
