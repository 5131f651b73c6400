"""Whatever a run writes on its channel (fd 3) or forges on its status pipe, the host survives.

A bad record is a dropped claim (``records_dropped``), never an exception in the host; one
run's bad output neither fails ``run_many`` for the other runs nor kills the server.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, RunRequest
from grader.runner.channel import MAX_DEPTH, ChannelReader, parse_claim
from grader.runner.protocol import FrameDecoder, encode
from tests.unit.grader.runner.helpers import run, server_for

DEEP = b"[" * 5000 + b"]" * 5000
SURROGATE = b'"\\ud800"'  # JSON text for a lone surrogate: valid JSON, unencodable as UTF-8

#: Each line is one attack a student can write to fd 3.
ATTACKS = {
    "deep record": b'{"record": {"kind": "x", "v": ' + DEEP + b"}}",
    "deep uncaught": b'{"uncaught": {"type": "E", "v": ' + DEEP + b"}}",
    "just deep": DEEP,
    "record nested past the limit": b'{"record": {"kind": "x", "v": '
    + b"[" * (MAX_DEPTH + 1)
    + b"]" * (MAX_DEPTH + 1)
    + b"}}",
    "surrogate value": b'{"record": {"kind": "x", "v": ' + SURROGATE + b"}}",
    "surrogate kind": b'{"record": {"kind": ' + SURROGATE + b"}}",
    "surrogate key": b'{"record": {"kind": "x", ' + SURROGATE + b": 1}}",
    "surrogate uncaught": b'{"uncaught": {"type": ' + SURROGATE + b', "message": "m"}}',
    "invalid utf-8": b'{"record": {"kind": "\xff\xfe"}}',
    "10,000-digit int": b'{"record": {"kind": "x", "v": ' + b"9" * 10_000 + b"}}",
}


@pytest.mark.parametrize("line", ATTACKS.values(), ids=ATTACKS.keys())
def test_a_bad_line_is_dropped_not_raised(line: bytes) -> None:
    reader = ChannelReader(cap=1 << 20)
    reader.feed(line + b"\n" + b'{"record": {"kind": "good"}}\n')
    reader.close()
    assert reader.records == [{"kind": "good"}]
    assert reader.uncaught is None
    assert reader.dropped == 1


def test_parse_claim_keeps_honest_records() -> None:
    line = json.dumps({"record": {"kind": "call", "result": [True, 5, None], "e": "中文 ok"}})
    assert parse_claim(line.encode()) == {
        "record": {"kind": "call", "result": [True, 5, None], "e": "中文 ok"}
    }
    assert parse_claim(b"[1]") is None  # a claim is always an object


def test_encode_never_raises_on_a_lone_surrogate() -> None:
    frame = encode({"op": "result", "text": "a\ud800b"})
    (message,) = FrameDecoder().feed(frame)
    assert message["text"] == "a?b"


ATTACK_SOURCE = """
import os
for line in {lines!r}:
    os.write(3, line + b"\\n")
os.write(3, b'{{"record": {{"kind": "after"}}}}\\n')
print("done")
"""


@pytest.fixture(params=["namespaces", "rlimits"])
def server(request: pytest.FixtureRequest) -> Iterator[ForkServer]:
    yield from server_for(request.param)


def test_channel_attacks_end_as_dropped_claims_and_spare_the_other_runs(
    server: ForkServer,
) -> None:
    hostile = RunRequest(ATTACK_SOURCE.format(lines=list(ATTACKS.values())), "probe.py")
    honest = RunRequest('import os\nos.write(3, b\'{"record": {"kind": "ok"}}\\n\')\n', "p.py")
    bad, good = server.run_many([hostile, honest], max_parallel=2)
    assert bad.exit_code == 0 and bad.stdout == "done\n", bad.stderr
    assert bad.records == ({"kind": "after"},)
    assert bad.records_dropped == len(ATTACKS)
    assert good.records == ({"kind": "ok"},)
    assert server.alive
    assert run(server, "print('still serving')").stdout == "still serving\n"


FORGE_STATUS = """
import os
sup = os.getppid()
lines = [b"[" * 5000 + b"]" * 5000, b'{"exit": 99999999999999999999999}',
         b'{"started": 1}', b'{"exit": "\\\\ud800", "cpu": "x", "maxrss": []}']
for name in os.listdir(f"/proc/{sup}/fd"):
    try:
        fd = os.open(f"/proc/{sup}/fd/{name}", os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        continue
    for line in lines:
        try:
            os.write(fd, line + b"\\n")
        except OSError:
            pass
    os.close(fd)
print("forged")
"""


def test_forged_status_lines_are_ignored() -> None:
    """In rlimits mode a student with the host's uid can write to its supervisor's status
    pipe: junk there must neither crash the host nor make it signal pid 1 or the host."""
    with ForkServer(isolation="rlimits") as server:
        obs = run(server, FORGE_STATUS)
        assert obs.stdout == "forged\n", obs.stderr
        assert obs.exit_code == 0
        assert server.alive
        assert run(server, "print('still serving')").stdout == "still serving\n"
