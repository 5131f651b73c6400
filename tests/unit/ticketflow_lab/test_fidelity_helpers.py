"""The pure parts of the issue-33 lesson demos: what their reports conclude from what data.

The demos themselves run in the notebooks (tests/notebooks/test_fidelity.py checks the
observed values); here each conclusion is shown to follow from its data, both ways.
"""

from __future__ import annotations

import socket
import threading

from ticketflow_lab.connection_loss import WarningMoments, proxied
from ticketflow_lab.course_commands import LOCAL_SELECTOR, shown, without_timing
from ticketflow_lab.observability import describe_article_stats
from ticketflow_lab.pickle_message import PickleMessageRun
from ticketflow_lab.redelivery_loop import MAX_ATTEMPTS, LoopRun
from ticketflow_lab.tcp_proxy import TcpProxy


def test_the_pickle_message_fate_follows_the_broker_not_the_log() -> None:
    rejected = PickleMessageRun(
        log_levels=["ERROR"],
        discarded_said=True,
        left_in_work_queue=0,
        dead_letters=[{"reason": "rejected", "from_work_queue": True, "content_type": "x"}],
        marker_exists=False,
    )
    assert rejected.fate() == "rejected"
    assert "消息的去向：rejected（rejected = basic.reject，不退回队列）" in rejected.report()
    assert PickleMessageRun(left_in_work_queue=1).fate() == "requeued"
    assert PickleMessageRun(left_in_work_queue=0).fate() == "acked"  # gone, no dead letter


def loop(**fields: object) -> LoopRun:
    base: dict[str, object] = {
        "guarded": True,
        "runs": MAX_ATTEMPTS + 1,
        "crashes": MAX_ATTEMPTS,
        "crashes_before_fix": MAX_ATTEMPTS,
        "pids": MAX_ATTEMPTS + 1,
        "still_queued": 0,
        "dead_letters": [("evt", "redelivery_limit", MAX_ATTEMPTS + 1)],
        "attempts_counted": MAX_ATTEMPTS + 1,
        "retries_seen": [0] * MAX_ATTEMPTS,
    }
    return LoopRun(**{**base, **fields})  # type: ignore[arg-type]


def test_the_loop_counts_as_bounded_only_when_the_guard_ended_it() -> None:
    assert loop().bounded
    assert loop().report()[-1] == "  重投循环被守卫终止：True"
    assert not loop(runs=MAX_ATTEMPTS + 2).bounded  # ran again after the guard
    assert not loop(still_queued=1).bounded  # the message was not ACKed
    assert not loop(dead_letters=[]).bounded  # no trace of the given-up event


def test_the_unguarded_loop_report_says_it_goes_on() -> None:
    fields = {"guarded": False, "runs": 6, "crashes": 5, "crashes_before_fix": 5, "pids": 6}
    going_on = loop(**fields, retries_seen=[0] * 5)
    assert [line.endswith("：True") for line in going_on.report()] == [True, True, True, True]
    assert loop(**{**fields, "crashes_before_fix": 2}).report()[0].endswith("：False")
    assert loop(**fields, still_queued=1).report()[2].endswith("：False")  # never ACKed
    assert loop(**fields, retries_seen=[0, 1]).report()[3].endswith("：False")


def test_the_warning_report_names_each_moment() -> None:
    lines = WarningMoments(False, False, True, True, 2).report()
    assert "Worker 启动完成（ready）时，日志里有这条警告：False" in lines
    assert "断线之后，有这条警告：True" in lines


def test_proxied_keeps_credentials_and_vhost() -> None:
    url = "amqp://guest:guest@127.0.0.1:5672/vhost"
    assert proxied(url, 4000) == "amqp://guest:guest@127.0.0.1:4000/vhost"
    assert proxied("amqp://localhost//", 4000) == "amqp://127.0.0.1:4000//"


def test_the_proxy_forwards_and_cut_drops_the_connection() -> None:
    upstream = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def echo() -> None:
        conn, _ = upstream.accept()
        accepted.append(conn)
        while data := conn.recv(1024):
            conn.sendall(data)

    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    with TcpProxy("127.0.0.1", upstream.getsockname()[1]) as proxy:
        client = socket.create_connection(("127.0.0.1", proxy.port), timeout=5)
        client.sendall(b"ping")
        assert client.recv(4) == b"ping"
        assert proxy.cut() == 1
        assert client.recv(4) == b""  # the peer closed: the connection dropped
        client.close()
    thread.join(timeout=5)
    upstream.close()
    for conn in accepted:
        conn.close()


def test_article_stats_agree_only_with_the_article_config() -> None:
    stats = {
        "pool": {"max-concurrency": 4, "processes": [1, 2, 3, 4], "timeouts": [300.0, 360.0]},
        "prefetch_count": 4,
    }
    assert describe_article_stats(stats)[-1] == "与文章的配置一致：True"
    default = {**stats, "pool": {**stats["pool"], "timeouts": [15.0, 20.0]}}
    assert describe_article_stats(default)[-1] == "与文章的配置一致：False"


def test_pytest_timing_is_removed_and_the_rest_kept() -> None:
    assert without_timing(".   [100%]\n1 passed in 0.41s\n") == [".   [100%]", "1 passed"]
    assert without_timing("1 passed in 61.81s (0:01:01)") == ["1 passed"]
    assert without_timing("\x1b[32m1 passed\x1b[0m\x1b[32m in 0.1s\x1b[0m") == ["1 passed"]
    assert shown(LOCAL_SELECTOR).startswith("$ python -m pytest tests/unit/test_messaging_core.py")
