"""What a run reports: exit status, uncaught exceptions, output, prelude records (both modes)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, Limits, PreludeError, RunnerError, RunRequest
from grader.runner.model import RUN_ENVIRONMENT

from .helpers import PLUGINS_OF_PYTEST_MAIN, PRELUDES, installed_pytest_plugins, run, server_for

#: The "rlimits" fallback (only where the kernel refuses user namespaces) is held to a few
#: cases: these run in both modes, the rest in "namespaces" only.
BOTH = pytest.mark.parametrize("server", ["namespaces", "rlimits"], indirect=True)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[ForkServer]:
    yield from server_for(getattr(request, "param", "namespaces"))


@BOTH
def test_print_and_exit_zero(server: ForkServer) -> None:
    obs = run(server, "print('hello')\nprint('héllo ✓')\n")
    assert obs.exit_code == 0
    assert obs.signal is None
    assert obs.timed_out is False
    assert obs.limit_hit is None
    assert obs.stdout == "hello\nhéllo ✓\n"
    assert obs.stderr == ""
    assert obs.uncaught is None
    assert obs.records == ()
    assert obs.ok
    assert obs.isolation == server.isolation
    assert 0 < obs.wall_seconds < 2


@pytest.mark.parametrize(
    ("source", "code", "stderr"),
    [
        ("import sys; sys.exit(3)", 3, ""),
        ("import sys; sys.exit()", 0, ""),
        ("import sys; sys.exit(256 + 7)", 7, ""),
        ("import sys; sys.exit(-1)", 255, ""),
        ("import sys; sys.exit('bye now')", 1, "bye now\n"),
        ("raise SystemExit(True)", 1, ""),
    ],
)
def test_system_exit_keeps_its_code(
    server: ForkServer, source: str, code: int, stderr: str
) -> None:
    obs = run(server, source)
    assert obs.exit_code == code
    assert obs.stderr == stderr
    assert obs.uncaught is None


def test_os_exit_keeps_printed_lines(server: ForkServer) -> None:
    source = "import os, sys\nprint('kept: stdout is line-buffered')\nsys.stdout.write('lost')\n"
    source += "os._exit(0)\n"
    obs = run(server, source)
    assert obs.exit_code == 0
    assert obs.stdout == "kept: stdout is line-buffered\n"
    obs = run(server, "import os\nos._exit(42)")
    assert obs.exit_code == 42


@BOTH
def test_assertion_error_is_reported_with_trimmed_traceback(server: ForkServer) -> None:
    source = "def check(x):\n    assert x == 2, f'x was {x}'\n\n\ncheck(1)\n"
    obs = run(server, source)
    assert obs.exit_code == 1
    assert obs.uncaught is not None
    assert obs.uncaught["type"] == "AssertionError"
    assert obs.uncaught["module"] == "builtins"
    assert obs.uncaught["message"] == "x was 1"
    assert obs.uncaught["line"] == 2
    tb = obs.uncaught["traceback"]
    assert tb.startswith("Traceback (most recent call last):\n")
    assert 'File "probe.py", line 5, in <module>' in tb
    assert 'File "probe.py", line 2, in check' in tb
    assert tb.rstrip().endswith("AssertionError: x was 1")
    for runner_detail in ("grader", "child.py", "/tmp/", "exec("):
        assert runner_detail not in tb
    assert obs.stderr == tb


def test_library_frames_are_trimmed(server: ForkServer) -> None:
    obs = run(server, "import json\n\njson.loads('{')\n")
    assert obs.uncaught is not None
    assert obs.uncaught["type"] == "JSONDecodeError"
    assert obs.uncaught["module"] == "json.decoder"
    assert obs.uncaught["line"] == 3
    assert "decoder.py" not in obs.uncaught["traceback"]
    assert obs.uncaught["traceback"].count('File "') == 1


def test_chained_exceptions_keep_only_student_frames(server: ForkServer) -> None:
    source = "try:\n    {}['k']\nexcept KeyError as e:\n    raise ValueError('wrapped') from e\n"
    obs = run(server, source)
    assert obs.uncaught is not None
    tb = obs.uncaught["traceback"]
    assert obs.uncaught["type"] == "ValueError"
    assert "KeyError: 'k'" in tb
    assert "direct cause" in tb
    assert 'File "probe.py", line 2' in tb
    assert 'File "probe.py", line 4' in tb


def test_syntax_error(server: ForkServer) -> None:
    obs = run(server, "x = 1\ndef f(:\n    pass\n")
    assert obs.exit_code == 1
    assert obs.uncaught is not None
    assert obs.uncaught["type"] == "SyntaxError"
    assert obs.uncaught["line"] == 2
    assert 'File "probe.py", line 2' in obs.uncaught["traceback"]


def test_keyboard_interrupt_inside_library_code_is_uncaught(server: ForkServer) -> None:
    source = "import os, signal, time\nos.kill(os.getpid(), signal.SIGINT)\ntime.sleep(5)\n"
    obs = run(server, source)
    assert obs.exit_code == 1
    assert obs.uncaught is not None
    assert obs.uncaught["type"] == "KeyboardInterrupt"
    assert obs.wall_seconds < 4


def test_deep_recursion_reports_recursion_error(server: ForkServer) -> None:
    obs = run(server, "def f(n):\n    return f(n + 1)\n\nf(0)\n")
    assert obs.exit_code == 1
    assert obs.uncaught is not None
    assert obs.uncaught["type"] == "RecursionError"
    assert obs.uncaught["line"] == 2
    assert "Previous line repeated" in obs.uncaught["traceback"]
    assert len(obs.uncaught["traceback"]) < 64 * 1024


def test_segfault_reports_signal(server: ForkServer) -> None:
    obs = run(server, "import ctypes\nctypes.string_at(0)\n")
    assert obs.signal == signal.SIGSEGV
    assert obs.exit_code is None
    assert obs.uncaught is None
    assert not obs.ok


def test_stdin_is_empty(server: ForkServer) -> None:
    obs = run(server, "import sys\nprint(repr(sys.stdin.read()))\ninput()\n")
    assert obs.stdout == "''\n"
    assert obs.uncaught is not None and obs.uncaught["type"] == "EOFError"


@BOTH
def test_runs_as_nobody_flag_matches_the_uid(server: ForkServer) -> None:
    uid = int(run(server, "import os; print(os.getuid())").stdout)
    assert server.runs_as_nobody == (uid == 65534)
    if server.isolation == "namespaces":
        assert uid == 65534
    elif os.geteuid() != 0:
        assert uid == os.geteuid()


def test_script_environment(server: ForkServer) -> None:
    source = (
        "import os, sys, json\n"
        "print(json.dumps({'argv': sys.argv, 'file': __file__, 'name': __name__,\n"
        "  'cwd': os.getcwd(), 'env': dict(os.environ), 'path0': sys.path[0],\n"
        "  'grader': sorted(m for m in sys.modules if m.split('.')[0] == 'grader')}))\n"
    )
    obs = run(server, source)
    import json

    seen = json.loads(obs.stdout)
    assert seen["argv"] == ["probe.py"]
    assert seen["name"] == "__main__"
    assert seen["file"] == f"{seen['cwd']}/probe.py"
    assert seen["path0"] == seen["cwd"]
    assert seen["grader"] == []
    assert set(seen["env"]) == {"PATH", "HOME", *RUN_ENVIRONMENT}
    assert seen["env"]["HOME"] == seen["cwd"]
    assert seen["env"]["LANG"] == "C.UTF-8"


def test_pytest_main_in_a_run_loads_no_plugin_installed_beside_the_grader(
    server: ForkServer,
) -> None:
    """The attack: this venv holds pytest plugins (hypothesis, xdist, timeout...) that a
    student's machine may not; a run's ``pytest.main()`` must not load them."""
    assert installed_pytest_plugins(), "the dev venv should hold pytest plugins to refuse"
    obs = run(server, PLUGINS_OF_PYTEST_MAIN)
    assert "PLUGINS []" in obs.stdout.splitlines(), (obs.stdout, obs.stderr)


SEEN_BY_THE_STUDENT = (
    "import os, sys\n"
    "print(os.environ.get('GRADER_PRELUDE_SECRET'), os.environ['HOME'] == os.getcwd())\n"
    "print(sorted(m for m in sys.modules if m.split('.')[0] == 'grader'))\n"
)


def test_what_a_prelude_leaves_in_the_environment_never_reaches_the_student(
    server: ForkServer,
) -> None:
    """The host may make its own environment the student's ahead of time; a prelude that
    changes it must not be able to hand the change on."""
    args = {"name": "GRADER_PRELUDE_SECRET", "value": "s3cr3t"}
    obs = run(server, SEEN_BY_THE_STUDENT, prelude=f"{PRELUDES}:set_environ", prelude_args=args)
    assert obs.records == ({"kind": "environ", "name": "GRADER_PRELUDE_SECRET"},)
    assert obs.stdout.splitlines() == ["None True", "[]"], obs.stderr
    again = run(server, SEEN_BY_THE_STUDENT)  # and the next run starts clean too
    assert again.stdout.splitlines() == ["None True", "[]"], again.stderr


def test_grader_modules_a_prelude_imports_are_gone_before_the_student_starts(
    server: ForkServer,
) -> None:
    """The host may list its grader modules ahead of time; one the prelude imports on top
    must be found and removed all the same."""
    args = {"module": "grader.runner.bench"}
    obs = run(
        server, SEEN_BY_THE_STUDENT, prelude=f"{PRELUDES}:import_grader_module", prelude_args=args
    )
    assert obs.records == ({"kind": "imported", "module": "grader.runner.bench", "new": True},)
    assert obs.stdout.splitlines() == ["None True", "[]"], obs.stderr


def test_non_daemon_threads_and_atexit_run_before_exit(server: ForkServer) -> None:
    source = (
        "import atexit, threading, time\n"
        "atexit.register(print, 'atexit ran')\n"
        "threading.Thread(target=lambda: (time.sleep(0.2), print('thread done'))).start()\n"
    )
    obs = run(server, source)
    assert obs.exit_code == 0
    assert obs.stdout == "thread done\natexit ran\n"


def test_daemon_thread_sleeping_forever_does_not_hold_the_run(server: ForkServer) -> None:
    source = (
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\n"
        "print('main done')\n"
    )
    obs = run(server, source)
    assert obs.exit_code == 0
    assert obs.stdout == "main done\n"
    assert obs.wall_seconds < 2


@BOTH
def test_prelude_records_and_args_arrive(server: ForkServer) -> None:
    args = {"a": 1, "b": [1, 2], "c": {"nested": "ü"}, "d": None}
    obs = run(server, "print('student ran')", prelude=f"{PRELUDES}:record_args", prelude_args=args)
    assert obs.exit_code == 0
    assert obs.records == ({"kind": "args", **args},)
    assert obs.records_dropped == 0


def test_prelude_mutant_sees_student_calls_in_order(server: ForkServer) -> None:
    source = "import math\nprint(math.sqrt(16))\nprint(math.sqrt(9))\n"
    obs = run(server, source, prelude=f"{PRELUDES}:patch_sqrt", prelude_args={"value": 7.0})
    assert obs.stdout == "7.0\n7.0\n"
    assert [dict(r) for r in obs.records] == [{"kind": "sqrt", "x": 16}, {"kind": "sqrt", "x": 9}]


def test_prelude_fixture_files_in_the_workdir_belong_to_the_student(server: ForkServer) -> None:
    source = (
        "import os\n"
        "with open('data.txt', 'a') as f:\n"
        "    f.write(' + student')\n"
        "print(open('data.txt').read(), os.getcwd())\n"
    )
    prelude_args = {"name": "data.txt", "text": "from prelude"}
    obs = run(server, source, prelude=f"{PRELUDES}:make_fixture", prelude_args=prelude_args)
    text, cwd = obs.stdout.split()[:-1], obs.stdout.split()[-1]
    assert " ".join(text) == "from prelude + student", obs.stderr
    assert obs.records == ({"kind": "fixture", "cwd": cwd},)


def test_prelude_records_survive_unencodable_and_oversized_values(server: ForkServer) -> None:
    obs = run(server, "pass", prelude=f"{PRELUDES}:unencodable")
    assert len(obs.records) == 1
    assert obs.records[0]["kind"] == "odd"
    assert obs.records[0]["truncated"] is True


@BOTH
def test_forged_records_are_visible_but_exit_status_stays_truthful(server: ForkServer) -> None:
    source = (
        "import os\n"
        'os.write(3, b\'{"record": {"kind": "mutant_killed"}}\\n\')\n'
        "os.write(3, b'not json\\n')\n"
        'os.write(3, b\'{"uncaught": {"type": "AssertionError", "line": 1}}\\n\')\n'
        "os._exit(0)\n"
    )
    obs = run(server, source)
    assert obs.exit_code == 0
    assert obs.records == ({"kind": "mutant_killed"},)
    assert obs.records_dropped == 1
    assert obs.uncaught is None  # an uncaught claim only counts with exit status 1


def test_student_breaking_builtins_json_stdio_and_signals_cannot_break_the_host(
    server: ForkServer,
) -> None:
    source = (
        "import builtins, json, signal, sys, os\n"
        "for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGALRM):\n"
        "    signal.signal(s, signal.SIG_IGN)\n"
        "json.dumps = json.loads = None\n"
        "json.JSONEncoder = None\n"
        "sys.stdout = sys.stderr = None\n"
        "builtins.print = None\n"
        "os.write = None\n"
        "raise ValueError('still reported')\n"
    )
    obs = run(server, source, prelude=f"{PRELUDES}:record_args", prelude_args={"k": 1})
    assert obs.exit_code == 1
    assert obs.uncaught is not None
    assert obs.uncaught["type"] == "ValueError"
    assert obs.records == ({"kind": "args", "k": 1},)
    assert "ValueError: still reported" in obs.stderr
    follow_up = run(server, "print('host still fine')")
    assert follow_up.stdout == "host still fine\n"


def test_channel_flood_is_capped(server: ForkServer) -> None:
    source = (
        "import os\n"
        'line = b\'{"record": {"kind": "spam", "pad": "\' + b\'x\' * 900 + b\'"}}\\n\'\n'
        "for _ in range(2000):\n"
        "    os.write(3, line)\n"
        "os.write(3, b'x' * 300_000 + b'\\n')\n"
    )
    obs = run(server, source, limits=Limits(record_bytes=100_000))
    assert obs.exit_code == 0
    assert obs.records_truncated is True
    assert 90 <= len(obs.records) <= 110
    assert obs.records_dropped >= 1800


def test_prelude_failure_raises_prelude_error_and_server_survives(server: ForkServer) -> None:
    with pytest.raises(PreludeError, match="bug in the exercise's prelude"):
        run(server, "print('never')", prelude=f"{PRELUDES}:broken")
    with pytest.raises(PreludeError, match="ModuleNotFoundError"):
        run(server, "print('never')", prelude="no_such_module_xyz:f")
    assert run(server, "print(1)").stdout == "1\n"


#: Each run says when it slept (the wall clock, which every run shares), not how long the
#: batch took: on a busy machine the fork and start-up of a run take longer, the overlap not.
SLEEPER = "import time\nstart = time.time()\ntime.sleep(1.5)\nprint({i}, start, time.time())"


@BOTH
def test_run_many_keeps_order_and_runs_in_parallel(server: ForkServer) -> None:
    requests = [RunRequest(SLEEPER.format(i=i), "p.py", limits=Limits()) for i in range(4)]
    results = server.run_many(requests, max_parallel=2)
    said = [r.stdout.split() for r in results]
    assert [words[0] for words in said] == ["0", "1", "2", "3"]
    spans = [(float(start), float(end)) for _, start, end in said]
    at_once = [sum(1 for s, e in spans if s <= start < e) for start, _ in spans]
    assert max(at_once) == 2, spans  # two at a time: never one alone, never three


def test_prelude_error_in_batch_is_raised_after_all_runs(server: ForkServer) -> None:
    good = RunRequest("print('ok')", "p.py")
    bad = RunRequest("print('ok')", "p.py", prelude=f"{PRELUDES}:broken")
    with pytest.raises(PreludeError):
        server.run_many([good, bad, good])
    assert server.run(good).stdout == "ok\n"


def test_runner_error_is_not_raised_for_student_faults(server: ForkServer) -> None:
    for source in ("raise SystemExit(9)", "import os; os.close(3); os.close(1); os.close(2)"):
        obs = run(server, source)
        assert obs.exit_code in (0, 9)
    assert issubclass(PreludeError, RunnerError)


SNOOP = """
import gc, sys
hits = []
def look(obj, where):
    try:
        text = repr(obj)
    except Exception:
        return
    if "SECRET" + "-VARIANT" in text:  # never spelled out: this source itself is in memory
        hits.append(where)
for frame in sys._current_frames().values():
    while frame is not None:
        for name, value in list(frame.f_locals.items()):
            look(value, f"{frame.f_code.co_name}.{name}")
        frame = frame.f_back
for obj in gc.get_objects():
    if isinstance(obj, dict) or type(obj).__name__ in ("RunRequest", "Run"):
        look(obj, type(obj).__name__)
print(sorted(set(hits)))
"""


def test_prelude_args_are_not_left_on_the_stack_or_in_live_objects(server: ForkServer) -> None:
    """The student must not trivially read which mutant it runs against (hostile finding H2).
    (The prelude's own patches stay inspectable: that is for the exercise design to handle.)"""
    requests = [
        RunRequest(SNOOP, "probe.py", prelude=f"{PRELUDES}:whoami", prelude_args={}),
        RunRequest(
            "import time; time.sleep(0.5)",
            "p.py",
            prelude=f"{PRELUDES}:record_args",
            prelude_args={"variant": "SECRET-VARIANT-parallel"},
        ),
    ]
    snoop = RunRequest(
        SNOOP,
        "probe.py",
        prelude=f"{PRELUDES}:record_args",
        prelude_args={"variant": "SECRET-VARIANT-own"},
    )
    results = server.run_many([requests[1], requests[0], snoop], max_parallel=2)
    assert results[1].stdout == "[]\n", results[1].stderr
    assert results[2].stdout == "[]\n", results[2].stderr
