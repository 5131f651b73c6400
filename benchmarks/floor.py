"""An exercise's floor: its submissions run bare, as often as the grader runs them.

``measure(exercise_id, sources, jobs=2, parent="cold")`` starts ONE fresh interpreter that
imports the exercise's preload and then forks one process per run, at most ``jobs`` at
once: each run executes a submission as ``__main__`` with the real implementation, no
sandbox, no proxy and no oracle. A submission is run as many times as the exercise has
implementations (the real code, each twin, each mutant: counted from the spec, so a new
mutant counts); as in the grader, once its real run (the first) has failed, none of its
other runs starts, and a run ends at the default wall limit (10 s). The CPU time of every
run comes from ``wait4``.

``parent``: what the interpreter does before its first fork.

* ``"cold"``: imports only (the plain modules of the preload; no warm-up is called);
* ``"preloaded"``: the preload as a fork server does it (warm-ups included);
* ``"probe"``: that, plus one run of the exercise's reference solution in the parent
  itself (a lower bound no fork server may use: a run can read its parent's memory).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PARENTS = ("cold", "preloaded", "probe")

_FLOOR_PROCESS = textwrap.dedent(
    r"""
    import gc, importlib, json, os, signal, sys, tempfile, time
    job = json.loads(sys.stdin.read())
    sys.path[:] = job["sys_path"]
    for entry in job["preload"]:
        module_name, _, function_name = entry.partition(":")
        module = importlib.import_module(module_name)
        if function_name and job["parent"] != "cold":
            getattr(module, function_name)()
    scratch = tempfile.mkdtemp(prefix="grader-floor-")
    os.chdir(scratch)
    codes = [compile(s, job["filename"], "exec") for s in job["sources"]]
    if job["parent"] == "probe":
        null = os.open(os.devnull, os.O_WRONLY)
        saved = os.dup(1)
        os.dup2(null, 1)
        try:
            exec(compile(job["reference"], job["filename"], "exec"), {"__name__": "__main__"})
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
    gc.collect()
    gc.freeze()

    def start(index):
        pid = os.fork()
        if pid == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            signal.alarm(job["wall_seconds"])  # the grader's wall limit ends a hang the same way
            try:
                exec(codes[index], {"__name__": "__main__"})
            except BaseException:
                os._exit(1)
            sys.stdout.flush()
            os._exit(0)
        return pid

    queue = [(i, n) for i in range(len(codes)) for n in range(job["runs"])]
    failed, running = set(), {}
    runs = cpu = 0.0
    real_failed = 0
    began = time.perf_counter()
    while queue or running:
        while queue and len(running) < job["jobs"]:
            index, number = queue.pop(0)
            if index in failed:
                continue
            running[start(index)] = (index, number)
        if not running:
            continue
        pid, status, usage = os.wait4(-1, 0)
        index, number = running.pop(pid)
        runs += 1
        cpu += usage.ru_utime + usage.ru_stime
        if number == 0 and not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
            failed.add(index)
            real_failed += 1
    wall = time.perf_counter() - began
    print(json.dumps({"runs": int(runs), "cpu_seconds": cpu, "wall_seconds": wall,
                      "real_failed": real_failed}))
    """
)


def implementations(exercise_id: str) -> int:
    """How many times the grader runs one submission of ``exercise_id`` (from its spec)."""
    from grader.judge.exercises import get_exercise
    from grader.judge.exercises.spec import CodeExercise

    exercise = get_exercise(exercise_id)
    if not isinstance(exercise, CodeExercise):
        raise ValueError(f"{exercise_id} is not a code exercise")
    return 1 + len(exercise.twins) + len(exercise.mutants)


def reference(exercise_id: str) -> str:
    from grader.judge.exercises import get_exercise

    exercise = get_exercise(exercise_id)
    return (REPO / "solutions" / exercise_id / exercise.student_file).read_text("utf-8")


def measure(
    exercise_id: str, sources: Sequence[str], *, jobs: int = 2, parent: str = "cold"
) -> dict[str, Any]:
    """The floor of ``sources`` (submissions of ``exercise_id``): runs, CPU s, wall s."""
    from grader.judge.exercises import get_exercise
    from grader.judge.exercises.spec import CodeExercise

    if parent not in PARENTS:
        raise ValueError(f"parent must be one of {PARENTS}: {parent!r}")
    exercise = get_exercise(exercise_id)
    assert isinstance(exercise, CodeExercise)
    job = {
        "sys_path": sys.path,
        "preload": [m for m in exercise.all_preload if not m.startswith("grader.")],
        "parent": parent,
        "filename": exercise.student_file,
        "sources": list(sources),
        "reference": reference(exercise_id),
        "runs": implementations(exercise_id),
        "jobs": jobs,
        "wall_seconds": 10,
    }
    if parent != "cold":  # the fork server's own warm-ups (grader code) are part of it
        job["preload"] = list(exercise.all_preload)
    done = subprocess.run(
        [sys.executable, "-I", "-c", _FLOOR_PROCESS],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the floor of {exercise_id} failed: {done.stderr[-2000:]}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    found["implementations"] = job["runs"]
    found["submissions"] = len(sources)
    found["per_run_ms"] = round(1000 * found["cpu_seconds"] / max(1, found["runs"]), 2)
    return found
