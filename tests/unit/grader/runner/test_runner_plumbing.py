"""Framing, channel parsing, value types, classification and the client's lifecycle."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.runner import (
    ForkServer,
    Limits,
    Observations,
    RunnerError,
    RunRequest,
    client,
    host,
    report,
    run_once,
    sandbox,
)
from grader.runner.channel import MAX_LINE, ChannelReader
from grader.runner.protocol import MAX_FRAME, FrameDecoder, encode

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
)


@given(st.lists(st.dictionaries(st.text(), json_values, max_size=4), max_size=4), st.data())
def test_frames_survive_any_chunking(
    messages: list[dict[str, object]], data: st.DataObject
) -> None:
    wire = b"".join(encode(m) for m in messages)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=6)))
    decoder, got = FrameDecoder(), []
    for start, end in zip([0, *cuts], [*cuts, len(wire)], strict=True):
        got += decoder.feed(wire[start:end])
    assert got == messages
    assert decoder.pending == 0


def test_bad_frames_raise_runner_error() -> None:
    with pytest.raises(RunnerError, match="frame of"):
        FrameDecoder().feed((MAX_FRAME + 1).to_bytes(4, "big"))
    with pytest.raises(RunnerError, match="bad JSON"):
        FrameDecoder().feed(b"\x00\x00\x00\x03{x}")
    with pytest.raises(RunnerError, match="not a JSON object"):
        FrameDecoder().feed(b"\x00\x00\x00\x02[]")


def test_channel_reader_parses_records_drops_junk_and_caps() -> None:
    reader = ChannelReader(cap=60)
    reader.feed(b'{"record": {"kind": "a", "n": 1}}\n{"record": {"ki')
    reader.feed(b'nd": "b"}}\nnot json\n{"record": {"no_kind": 1}}\n[1]\n\n')
    reader.feed(b'{"uncaught": {"type": "E"}}\n{"record": {"kind": "over the cap"}}\n')
    reader.feed(b"x" * (MAX_LINE + 10))
    reader.feed(b'tail of the long line\n{"uncaught":{"type":"Late"}}\n{"record": {"kind": "c"}}')
    reader.close()
    assert reader.records == [{"kind": "a", "n": 1}, {"kind": "b"}]
    assert reader.uncaught == {"type": "Late"}  # still parsed past the cap
    assert reader.truncated is True
    assert reader.dropped == 6  # junk, no kind, list, over cap, long line, "c" over cap


def test_observations_round_trip_through_json() -> None:
    obs = Observations(
        exit_code=1,
        signal=None,
        timed_out=False,
        limit_hit=None,
        stdout="out",
        stderr="err",
        stdout_truncated=False,
        stderr_truncated=False,
        records=({"kind": "x", "v": [1, 2]},),
        uncaught={"type": "AssertionError", "message": "", "traceback": "tb", "line": 3},
        wall_seconds=0.25,
        isolation="rlimits",
        cpu_time=0.1,
    )
    data = json.loads(json.dumps(obs.to_json()))
    assert Observations.from_json(data) == obs
    assert Observations.from_json({**data, "from_a_newer_host": 1}) == obs


def test_request_and_limits_validation() -> None:
    for bad in ("", ".", "..", "dir/probe.py", "a\0b"):
        with pytest.raises(ValueError):
            RunRequest("pass", bad)
    with pytest.raises(ValueError, match=r"pkg\.module:function"):
        RunRequest("pass", "p.py", prelude="no_colon")
    with pytest.raises(ValueError):
        Limits(wall_seconds=0)
    with pytest.raises(ValueError):
        Limits(memory_bytes=-1)
    request = RunRequest("pass", "p.py", prelude="m:f", prelude_args={"a": [1]}, limits=Limits(3))
    assert RunRequest.from_json(json.loads(json.dumps(request.to_json()))) == request


@pytest.mark.parametrize(
    ("kill", "sig", "uncaught", "cpu", "expected"),
    [
        ("output", signal.SIGKILL, None, None, "output"),
        ("wall", signal.SIGKILL, None, None, "wall"),
        (None, signal.SIGXCPU, None, 1.0, "cpu"),
        (None, signal.SIGKILL, None, 1.5, "cpu"),
        (None, signal.SIGXFSZ, None, None, "file_size"),
        (None, None, {"type": "MemoryError"}, None, "memory"),
        (
            None,
            None,
            {"type": "OSError", "message": "[Errno 27] File too large"},
            None,
            "file_size",
        ),
        (None, None, {"type": "BlockingIOError", "traceback": "os.fork()"}, None, "processes"),
        (
            None,
            None,
            {"type": "RuntimeError", "message": "can't start new thread"},
            None,
            "processes",
        ),
        (None, None, {"type": "AssertionError"}, None, None),
        (None, signal.SIGSEGV, None, 0.1, None),
    ],
)
def test_limit_classification(
    kill: str | None,
    sig: int | None,
    uncaught: dict[str, str] | None,
    cpu: float | None,
    expected: str | None,
) -> None:
    assert report.classify(kill, sig, uncaught, cpu, 1) == expected


def test_namespaces_demand_fails_clearly_when_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "namespaces_unavailable", lambda: "no CAP_SYS_ADMIN here")
    with pytest.raises(RunnerError, match="isolation='namespaces' is not available: no CAP"):
        host.choose_isolation("namespaces")
    assert host.choose_isolation("auto") == "rlimits"
    assert host.choose_isolation("rlimits") == "rlimits"


def test_bad_isolation_and_bad_preload() -> None:
    with pytest.raises(ValueError):
        ForkServer(isolation="chroot")
    with pytest.raises(RunnerError, match="no_such_module_for_preload"):
        ForkServer(preload=["no_such_module_for_preload"], isolation="rlimits")


def test_unserialisable_request_is_a_value_error_and_leaves_the_server_usable() -> None:
    with ForkServer(isolation="rlimits") as server:
        bad = RunRequest("pass", "p.py", prelude="m:f", prelude_args={"x": object()})
        with pytest.raises(ValueError, match="JSON"):
            server.run(bad)
        assert server.run(RunRequest("print(1)", "p.py")).stdout == "1\n"


def test_host_sys_path_never_contains_the_cwd(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", ["", ".", str(tmp_path), "/usr/lib/python3.11", "rel/dir"])
    assert client.host_sys_path() == [client._GRADER_ROOT, "/usr/lib/python3.11"]


def test_run_once() -> None:
    obs = run_once(RunRequest("print(6 * 7)", "p.py"), isolation="rlimits")
    assert obs.stdout == "42\n"


def test_host_death_is_a_runner_error() -> None:
    with ForkServer(isolation="rlimits") as server:
        assert server.alive
        os.kill(server.pid, signal.SIGKILL)
        with pytest.raises(RunnerError):
            server.run(RunRequest("print(1)", "p.py"))
        assert not server.alive
        with pytest.raises(RunnerError, match=r"not usable|exited"):
            server.run(RunRequest("print(1)", "p.py"))


def test_import_chain_stays_light() -> None:
    code = (
        "import sys, grader.runner\n"
        "heavy = {'celery', 'sqlalchemy', 'rich', 'kombu', 'ctypes'} & set(sys.modules)\n"
        "print(sorted(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"


def test_preload_entry_with_a_function_is_called_once_in_the_host() -> None:
    entry = "tests.unit.grader.runner.preludes:warm_up"
    source = "import sys\nprint(sys.modules['tests.unit.grader.runner.preludes'].WARM_UPS)\n"
    with ForkServer(preload=[entry], isolation="rlimits") as server:
        first, second = server.run_many([RunRequest(source, "p.py"), RunRequest(source, "p.py")])
    assert (first.stdout, second.stdout) == ("1\n", "1\n")
    with pytest.raises(RunnerError, match="no_such_warm_up"):
        ForkServer(
            preload=["tests.unit.grader.runner.preludes:no_such_warm_up"], isolation="rlimits"
        )


def test_a_promoted_request_starts_next() -> None:
    """``promote``: after a run that hit its wall limit, the named request starts next (the
    grader starts the real run then: a probe hanging on it costs two limits, not one a wave)."""
    hang = RunRequest("import time\ntime.sleep(30)\n", "probe.py", limits=Limits(wall_seconds=1))
    clock = RunRequest(
        "import time\nprint(time.monotonic())\n", "probe.py", limits=Limits(wall_seconds=10)
    )
    with ForkServer(isolation="rlimits") as server:
        results = server.run_until(
            [hang, clock, clock, clock, clock],
            max_parallel=1,
            promote=lambda index, run: 4 if run.timed_out else None,
        )
    assert results[0] is not None and results[0].timed_out
    started = [float(run.stdout) for run in results[1:] if run is not None]
    assert len(started) == 4 and started[3] < min(started[:3]), started  # 4 ran before 1, 2, 3
