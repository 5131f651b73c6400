"""When does a late-ACK worker warn about ``worker_cancel_long_running_tasks_on_connection_loss``?

Lesson 11a used to say: at start-up. Celery 5.x warns (a ``CPendingDeprecationWarning``
from ``Consumer.on_connection_error_after_connected``) only when the broker connection
drops while the setting is off. This demo shows both moments on a real worker
(``lesson14_app``, RabbitMQ, the setting at Celery's default ``False``) whose broker
connection runs through a ``TcpProxy``: the log is read once the worker is ready, again
while a late-ACK task runs, and after the proxy cut the connection.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from ticketflow_lab.forked import in_forked_child
from ticketflow_lab.lesson14_app import CANCEL_ENV
from ticketflow_lab.lesson14_workers import WorkerSet
from ticketflow_lab.live_services import url
from ticketflow_lab.tcp_proxy import TcpProxy
from ticketflow_lab.waiting import wait_until

SETTING = "worker_cancel_long_running_tasks_on_connection_loss"
LOST = "Connection to broker lost"


@dataclass(frozen=True)
class WarningMoments:
    at_ready: bool
    while_running: bool
    after_cut: bool
    connection_lost_logged: bool
    connections_cut: int

    def report(self) -> list[str]:
        return [
            f"{SETTING} = False（Celery 的默认值），任务是晚 ACK",
            f"Worker 启动完成（ready）时，日志里有这条警告：{self.at_ready}",
            f"晚 ACK 任务执行中、连接正常时，有这条警告：{self.while_running}",
            f"代理切断 broker 连接（{self.connections_cut} 条）后，"
            f"日志记下 {LOST!r}：{self.connection_lost_logged}",
            f"断线之后，有这条警告：{self.after_cut}",
        ]


def proxied(broker_url: str, port: int) -> str:
    """The same broker URL, host and port replaced by the proxy's."""
    parts = urlsplit(broker_url)
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@127.0.0.1:{port}" if credentials else f"127.0.0.1:{port}"
    return urlunsplit(parts._replace(netloc=netloc))


def run_warning_moments(folder: Path, *, timeout: float = 20.0) -> WarningMoments:
    """``observe_warning_moments`` in a forked child (``forked.in_forked_child``)."""
    return in_forked_child(observe_warning_moments, folder, timeout=timeout)


def observe_warning_moments(folder: Path, *, timeout: float = 20.0) -> WarningMoments:
    broker = url("RabbitMQ")
    parts = urlsplit(broker)
    with (
        TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5672) as proxy,
        WorkerSet(
            folder,
            broker_url=proxied(broker, proxy.port),
            prefix="lesson14.warn",
            extra_env={CANCEL_ENV: "0"},
        ) as workers,
    ):
        (node,) = workers.start("warn")
        log = workers.workers[node].log
        at_ready = SETTING in log.text()
        workers.send("lesson14.hold", "running-when-cut")
        workers.wait_entry(
            lambda e: e["kind"] == "started", timeout=timeout, what="the task to start"
        )
        while_running = SETTING in log.text()
        cut = proxy.cut()
        wait_until(lambda: SETTING in log.text(), timeout=timeout, what="the warning after the cut")
        result = WarningMoments(
            at_ready=at_ready,
            while_running=while_running,
            after_cut=SETTING in log.text(),
            connection_lost_logged=LOST in log.text(),
            connections_cut=cut,
        )
        workers.kill(node)  # the held task would keep a warm shutdown waiting
    return result
