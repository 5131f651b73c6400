"""How fast is feedback? ``grader check`` cold, and ``check()`` in a warm notebook kernel.

    python benchmarks/bench_check.py             # 10 runs each (median reported)
    python benchmarks/bench_check.py --runs 20

Targets (issue #5), twin and mutant runs included (the real run first, then the rest):
  * ``grader check EX-11-01`` (a new process each time)  < 0.5 s
  * ``grader check EX-12-01`` (a new process each time)  < 1.0 s
  * ``check()`` in a warm kernel (2nd+ call, same process) < 0.3 s

Every run grades the reference solution placed at the student's path in a throwaway copy
of the course, so the real run and every twin and mutant run happen (and it must pass).
Each cold ``grader check`` is followed by a bare ``python <probe>`` of the same file (the
probe run once, no grader), so the two are measured side by side on the same machine
state; the ratio of their medians is printed (issue 23: EX-12-01 at most 1.8x).

Every process it starts may write and read the bytecode cache (``CHILD_ENV``), as on a
student's machine after the first check, whatever this process's environment says: with
``PYTHONDONTWRITEBYTECODE`` set (as in some sandboxes), each cold check compiled the
grader's own modules again (54 ms on 2 cores: 1.84x where the cached tree gives 1.67x).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGETS = {"EX-11-01": 0.5, "EX-12-01": 1.0, "EX-13-01": None}
WARM_TARGET = 0.3
#: Cold ``grader check`` over a bare run of the same probe, at most (issue 23).
BARE_RATIO = {"EX-12-01": 1.8}
#: The environment of every process measured: this one's, with the bytecode cache allowed.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

WARM_SCRIPT = """
import json, sys, time
from grader import check
exercise, runs = sys.argv[1], int(sys.argv[2])
first = check(exercise)
assert first.status == "passed", first
times = []
for _ in range(runs):
    start = time.perf_counter()
    report = check(exercise)
    times.append(time.perf_counter() - start)
    assert report.status == "passed", report
print(json.dumps(times))
"""


def prepare_course(folder: Path) -> Path:
    shutil.copytree(REPO / "exercises", folder / "exercises")
    for exercise_id in TARGETS:
        source = next((REPO / "solutions" / exercise_id).iterdir())
        shutil.copyfile(source, folder / "exercises" / exercise_id / source.name)
    return folder


def probe_path(course: Path, exercise_id: str) -> Path:
    name = next((REPO / "solutions" / exercise_id).iterdir()).name
    return course / "exercises" / exercise_id / name


def grader_command() -> list[str]:
    script = Path(sys.executable).parent / "grader"
    return [str(script)] if script.exists() else [sys.executable, "-m", "grader"]


CPU: dict[str, list[float]] = {}
#: Wall times of the bare ``python <probe>`` run after each cold check, per exercise.
BARE: dict[str, list[float]] = {}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold(course: Path, exercise_id: str, runs: int) -> list[float]:
    """Wall time per run; CPU time of the whole process tree goes to CPU[exercise_id]."""
    times = []
    for _ in range(runs):
        cpu = _children_cpu()
        start = time.perf_counter()
        done = subprocess.run(
            [*grader_command(), "check", exercise_id, "--json"],
            cwd=course,
            capture_output=True,
            text=True,
            env=CHILD_ENV,
        )
        times.append(time.perf_counter() - start)
        CPU.setdefault(exercise_id, []).append(_children_cpu() - cpu)
        status = json.loads(done.stdout)["status"] if done.stdout else done.stderr
        if done.returncode != 0 or status != "passed":
            raise SystemExit(f"{exercise_id}: expected a pass, got {status!r}")
        BARE.setdefault(exercise_id, []).append(bare(course, exercise_id))
    return times


def bare(course: Path, exercise_id: str) -> float:
    """One bare ``python <probe>`` of the same file, from the course root (wall seconds)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(probe_path(course, exercise_id).relative_to(course))],
        cwd=course,
        capture_output=True,
        text=True,
        env=CHILD_ENV,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{exercise_id}: the bare probe failed: {done.stderr[-500:]}")
    return elapsed


def warm(course: Path, exercise_id: str, runs: int) -> list[float]:
    done = subprocess.run(
        [sys.executable, "-c", WARM_SCRIPT, exercise_id, str(runs)],
        cwd=course,
        capture_output=True,
        text=True,
        env=CHILD_ENV,
        check=True,
    )
    return [float(t) for t in json.loads(done.stdout.strip().splitlines()[-1])]


def line(label: str, times: list[float], target: float | None) -> str:
    median = statistics.median(times)
    verdict = "" if target is None else ("  OK" if median < target else "  TOO SLOW")
    limit = "" if target is None else f" (target < {target:.1f} s)"
    return (
        f"{label:<38} median {median:6.3f} s  min {min(times):6.3f}  max {max(times):6.3f}"
        f"{limit}{verdict}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--only", choices=sorted(TARGETS), help="measure one exercise only")
    args = parser.parse_args()
    chosen = {k: v for k, v in TARGETS.items() if args.only in (None, k)}
    with tempfile.TemporaryDirectory(prefix="bench-check-") as folder:
        course = prepare_course(Path(folder))
        results = []
        for exercise_id, target in chosen.items():
            cold(course, exercise_id, 1)  # the page and bytecode caches, not the process
            CPU.pop(exercise_id)
            BARE.pop(exercise_id)
            results.append(
                (f"grader check {exercise_id} (cold)", cold(course, exercise_id, args.runs), target)
            )
        for exercise_id in [e for e in ("EX-11-01", "EX-12-01") if e in chosen]:
            results.append(
                (
                    f"check('{exercise_id}') (warm kernel)",
                    warm(course, exercise_id, args.runs),
                    WARM_TARGET,
                )
            )
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    python = sys.version.split()[0]
    print(f"{args.runs} runs each, python {python}, {os.cpu_count()} CPUs, load {load}")
    slow = False
    for label, times, target in results:
        print(line(label, times, target))
        slow |= target is not None and statistics.median(times) >= target
    for exercise_id, cpu in CPU.items():
        median = statistics.median(cpu)
        print(f"  CPU time, all processes, grader check {exercise_id}: median {median:.3f} s")
    checks = {label: times for label, times, _ in results}
    for exercise_id, times in BARE.items():
        print(line(f"python {probe_path(course, exercise_id).name} (bare)", times, None))
        ratio = statistics.median(checks[f"grader check {exercise_id} (cold)"])
        ratio /= statistics.median(times)
        limit = BARE_RATIO.get(exercise_id)
        verdict = "" if limit is None else (" OK" if ratio <= limit else " TOO SLOW")
        shown = "" if limit is None else f" (target <= {limit:.1f}x)"
        print(f"  grader check {exercise_id} cold / bare probe: {ratio:.2f}x{shown}{verdict}")
        slow |= limit is not None and ratio > limit
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
