"""Functions under test: each declared ONCE, here (see "Adding an exercise" in grader/README.md).

A ``Target`` says which real function a code exercise's probe is judged against, where its
stand-ins (twins and mutants, ``grader/variants/<name>.py``) are, what the fork server must
preload for a probe of it, and how the proxy records its calls. Exercise specs name a
target; the grader's flow, the oracle (which runs the implementations), the proxy's prelude
and the verdict all read this declaration instead of keeping their own tables.

Plain data, stdlib only: it is imported by the trusted prelude inside the sandbox too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

VARIANTS_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Target:
    """One function under test.

    ``module`` and ``function`` (a qualified name: ``"Class.method"`` or ``"function"``)
    locate the real code. ``stand_ins``: the file whose top-level functions are the twins
    and mutants (loaded only by ``grader.proxy.oracle``, never in a run's ancestry). ``preload``:
    modules the fork server imports once for every probe of this target (entries
    ``"module:function"`` are warm-ups called there once). ``instrument``:
    ``"module:function"`` of a dedicated recording proxy in ``grader.proxy.child``; empty means
    the generic one, which forwards and records each call's plain arguments and result.
    ``question_keys``: the recorded fields that identify one question asked of the function
    (to compare the answers two runs got). ``pure``: every implementation of the target
    (the real one, each twin, each mutant) answers a call from its facts alone, keeps no
    state between calls and operates on none of the student's objects; a run may then
    reuse the answer to facts it already asked about (``grader.proxy.child.conversation``).
    ``tests/unit/grader/proxy/test_pure_targets.py`` checks it for every implementation.
    """

    name: str
    module: str
    function: str
    stand_ins: Path
    preload: tuple[str, ...] = ()
    instrument: str = ""
    question_keys: tuple[str, ...] = ("args",)
    pure: bool = False
    #: The recorded name of the function (``calls_of(records, target.recorded)``).
    recorded: str = field(default="")

    @property
    def real_name(self) -> str:
        """The bare name of the real function."""
        return self.function.rsplit(".", 1)[-1]

    @property
    def recorded_function(self) -> str:
        return self.recorded or self.function

    def to_json(self) -> dict[str, Any]:
        """What the prelude in the sandbox needs (nothing about the stand-ins)."""
        return {
            "name": self.name,
            "module": self.module,
            "function": self.function,
            "instrument": self.instrument,
            "pure": self.pure,
        }


#: The light part of ticketflow's public API (no Celery, no SQLAlchemy at import), loaded for
#: every exercise: ticketflow's source is hidden from the run (no fresh-copy oracle), so a
#: module that is not preloaded cannot be imported there. The modules that import SQLAlchemy
#: (``ticketflow.db``, ``ticketflow.messaging.outbox``, ``ticketflow.notifications.*``) come
#: with the effects target; the Celery edge (``ticketflow.workers.app``, ``bootstrap``,
#: ``celery_task``) with none: no exercise probes a Celery app.
TICKETFLOW_LIGHT = (
    "ticketflow.messaging.envelope",
    "ticketflow.workers.policy",
    "ticketflow.workers.tasks",
)

POLICY = Target(
    name="policy",
    module="ticketflow.workers.policy",
    function="BoundedRetryPolicy.decision",
    stand_ins=VARIANTS_DIR / "policy.py",
    preload=("ticketflow.workers.tasks",),
    instrument="grader.proxy.child.policy:instrument_policy",
    question_keys=("error_type", "retries_so_far"),
    pure=True,
)

EFFECTS = Target(
    name="effects",
    module="ticketflow.notifications.effects",
    function="apply_notification_once",
    stand_ins=VARIANTS_DIR / "effects.py",
    preload=(
        "sqlite3",
        "sqlalchemy",
        "sqlalchemy.orm",
        "sqlalchemy.dialects.sqlite",
        "sqlalchemy.dialects.sqlite.pysqlite",
        "ticketflow.db",
        "ticketflow.messaging.outbox",
        "ticketflow.notifications.effects",
        "grader.proxy.child.warm_effects:warm_up",  # last: it runs a probe-like warm-up in the host
    ),
    instrument="grader.proxy.child.effects:instrument_effects",
    question_keys=("event_id",),
)

TARGETS: dict[str, Target] = {target.name: target for target in (POLICY, EFFECTS)}


def get_target(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        raise ValueError(
            f"unknown function under test {name!r}: declare it in grader/variants/targets.py"
        ) from None
