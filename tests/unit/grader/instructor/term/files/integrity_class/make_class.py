# ruff: noqa: E501  (the templates hold students' lines, as long as students write them)
"""Writes the integrity class: honest probes of EX-11-01, EX-12-01 and EX-13-01 in many
styles (``honest/``), and disguised copies of some of them (``copies/``).

Run it from the repository root to regenerate the committed files:
    python tests/unit/grader/instructor/term/files/integrity_class/make_class.py
Each honest probe is one student's: a style (unrolled, loop, helper, unittest, pytest-style,
dict of cases ...) with that student's own names, messages and comments, drawn from pools
wide enough that two students rarely pick the same, and narrow enough that some do (as in
a real class). A copy takes one honest probe and disguises it the ways copiers do: no-op
padding, split asserts, reordered cases, renamed variables, new comments, re-spacing.
"""

from __future__ import annotations

import random
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).parent
IMPORT_11 = "from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError\n"
IMPORT_12 = (
    "from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url\n"
    "from ticketflow.messaging.outbox import EventEnvelope\n"
    "from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, "
    "apply_notification_once\n"
)
CASES_11 = [
    ('RetryableTaskError("temporary")', 0, (True, 5, False)),
    ('RetryableTaskError("temporary")', 1, (True, 10, False)),
    ('RetryableTaskError("temporary")', 2, (False, None, True)),
    ('ValueError("invalid")', 0, (False, None, True)),
]
POOLS = {
    "policy": [
        "policy",
        "p",
        "retry_policy",
        "bounded",
        "pol",
        "rp",
        "the_policy",
        "brp",
        "my_policy",
        "retrier",
        "bp",
        "policy_under_test",
        "策略",
        "rule",
        "limiter",
    ],
    "dec": [
        "d",
        "decision",
        "dec",
        "outcome",
        "verdict",
        "res",
        "answer",
        "got",
        "r",
        "ruling",
        "choice",
        "what",
        "resp",
        "决定",
        "rd",
    ],
    "cases": [
        "cases",
        "table",
        "rows",
        "scenarios",
        "examples",
        "plan",
        "checks",
        "vectors",
        "expectations",
        "EXPECTED",
        "CASES",
        "fixtures",
        "用例",
        "spec",
        "matrix",
    ],
    "helper": [
        "check",
        "probe",
        "verify",
        "expect_decision",
        "run_case",
        "assert_case",
        "one",
        "try_case",
        "check_row",
        "expect",
        "confirm",
        "case",
        "do_case",
        "判断",
        "test_one",
    ],
    "var": [
        "seen",
        "triple",
        "row",
        "fields",
        "observed",
        "tup",
        "actual",
        "trio",
        "got3",
        "vals",
        "as_tuple",
        "result3",
        "summary",
        "parts",
        "line",
    ],
    "loop": ["exc", "error", "err", "e", "exception", "problem", "ex", "boom", "failure_kind"],
    "method": [
        "test_case_{i}",
        "test_{i}",
        "test_row_{i}",
        "test_{w}",
        "test_decision_{i}",
        "test_{w}_case",
        "test_n{i}",
        "test_it_{w}",
    ],
    "engine": [
        "engine",
        "eng",
        "db",
        "sqlite_engine",
        "e",
        "mem_engine",
        "database",
        "引擎",
        "the_engine",
        "sql_engine",
    ],
    "tx": [
        "transaction",
        "tx",
        "txn",
        "effect_tx",
        "store",
        "uow",
        "effects",
        "trans",
        "t",
        "事务",
        "sink",
    ],
    "env": [
        "envelope",
        "env",
        "event",
        "evt",
        "message",
        "msg_env",
        "the_event",
        "note",
        "ev",
        "信封",
        "incoming",
        "delivery",
    ],
    "count": [
        "counts",
        "count_rows",
        "row_counts",
        "how_many",
        "tally",
        "snapshot",
        "totals",
        "rows_now",
        "state_of_db",
        "numbers",
        "both_counts",
        "行数",
    ],
    "fail": [
        "InjectedFailure",
        "Boom",
        "FakeOutage",
        "StoreDown",
        "Injected",
        "EffectLost",
        "Kaboom",
        "Simulated",
        "DiskGone",
        "ChaosError",
        "注入异常",
        "PlannedCrash",
    ],
    "flag": [
        "failures_left",
        "armed",
        "state",
        "remaining",
        "budget",
        "to_fail",
        "pending",
        "first_time",
        "shots",
        "fuse",
        "once",
    ],
    "listener": [
        "fail_once",
        "break_first_insert",
        "inject",
        "sabotage",
        "explode_once",
        "hook",
        "chaos",
        "on_sql",
        "interrupt",
        "trip",
        "crash_business_insert",
        "刺",
    ],
    "cls": [
        "RetryTable",
        "PolicyProbe",
        "TestPolicy",
        "BoundedCases",
        "Probe11",
        "OnceTest",
        "DeliveryTwice",
        "Probe12",
        "NotificationOnce",
        "AtomicTest",
        "Probe13",
        "ReceiptAndEffect",
        "AllOrNothing",
        "FailOnce",
        "Saboteur",
        "OneShot",
        "Injector",
        "Breaker",
        "MyTests",
        "Homework",
        "Checks",
        "Lab",
        "Suite",
        "Case",
    ],
}
COMMENTS = [
    "# 第 11 课：有界重试",
    "# probe for the retry table",
    "# 四个用例",
    "# check every field",
    "# my probe",
    "# 先建策略",
    "# expected values from the README",
    "# 逐项断言",
    "# print the table at the end",
    "# 死信检查",
    "# one line per case",
    "# 作业 11-01",
    "# deliver twice",
    "# 检查行数",
    "# the receipt decides",
    "# 同一个事件两次",
    "# inject a failure",
    "# 原子性",
    "# nothing left after the failure",
    "# redelivery",
    "# TODO tidy up",
    "# see lesson notes",
    "# 这里是重点",
    "# from the table",
    "# step 1",
    "# step 2",
    "# done",
    "# 参考第 12 课",
    "# 注意 countdown 是 None",
    "# setup",
    "# now the real test",
    "# 最后打印",
    "# second delivery must be a no-op",
    "# 数据库",
]
MESSAGES = [
    "unexpected decision",
    "wrong result",
    "mismatch",
    "bad value for case",
    "决定不对",
    "结果不符",
    "not what the table says",
    "check failed",
    "错误",
    "policy is wrong",
    "expected something else",
    "table row differs",
    "不一致",
    "oops",
]


def message(rng: random.Random) -> str:
    """Each student's own assertion message: a pool phrase, in the student's own words."""
    return f"{rng.choice(MESSAGES)}{rng.choice(['', '!', ' :(', ' -', ' here', '（探针）', '?', ' ->'])}"


def pick(rng: random.Random, pool: str) -> str:
    return rng.choice(POOLS[pool])


def name(rng: random.Random, pool: str, **fill: object) -> str:
    return rng.choice(POOLS[pool]).format(**fill)


OPENERS = [
    "",
    "note:",
    "NB",
    "here",
    "ok so",
    "注意",
    "这里",
    "then",
    "first",
    "later",
    "for me:",
    "idea:",
    "reminder:",
    "提示",
    "why:",
]


def comments(rng: random.Random, n: int) -> list[str]:
    """Each student's own comments: a pool phrase with the student's own opener."""
    return [
        f"# {rng.choice(OPENERS)} {c[2:]}".replace("#  ", "# ") for c in rng.sample(COMMENTS, n)
    ]


def _tuple(t: tuple[object, ...]) -> str:
    return "(" + ", ".join(repr(x) for x in t) + ")"


# --- EX-11-01 ------------------------------------------------------------------------------


def ex11_unrolled_fields(rng: random.Random) -> str:
    p, d = pick(rng, "policy"), pick(rng, "dec")
    c = comments(rng, 2)
    out = [IMPORT_11, c[0], f"{p} = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)", ""]
    for error, n, (retry, countdown, dead) in CASES_11:
        out.append(f"{d} = {p}.decision({error}, retries_so_far={n})")
        out.append(f"assert {d}.retry is {retry}")
        if countdown is None:
            out.append(f"assert {d}.countdown_seconds is None")
        else:
            out.append(f"assert {d}.countdown_seconds == {countdown}")
        out.append(f"assert {d}.dead_letter is {dead}")
        name = error.split("(")[0]
        out.append(f'print("{name}", {n}, {d}.retry, {d}.countdown_seconds, {d}.dead_letter)')
        out.append("")
    out.insert(3, c[1])
    return "\n".join(out) + "\n"


def ex11_unrolled_tuples(rng: random.Random) -> str:
    p, d = pick(rng, "policy"), pick(rng, "dec")
    m = message(rng)
    c = comments(rng, 1)
    seen = pick(rng, "var")
    out = [IMPORT_11, f"{p} = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)", c[0]]
    for error, n, expected in CASES_11:
        kind = error.split("(")[0]
        out += [
            f"{d} = {p}.decision({error}, retries_so_far={n})",
            f"{seen} = ({d}.retry, {d}.countdown_seconds, {d}.dead_letter)",
            f'assert {seen} == {_tuple(expected)}, "{m}: " + str({seen})',
            f'print("{kind} {n}", *{seen})',
        ]
    return "\n".join(out) + "\n"


def ex11_loop(rng: random.Random) -> str:
    p, d, cs = pick(rng, "policy"), pick(rng, "dec"), pick(rng, "cases")
    lp, tr = pick(rng, "loop"), pick(rng, "var")
    m = message(rng)
    c = comments(rng, 2)
    rows = "\n".join(f"    ({e}, {n}, {_tuple(x)})," for e, n, x in CASES_11)
    return (
        f"{IMPORT_11}\n{c[0]}\n{p} = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)\n"
        f"{cs} = [\n{rows}\n]\n{c[1]}\n"
        f"for {lp}, n, want in {cs}:\n"
        f"    {d} = {p}.decision({lp}, retries_so_far=n)\n"
        f"    {tr} = ({d}.retry, {d}.countdown_seconds, {d}.dead_letter)\n"
        f'    assert {tr} == want, f"{m} {{{lp}!r}} {{n}}: {{{tr}}}"\n'
        f"    print(type({lp}).__name__, n, *{tr})\n"
    )


def ex11_helper(rng: random.Random) -> str:
    p, h = pick(rng, "policy"), pick(rng, "helper")
    m = message(rng)
    c = comments(rng, 1)
    calls = "\n".join(f"{h}({e}, {n}, {x[0]}, {x[1]!r}, {x[2]})" for e, n, x in CASES_11)
    return (
        f"{IMPORT_11}\n{p} = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)\n\n\n"
        f"def {h}(error, n, retry, countdown, dead):\n"
        f"    {c[0]}\n"
        f"    result = {p}.decision(error, retries_so_far=n)\n"
        f'    assert result.retry is retry, "{m} (retry)"\n'
        f'    assert result.countdown_seconds == countdown, "{m} (countdown)"\n'
        f"    if countdown is None:\n"
        f"        assert result.countdown_seconds is None\n"
        f'    assert result.dead_letter is dead, "{m} (dead letter)"\n'
        f"    print(type(error).__name__, n, result.retry, result.countdown_seconds, result.dead_letter)\n\n\n"
        f"{calls}\n"
    )


def ex11_unittest(rng: random.Random) -> str:
    p = pick(rng, "policy")
    cls = pick(rng, "cls")
    c = comments(rng, 1)
    methods = []
    words = ["first", "second", "exhausted", "value_error"]
    pattern = pick(rng, "method")
    for i, (e, n, x) in enumerate(CASES_11):
        methods.append(
            f"    def {pattern.format(i=i, w=words[i])}(self):\n"
            f"        d = self.{p}.decision({e}, retries_so_far={n})\n"
            f"        self.assertEqual((d.retry, d.countdown_seconds, d.dead_letter), {_tuple(x)})\n"
            f'        print(type({e}).__name__ if False else "{e.split("(")[0]}", {n}, d.retry, d.countdown_seconds, d.dead_letter)\n'
        )
    return (
        f"import unittest\n\n{IMPORT_11}\n\nclass {cls}(unittest.TestCase):\n    {c[0]}\n"
        f"    def setUp(self):\n        self.{p} = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)\n\n"
        + "\n".join(methods)
        + "\n\nresult = unittest.main(exit=False, verbosity=0).result\n"
        "assert result.wasSuccessful()\n"
    )


def ex11_pytest_style(rng: random.Random) -> str:
    p = pick(rng, "policy")
    prefix = rng.choice(["test_", "check_", "case_"])
    c = comments(rng, 2)
    funcs, names = [], []
    for i, (e, n, x) in enumerate(CASES_11):
        fname = f"{prefix}{['first', 'second', 'exhausted', 'value_error'][i]}"
        names.append(fname)
        funcs.append(
            f"def {fname}():\n"
            f"    decision = {p}.decision({e}, retries_so_far={n})\n"
            f"    assert decision.retry == {x[0]}\n"
            f"    assert decision.countdown_seconds == {x[1]!r}\n"
            f"    assert decision.dead_letter == {x[2]}\n"
            f"    return decision\n"
        )
    body = "\n\n".join(funcs)
    runs = "\n".join(
        f'd = {f}()\nprint("{e.split("(")[0]}", {n}, d.retry, d.countdown_seconds, d.dead_letter)'
        for f, (e, n, _x) in zip(names, CASES_11, strict=True)
    )
    return (
        f"{IMPORT_11}\n{c[0]}\n{p} = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)\n\n\n"
        f"{body}\n\n{c[1]}\n{runs}\n"
    )


def ex11_dict(rng: random.Random) -> str:
    p, cs = pick(rng, "policy"), pick(rng, "cases")
    k, row = rng.choice(["kind", "name", "cls_name", "label", "which", "etype"]), pick(rng, "var")
    m = message(rng)
    rows = "\n".join(f'    ("{e.split("(")[0]}", {n}): {_tuple(x)},' for e, n, x in CASES_11)
    return (
        f'{IMPORT_11}\nerrors = {{\n    "RetryableTaskError": RetryableTaskError("temporary"),\n'
        f'    "ValueError": ValueError("invalid"),\n}}\n'
        f"{cs} = {{\n{rows}\n}}\n"
        f"{p} = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)\n"
        f"for ({k}, n), want in {cs}.items():\n"
        f"    got = {p}.decision(errors[{k}], retries_so_far=n)\n"
        f"    {row} = (got.retry, got.countdown_seconds, got.dead_letter)\n"
        f"    if {row} != want:\n"
        f'        raise AssertionError("{m}: %s %s %r" % ({k}, n, {row}))\n'
        f'    print({k}, n, " ".join(str(v) for v in {row}))\n'
    )


# --- EX-12-01 ------------------------------------------------------------------------------


def _env(rng: random.Random, name: str) -> str:
    evt = f"evt-{rng.choice(['a', 'x', 'probe', 'hw', 'twice', 'dup', 'ex12', 'one'])}-{rng.randint(1, 999)}"
    tid = rng.randint(1, 500)
    if rng.random() < 0.5:
        return f'{name} = EventEnvelope("{evt}", "ticket.assigned", {{"ticket_id": {tid}}})'
    return (
        f'{name} = EventEnvelope(event_id="{evt}", event_type="ticket.assigned", '
        f'payload={{"ticket_id": {tid}}})'
    )


def ex12_plain(rng: random.Random) -> str:
    e, t, v = pick(rng, "engine"), pick(rng, "tx"), pick(rng, "env")
    c = comments(rng, 2)
    split = rng.random() < 0.5
    check = (
        "assert first is True\nassert second is False\n"
        if split
        else "assert (first, second) == (True, False), (first, second)\n"
    )
    return (
        "from sqlalchemy import func, select\nfrom sqlalchemy.orm import Session\n\n"
        f'{IMPORT_12}\n{e} = create_engine_from_url("sqlite://")\nBase.metadata.create_all({e})\n'
        f"{t} = SqlAlchemyEffectTransaction({e})\n{_env(rng, v)}\n{c[0]}\n"
        f"first = apply_notification_once({v}, {t})\nsecond = apply_notification_once({v}, {t})\n"
        f"{check}{c[1]}\n"
        f"with Session({e}) as s:\n"
        f"    n_receipts = s.scalar(select(func.count()).select_from(NotificationReceipt))\n"
        f"    n_tasks = s.scalar(select(func.count()).select_from(BusinessTask))\n"
        f"assert n_receipts == 1\nassert n_tasks == 1\nprint(first, second, n_receipts, n_tasks)\n"
    )


def ex12_raw_sql(rng: random.Random) -> str:
    e, t, v = pick(rng, "engine"), pick(rng, "tx"), pick(rng, "env")
    m = message(rng)
    return (
        "import sqlalchemy as sa\n\n"
        f'{IMPORT_12}\n{e} = sa.create_engine("sqlite://")\nBase.metadata.create_all({e})\n'
        f"{t} = SqlAlchemyEffectTransaction({e})\n{_env(rng, v)}\n"
        f"outcomes = [apply_notification_once({v}, {t}) for _ in range(2)]\n"
        f'assert outcomes == [True, False], "{m}"\n'
        f"with {e}.connect() as c:\n"
        f'    r = c.execute(sa.text("select count(*) from notification_receipts")).scalar_one()\n'
        f'    b = c.execute(sa.text("select count(*) from business_tasks")).scalar_one()\n'
        f'assert r == 1, f"receipts: {{r}}"\nassert b == 1, f"tasks: {{b}}"\nprint(*outcomes, r, b)\n'
    )


def ex12_helper(rng: random.Random) -> str:
    e, t, v, cn = pick(rng, "engine"), pick(rng, "tx"), pick(rng, "env"), pick(rng, "count")
    c = comments(rng, 1)
    return (
        "from sqlalchemy import func, select\nfrom sqlalchemy.orm import Session\n\n"
        f"{IMPORT_12}\n\ndef {cn}({e}):\n    {c[0]}\n    with Session({e}) as session:\n"
        f"        return tuple(\n            session.scalar(select(func.count()).select_from(model))\n"
        f"            for model in (NotificationReceipt, BusinessTask)\n        )\n\n\n"
        f'{e} = create_engine_from_url("sqlite://")\nBase.metadata.create_all({e})\n'
        f"{t} = SqlAlchemyEffectTransaction({e})\n{_env(rng, v)}\n"
        f"assert apply_notification_once({v}, {t}) is True\n"
        f"assert apply_notification_once({v}, {t}) is False\n"
        f"assert {cn}({e}) == (1, 1), {cn}({e})\nprint(True, False, *{cn}({e}))\n"
    )


def ex12_unittest(rng: random.Random) -> str:
    t, v = pick(rng, "tx"), pick(rng, "env")
    cls = pick(rng, "cls")
    return (
        "import unittest\n\nfrom sqlalchemy import func, select\nfrom sqlalchemy.orm import Session\n\n"
        f"{IMPORT_12}\n\nclass {cls}(unittest.TestCase):\n"
        f'    def test_twice(self):\n        engine = create_engine_from_url("sqlite://")\n'
        f"        Base.metadata.create_all(engine)\n        {t} = SqlAlchemyEffectTransaction(engine)\n"
        f"        {_env(rng, v)}\n"
        f"        self.assertIs(apply_notification_once({v}, {t}), True)\n"
        f"        self.assertIs(apply_notification_once({v}, {t}), False)\n"
        f"        with Session(engine) as s:\n"
        f"            self.assertEqual(s.scalar(select(func.count()).select_from(NotificationReceipt)), 1)\n"
        f"            self.assertEqual(s.scalar(select(func.count()).select_from(BusinessTask)), 1)\n"
        f"        print(True, False, 1, 1)\n\n\n"
        f"outcome = unittest.main(exit=False).result\nassert outcome.wasSuccessful()\n"
    )


def ex12_orm_query(rng: random.Random) -> str:
    e, t, v = pick(rng, "engine"), pick(rng, "tx"), pick(rng, "env")
    c = comments(rng, 2)
    m = message(rng)
    return (
        "from sqlalchemy.orm import Session\n\n"
        f'{IMPORT_12}\n{c[0]}\n{e} = create_engine_from_url("sqlite://")\nBase.metadata.create_all({e})\n'
        f"{t} = SqlAlchemyEffectTransaction({e})\n{_env(rng, v)}\n\n"
        f"returned = []\nfor attempt in range(2):\n    returned.append(apply_notification_once({v}, {t}))\n"
        f"{c[1]}\nwith Session({e}) as session:\n"
        f"    receipts = session.query(NotificationReceipt).all()\n"
        f"    tasks = session.query(BusinessTask).all()\n"
        f'assert returned[0] is True and returned[1] is False, "{m}"\n'
        f"assert len(receipts) == 1 and len(tasks) == 1\nprint(*returned, len(receipts), len(tasks))\n"
    )


# --- EX-13-01 ------------------------------------------------------------------------------

HEAD_13 = "from sqlalchemy import event, func, select\nfrom sqlalchemy.orm import Session\n\n"


def ex13_list_flag(rng: random.Random) -> str:
    e, t, v = pick(rng, "engine"), pick(rng, "tx"), pick(rng, "env")
    f, fl, ls, cn = pick(rng, "fail"), pick(rng, "flag"), pick(rng, "listener"), pick(rng, "count")
    c = comments(rng, 2)
    m = message(rng)
    return (
        f"{HEAD_13}{IMPORT_12}\n\nclass {f}(Exception):\n    pass\n\n\n"
        f'{e} = create_engine_from_url("sqlite://")\nBase.metadata.create_all({e})\n'
        f"{t} = SqlAlchemyEffectTransaction({e})\n{_env(rng, v)}\n{fl} = [True]\n\n\n"
        f'@event.listens_for({e}, "before_cursor_execute")\n'
        f"def {ls}(conn, cursor, statement, params, context, many):\n"
        f'    if {fl}[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):\n'
        f'        {fl}[0] = False\n        raise {f}("{m}")\n\n\n'
        f"def {cn}():\n    with Session({e}) as s:\n"
        f"        return (\n            s.scalar(select(func.count()).select_from(NotificationReceipt)),\n"
        f"            s.scalar(select(func.count()).select_from(BusinessTask)),\n        )\n\n\n"
        f"{c[0]}\nraised = False\ntry:\n    apply_notification_once({v}, {t})\nexcept {f}:\n    raised = True\n"
        f"assert raised\nassert {cn}() == (0, 0)\n{c[1]}\n"
        f"assert apply_notification_once({v}, {t}) is True\nassert {cn}() == (1, 1)\n"
        f'assert apply_notification_once({v}, {t}) is False\nassert {cn}() == (1, 1)\nprint("ok")\n'
    )


def ex13_class_listener(rng: random.Random) -> str:
    e, t, v = pick(rng, "engine"), pick(rng, "tx"), pick(rng, "env")
    f, cn = pick(rng, "fail"), pick(rng, "count")
    cls = pick(rng, "cls")
    c = comments(rng, 1)
    return (
        f'{HEAD_13}{IMPORT_12}\n\nclass {f}(RuntimeError):\n    """{c[0][2:]}"""\n\n\n'
        f"class {cls}:\n    def __init__(self):\n        self.fired = False\n\n"
        f"    def __call__(self, conn, cursor, statement, parameters, context, executemany):\n"
        f'        if not self.fired and "business_tasks" in statement.lower() and statement.lower().lstrip().startswith("insert"):\n'
        f"            self.fired = True\n            raise {f}()\n\n\n"
        f'{e} = create_engine_from_url("sqlite://")\nBase.metadata.create_all({e})\n'
        f'event.listen({e}, "before_cursor_execute", {cls}())\n'
        f"{t} = SqlAlchemyEffectTransaction({e})\n{_env(rng, v)}\n\n\n"
        f"def {cn}():\n    with Session({e}) as session:\n"
        f"        r = session.scalar(select(func.count()).select_from(NotificationReceipt))\n"
        f"        b = session.scalar(select(func.count()).select_from(BusinessTask))\n    return r, b\n\n\n"
        f'try:\n    apply_notification_once({v}, {t})\n    raise AssertionError("no failure")\n'
        f"except {f}:\n    pass\nassert {cn}() == (0, 0), {cn}()\n"
        f"first, second = apply_notification_once({v}, {t}), apply_notification_once({v}, {t})\n"
        f"assert (first, second) == (True, False)\nassert {cn}() == (1, 1)\nprint(first, second, *{cn}())\n"
    )


def ex13_unittest(rng: random.Random) -> str:
    t, v, f = pick(rng, "tx"), pick(rng, "env"), pick(rng, "fail")
    cls = pick(rng, "cls")
    return (
        f"import unittest\n\n{HEAD_13}{IMPORT_12}\n\nclass {f}(Exception):\n    pass\n\n\n"
        f"class {cls}(unittest.TestCase):\n    def setUp(self):\n"
        f'        self.engine = create_engine_from_url("sqlite://")\n'
        f"        Base.metadata.create_all(self.engine)\n        self.left = 1\n"
        f'        event.listen(self.engine, "before_cursor_execute", self.maybe_fail)\n\n'
        f"    def maybe_fail(self, conn, cursor, statement, *rest):\n"
        f'        if self.left and statement.upper().lstrip().startswith("INSERT INTO BUSINESS_TASKS"):\n'
        f'            self.left -= 1\n            raise {f}("injected")\n\n'
        f"    def rows(self):\n        with Session(self.engine) as s:\n"
        f"            return [s.scalar(select(func.count()).select_from(m)) for m in (NotificationReceipt, BusinessTask)]\n\n"
        f"    def test_atomic(self):\n        {t} = SqlAlchemyEffectTransaction(self.engine)\n"
        f"        {_env(rng, v)}\n"
        f"        with self.assertRaises({f}):\n            apply_notification_once({v}, {t})\n"
        f"        self.assertEqual(self.rows(), [0, 0])\n"
        f"        self.assertTrue(apply_notification_once({v}, {t}) is True)\n"
        f"        self.assertEqual(self.rows(), [1, 1])\n"
        f"        self.assertTrue(apply_notification_once({v}, {t}) is False)\n"
        f"        self.assertEqual(self.rows(), [1, 1])\n\n\n"
        f'res = unittest.main(exit=False).result\nassert res.wasSuccessful()\nprint("atomic")\n'
    )


def ex13_steps(rng: random.Random) -> str:
    e, t, v = pick(rng, "engine"), pick(rng, "tx"), pick(rng, "env")
    f, ls = pick(rng, "fail"), pick(rng, "listener")
    c = comments(rng, 3)
    m = message(rng)
    return (
        f'{HEAD_13}{IMPORT_12}\n{e} = create_engine_from_url("sqlite://")\nBase.metadata.create_all({e})\n'
        f"{t} = SqlAlchemyEffectTransaction({e})\n{_env(rng, v)}\n\n\n"
        f'class {f}(Exception):\n    pass\n\n\nfired = {{"done": False}}\n\n\n'
        f"def {ls}(conn, cursor, statement, parameters, context, executemany):\n"
        f'    if not fired["done"] and statement.strip().upper().startswith("INSERT INTO BUSINESS_TASKS"):\n'
        f'        fired["done"] = True\n        raise {f}\n\n\n'
        f'event.listen({e}, "before_cursor_execute", {ls})\n\n\n'
        f"def rows(model):\n    with Session({e}) as s:\n        return s.scalar(select(func.count()).select_from(model))\n\n\n"
        f'{c[0]}\ntry:\n    apply_notification_once({v}, {t})\nexcept {f}:\n    print("failed as planned")\n'
        f'else:\n    raise AssertionError("{m}")\n'
        f"assert rows(NotificationReceipt) == 0\nassert rows(BusinessTask) == 0\n{c[1]}\n"
        f"again = apply_notification_once({v}, {t})\nassert again is True\n"
        f"assert rows(NotificationReceipt) == 1\nassert rows(BusinessTask) == 1\n{c[2]}\n"
        f"third = apply_notification_once({v}, {t})\nassert third is False\n"
        f"assert rows(NotificationReceipt) == 1\nassert rows(BusinessTask) == 1\nprint(again, third)\n"
    )


STYLES: dict[str, list[Callable[[random.Random], str]]] = {
    "EX-11-01": [ex11_unrolled_fields, ex11_unrolled_tuples, ex11_loop, ex11_helper,
                 ex11_unittest, ex11_pytest_style, ex11_dict],
    "EX-12-01": [ex12_plain, ex12_raw_sql, ex12_helper, ex12_unittest, ex12_orm_query],
    "EX-13-01": [ex13_list_flag, ex13_class_listener, ex13_unittest, ex13_steps],
}  # fmt: skip
PER_EXERCISE = 16


# --- copies --------------------------------------------------------------------------------


def pad_no_ops(text: str) -> str:
    """``_ = None`` after every statement line, ``pass`` here and there."""
    out = []
    for i, line in enumerate(text.splitlines()):
        out.append(line)
        stripped = line.strip()
        indent = line[: len(line) - len(line.lstrip())]
        ends_block = stripped.endswith((":", ",", "(", "[", "{", "\\")) or not stripped
        opens = line.count("(") + line.count("[") + line.count("{")
        closes = line.count(")") + line.count("]") + line.count("}")
        if (
            not ends_block
            and opens == closes
            and not stripped.startswith(("@", "#", "else", "except", "elif"))
        ):
            out.append(f"{indent}{'_ = None' if i % 2 else 'pass'}")
    return "\n".join(out) + "\n"


def wrap_if_true(text: str) -> str:
    """Every top-level statement after the imports inside ``if True:``."""
    lines = text.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith(("from ", "import "))) + 1
    body = ["    " + line if line else "" for line in lines[start:]]
    return "\n".join([*lines[:start], "if True:", '    "just checking"', *body]) + "\n"


def split_asserts(text: str) -> str:
    """``assert (a, b) == (c, d)`` -> two asserts; ``assert x and y`` -> two asserts."""

    def tuples(match: re.Match[str]) -> str:
        indent, left, right = match.group(1), match.group(2), match.group(3)
        lefts, rights = [p.strip() for p in left.split(",")], [p.strip() for p in right.split(",")]
        if len(lefts) != len(rights):
            return match.group(0)
        return "\n".join(f"{indent}assert {a} == {b}" for a, b in zip(lefts, rights, strict=True))

    text = re.sub(r"^( *)assert \(([^()]*)\) == \(([^()]*)\).*$", tuples, text, flags=re.M)
    return re.sub(
        r"^( *)assert (.+?) and (.+?)(, .*)?$",
        lambda m: f"{m.group(1)}assert {m.group(2)}\n{m.group(1)}assert {m.group(3)}",
        text,
        flags=re.M,
    )


def reorder_cases(text: str) -> str:
    """Blocks separated by blank lines after the imports, in reverse order where they are
    independent cases (EX-11-01's unrolled probes); list rows reversed."""
    rows = re.findall(r"^    \(RetryableTaskError.*|^    \(ValueError.*", text, flags=re.M)
    if rows:
        block = "\n".join(rows)
        return text.replace(block, "\n".join(reversed(rows)))
    parts = text.split("\n\n")
    head, cases = parts[:2], parts[2:]
    case_blocks = [p for p in cases if ".decision(" in p and "def " not in p]
    if len(case_blocks) > 1:
        order = iter(reversed(case_blocks))
        cases = [next(order) if p in case_blocks else p for p in cases]
    return "\n\n".join(head + cases)


def rename(text: str, mapping: dict[str, str]) -> str:
    for old, new in mapping.items():
        text = re.sub(rf"\b{re.escape(old)}\b", new, text)
    return text


def recomment(text: str) -> str:
    return re.sub(r"#.*$", "# 我自己写的", text, flags=re.M)


def respace(text: str) -> str:
    return text.replace(" = ", "=").replace("\n\n\n", "\n\n").replace(", ", ",")


COPIES: list[tuple[str, str, list[Callable[[str], str]]]] = [
    ("EX-11-01", "s00", [pad_no_ops]),
    ("EX-11-01", "s01", [split_asserts, recomment]),
    ("EX-11-01", "s02", [reorder_cases, pad_no_ops]),
    ("EX-11-01", "s03", [lambda t: rename(t, {"result": "r"}), wrap_if_true]),
    ("EX-11-01", "s05", [respace, pad_no_ops, split_asserts]),
    ("EX-11-01", "s07", [reorder_cases, respace]),
    ("EX-12-01", "s00", [split_asserts, pad_no_ops]),
    ("EX-12-01", "s01", [wrap_if_true, recomment]),
    ("EX-12-01", "s04", [respace, pad_no_ops]),
    ("EX-13-01", "s00", [pad_no_ops, split_asserts]),
    ("EX-13-01", "s01", [recomment, wrap_if_true]),
    ("EX-13-01", "s03", [respace, pad_no_ops]),
    ("EX-13-01", "s06", [lambda t: rename(t, {"rows": "n_rows"}), split_asserts]),
]


def main(out: Path = HERE, seed: str = "") -> None:
    """``seed``: another draw of the same class (the committed files use the empty one)."""
    for folder in ("honest", "copies"):
        shutil.rmtree(out / folder, ignore_errors=True)
    for exercise, styles in STYLES.items():
        rng = random.Random(f"integrity-{exercise}{seed}")
        target = out / "honest" / exercise
        target.mkdir(parents=True)
        for n in range(PER_EXERCISE):
            style = styles[n % len(styles)]
            text = style(rng)
            compile(text, f"s{n:02d}.py", "exec")
            (target / f"s{n:02d}_{style.__name__}.py").write_text(text, encoding="utf-8")
    for i, (exercise, student, disguises) in enumerate(COPIES):
        [original] = (out / "honest" / exercise).glob(f"{student}_*.py")
        text = original.read_text(encoding="utf-8")
        for disguise in disguises:
            text = disguise(text)
        compile(text, original.name, "exec")
        target = out / "copies" / exercise
        target.mkdir(parents=True, exist_ok=True)
        (target / f"c{i:02d}_of_{student}.py").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE, sys.argv[2] if len(sys.argv) > 2 else "")
