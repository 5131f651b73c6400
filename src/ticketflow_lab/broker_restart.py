"""Durable queues and persistent messages across a broker restart — on a PRIVATE node.

    python -m ticketflow_lab.broker_restart > lessons/captures/broker-restart-rabbitmq.txt

Never run by the tests and never against the shared broker: it starts its own throwaway
RabbitMQ node (its own node name, ports and data folder, removed afterwards), restarts
that node's application with ``rabbitmqctl -n NODE stop_app`` / ``start_app`` and shows
what survived. Needs ``rabbitmq-server`` and ``rabbitmqctl`` on this machine (run as root,
the server drops to the ``rabbitmq`` user; the data folder is handed to that user).

Three messages: a persistent one and a transient one in a durable queue, and a persistent
one in a non-durable queue. Only the first survives: persistence needs both a durable
queue (``durable=True``, Celery's default for its queues) and persistent delivery
(``delivery_mode=2``, ``task_default_delivery_mode="persistent"``).

Output: one line per step, ``[+ S.SSs]`` = seconds since the script started; lesson 14
prints the committed capture and ``tests/notebooks`` checks the order of its steps.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

QUEUES = {"durable": True, "transient": False}  # queue name suffix -> durable
MESSAGES = (  # (queue, delivery_mode, body)
    ("durable", 2, "persistent message in a durable queue"),
    ("durable", 1, "transient message in a durable queue"),
    ("transient", 2, "persistent message in a non-durable queue"),
)
START_TIMEOUT_SECONDS = 60.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _ctl(node: str, *args: str) -> None:
    subprocess.run(["rabbitmqctl", "-n", node, *args], check=True, capture_output=True, timeout=60)


def _wait_running(node: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"rabbitmq-server for {node} exited ({server.returncode})")
        probe = subprocess.run(
            ["rabbitmqctl", "-n", node, "-q", "status"], capture_output=True, timeout=60
        )
        if probe.returncode == 0:
            _ctl(node, "await_startup")
            return
        time.sleep(0.5)
    raise RuntimeError(f"the private node {node} did not start within {START_TIMEOUT_SECONDS} s")


@contextmanager
def private_node() -> Iterator[tuple[str, int]]:
    """A throwaway RabbitMQ node: (node name, AMQP port); stopped and deleted afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="ticketflow-lesson14-rabbit-"))
    node = f"lesson14-{uuid.uuid4().hex[:8]}@localhost"
    port = _free_port()
    for part in ("mnesia", "log"):
        (folder / part).mkdir()
    (folder / "enabled_plugins").write_text("[].\n")
    if os.geteuid() == 0:
        shutil.chown(folder, "rabbitmq", "rabbitmq")
        for path in folder.rglob("*"):
            shutil.chown(path, "rabbitmq", "rabbitmq")
    env = {
        **os.environ,
        "RABBITMQ_NODENAME": node,
        "RABBITMQ_NODE_PORT": str(port),
        "RABBITMQ_DIST_PORT": str(_free_port()),
        "RABBITMQ_MNESIA_BASE": str(folder / "mnesia"),
        "RABBITMQ_LOG_BASE": str(folder / "log"),
        "RABBITMQ_ENABLED_PLUGINS_FILE": str(folder / "enabled_plugins"),
        "RABBITMQ_FEATURE_FLAGS_FILE": str(folder / "feature_flags"),
        "RABBITMQ_PID_FILE": str(folder / "pid"),
        "RABBITMQ_CONFIG_FILE": str(folder / "no-config"),
    }
    server = subprocess.Popen(
        ["rabbitmq-server"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        _wait_running(node, server)
        yield node, port
    finally:
        subprocess.run(["rabbitmqctl", "-n", node, "stop"], capture_output=True, timeout=60)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
        shutil.rmtree(folder, ignore_errors=True)


def run(say: Callable[[str], None]) -> bool:
    from kombu.connection import Connection

    started = time.monotonic()

    def step(text: str) -> None:
        say(f"[+{time.monotonic() - started:6.2f}s] {text}")

    with private_node() as (node, port):
        broker = f"amqp://guest:guest@127.0.0.1:{port}//"
        step(f"private node {node} up on port {port} (the shared broker is not touched)")
        names = {suffix: f"lesson14.{suffix}" for suffix in QUEUES}
        with Connection(broker) as connection:  # type: ignore[no-untyped-call]
            channel: Any = connection.channel()
            version = connection.connection.server_properties.get("version", "?")
            for suffix, durable in QUEUES.items():
                channel.queue_declare(names[suffix], durable=durable, auto_delete=False)
            step(
                f"RabbitMQ {version}: declared {names['durable']} (durable=True) and "
                f"{names['transient']} (durable=False)"
            )
            producer = connection.Producer()
            for suffix, mode, body in MESSAGES:
                producer.publish(body, routing_key=names[suffix], delivery_mode=mode)
                step(f"published to {names[suffix]}, delivery_mode={mode}: {body!r}")
            counts = _settled_counts(channel, names)
            step(f"before the restart: {counts}")
        _ctl(node, "stop_app")
        step(f"rabbitmqctl -n {node} stop_app")
        _ctl(node, "start_app")
        _ctl(node, "await_startup")
        step(f"rabbitmqctl -n {node} start_app")
        survivors: list[str] = []
        with Connection(broker) as connection:  # type: ignore[no-untyped-call]
            channel = connection.channel()
            while (message := channel.basic_get(names["durable"], no_ack=True)) is not None:
                survivors.append(_text(message.body))
            step(f"after the restart, {names['durable']} holds: {survivors}")
            try:
                channel.queue_declare(names["transient"], passive=True)
                step(f"after the restart, {names['transient']} still exists (unexpected)")
                gone = False
            except Exception as error:  # amqp's NotFound (404) closes the channel
                step(f"after the restart, {names['transient']} is gone: {type(error).__name__}")
                gone = True
    step("private node stopped and deleted")
    ok = gone and survivors == [MESSAGES[0][2]]
    say(
        "verdict: "
        + ("only the persistent message in the durable queue survived" if ok else "NOT as expected")
    )
    return ok


def _settled_counts(channel: Any, names: dict[str, str]) -> dict[str, int]:
    """Messages per queue once all three published ones are counted (publishing is async)."""
    deadline = time.monotonic() + 10
    while True:
        counts = {
            suffix: int(channel.queue_declare(name, passive=True).message_count)
            for suffix, name in names.items()
        }
        if sum(counts.values()) >= len(MESSAGES) or time.monotonic() > deadline:
            return counts
        time.sleep(0.05)


def _text(body: bytes | str) -> str:
    return body.decode("utf-8") if isinstance(body, bytes) else body


def main() -> int:
    if not shutil.which("rabbitmq-server") or not shutil.which("rabbitmqctl"):
        print("error: rabbitmq-server and rabbitmqctl are needed on this machine", file=sys.stderr)
        return 2
    import celery
    import kombu

    print(
        f"# broker-restart: {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC; "
        f"Celery {celery.__version__}, kombu {kombu.__version__}; python -m "
        "ticketflow_lab.broker_restart (a private RabbitMQ node; time column: seconds "
        "since the script started)"
    )
    return 0 if run(lambda text: print(text, flush=True)) else 1


if __name__ == "__main__":
    raise SystemExit(main())
