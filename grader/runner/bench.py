"""Runner timing figures: ``python -m grader.runner.bench [--runs N]``.

Prints host start time (light preload and ``sqlalchemy.orm``), per-run overhead in each
available isolation mode, and a simulated ``grader check`` (start + 5 runs, 2 in parallel).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Callable, Sequence

from grader.runner import sandbox
from grader.runner.client import ForkServer
from grader.runner.master import Master
from grader.runner.model import RunRequest

TRIVIAL = RunRequest("pass", "bench.py")
USES_ORM = RunRequest("import sqlalchemy.orm\nprint('ok')", "bench.py")


def _timed(action: Callable[[], object], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return samples


def _line(label: str, samples: Sequence[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    return (
        f"{label:<58} median {statistics.median(ms):8.1f} ms"
        f"   min {ms[0]:7.1f}   max {ms[-1]:7.1f}   (n={len(ms)})"
    )


def _start_stop(mode: str, preload: Sequence[str]) -> None:
    ForkServer(preload=preload, isolation=mode).close()


def _tree_cpu(mode: str, runs: int) -> float:
    """CPU seconds of a server's whole process tree (host, zygote, every run and its PID 1),
    from start to close, with ``runs`` runs of 'pass' (2 at once). Each is reaped by its
    parent, so it all ends up in our children's rusage; other processes' load does not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with ForkServer(isolation=mode) as server:
        server.run_many([TRIVIAL] * runs, max_parallel=2)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_per_run(mode: str, runs: int, repeat: int = 3) -> list[float]:
    """CPU per 'pass' run: a server with ``runs`` runs minus one with none, over ``runs``."""
    return [(_tree_cpu(mode, runs) - _tree_cpu(mode, 0)) / runs for _ in range(repeat)]


def measure(mode: str, runs: int, starts: int) -> None:
    print(f"--- isolation={mode}")
    print(_line("CPU per run 'pass' (the server's whole tree)", cpu_per_run(mode, runs)))
    for preload in ((), ("sqlalchemy.orm",)):
        samples = _timed(lambda: _start_stop(mode, preload), starts)  # noqa: B023
        print(_line(f"host start+stop, preload={list(preload)}", samples))
    with ForkServer(isolation=mode) as server:
        server.run(TRIVIAL)
        print(_line("run 'pass', sequential", _timed(lambda: server.run(TRIVIAL), runs)))
        batch = [TRIVIAL] * 10
        total = _timed(lambda: server.run_many(batch, max_parallel=2), max(1, runs // 10))
        print(_line("run 'pass', per run in batches of 10 (2 parallel)", [t / 10 for t in total]))
        orm = _timed(lambda: server.run(USES_ORM), 5)
        print(_line("run 'import sqlalchemy.orm' without preload", orm))
    with ForkServer(isolation=mode, preload=["sqlalchemy.orm"]) as server:
        server.run(USES_ORM)
        orm = _timed(lambda: server.run(USES_ORM), runs)
        print(_line("run 'import sqlalchemy.orm' with preload=sqlalchemy.orm", orm))

    def check() -> None:
        with ForkServer(isolation=mode, preload=["json"]) as server:
            server.run_many([TRIVIAL] * 5, max_parallel=2)

    print(_line("grader-check shape: start + 5 runs (2 parallel) + close", _timed(check, 5)))
    measure_master(mode, runs, starts)


def measure_master(mode: str, runs: int, starts: int) -> None:
    """A fresh server per student: from a warm master, versus starting a host."""
    preload = ["sqlalchemy.orm"]
    samples = _timed(lambda: Master(preload=preload, isolation=mode).close(), starts)
    print(_line(f"master start+stop, preload={preload}", samples))
    with Master(preload=preload, isolation=mode) as master:
        master.server().close()
        servers: list[ForkServer] = []
        ready = _timed(lambda: servers.append(master.server()), runs)
        for server in servers:
            server.close()
        print(_line("per-student server ready, from a warm master", ready))

        def student() -> None:
            with master.server() as server:
                server.run_many([USES_ORM] * 5, max_parallel=2)

        print(_line("per-student server + 5 runs (2 parallel) + close", _timed(student, 5)))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=40, help="runs per per-run figure")
    parser.add_argument("--starts", type=int, default=5, help="host starts per start figure")
    args = parser.parse_args(argv)
    reason = sandbox.namespaces_unavailable()
    if reason:
        print(f"namespaces unavailable ({reason}); measuring rlimits only")
    for mode in ["rlimits"] if reason else ["namespaces", "rlimits"]:
        measure(mode, args.runs, args.starts)


if __name__ == "__main__":
    main()
