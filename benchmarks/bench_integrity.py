"""``grader integrity`` on a class of 200 students x 6 exercises (1,200 hand-ins).

    python benchmarks/bench_integrity.py                  # 200 students
    python benchmarks/bench_integrity.py --students 400

The gradebook is written directly (no grading run: integrity reads contents only). Code
hand-ins are honest probes drawn from the integrity class's seven styles with each
student's own names, messages and comments (``tests/unit/grader/instructor/term/files/
integrity_class/make_class.py``), with 5% disguised copies; prose answers are built from
a pool of sentences, with 5% near-copies and a few model answers. The real command
(``grader integrity --db ... --root ...``) is timed end to end, three runs, beside the
in-process report alone, and the copies it catches are counted.

Target (issue 31): under 30 s on the course's 2-core machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from grader.instructor.gradebook import Gradebook  # noqa: E402
from grader.instructor.gradebook.entries import GradingKey  # noqa: E402
from grader.instructor.term.integrity import base_texts, integrity_report  # noqa: E402
from grader.instructor.term.store import receipts  # noqa: E402
from grader.judge.exercises import exercise_ids, get_exercise  # noqa: E402
from tests.unit.grader.instructor.gradebook.factories import code_entry, prose_entry  # noqa: E402

GRADER = [str(Path(sys.executable).parent / "grader")]
TARGET_S = 30.0
MAKER = REPO / "tests/unit/grader/instructor/term/files/integrity_class/make_class.py"
SENTENCES = {
    "EX-11-02": [
        "late ACK 让 worker 在任务执行完才确认消息。",
        "worker 在 ack 之前崩溃，broker 会重新投递。",
        "prefetch 决定一个 worker 一次预取多少条消息。",
        "重试由任务自己调用 retry，和重新投递不同。",
        "With late ACK the message is acknowledged after the task returns.",
        "If the worker dies before the ack the broker redelivers the message.",
        "Bounded retries stop after max_retries and send the task to the dead letter queue.",
        "backoff 每次翻倍：5 秒、10 秒。",
        "ValueError 不重试，因为等待修不好格式错误。",
        "所以任务必须幂等。",
        "prefetch_multiplier=1 让长任务不被别的 worker 饿死。",
    ],
}


def _maker() -> object:
    spec = importlib.util.spec_from_file_location("make_class", MAKER)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(path: Path, students: int, seed: int = 31) -> dict[tuple[str, str], str]:
    """Writes the class; returns each copy's (exercise, copier) -> the student copied."""
    maker = _maker()
    rng = random.Random(seed)
    book = Gradebook(f"sqlite:///{path}")
    copies: dict[tuple[str, str], str] = {}
    for exercise in ("EX-11-01", "EX-12-01", "EX-13-01"):
        styles = maker.STYLES[exercise]  # type: ignore[attr-defined]
        texts: dict[str, str] = {}
        for n in range(students):
            student = f"s{n:03d}"
            if n >= 20 and rng.random() < 0.05:
                source = f"s{rng.randrange(n):03d}"
                text = texts[source]
                for disguise in rng.choice(maker.COPIES)[2]:  # type: ignore[attr-defined]
                    text = disguise(text)
                texts[student] = text
                copies[(exercise, student)] = copies.get((exercise, source), source)
            else:
                texts[student] = rng.choice(styles)(rng)
        for student, text in texts.items():
            entry = code_entry(student, text)
            key = GradingKey(student, exercise, entry.key.content_sha256, "f" * 64)
            book.record(replace(entry, key=key))
    pool = SENTENCES["EX-11-02"]
    for exercise in ("EX-11-02", "EX-12-02", "EX-13-02"):
        answers: list[str] = []
        for n in range(students):
            if answers and rng.random() < 0.05:
                text = rng.choice(answers).replace("。", "，", 1)
            else:
                text = "# 答案\n\n" + "\n".join(rng.sample(pool, rng.randint(3, 7))) + "\n"
            answers.append(text)
            entry = prose_entry(f"s{n:03d}", text)
            key = GradingKey(f"s{n:03d}", exercise, entry.key.content_sha256, "f" * 64)
            book.record(replace(entry, key=key))
    book.close()
    return copies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "gradebook.db"
        copies = build(db, args.students)
        book = Gradebook(f"sqlite:///{db}", must_exist=True)
        results, received = book.results(), receipts(book)
        book.close()
        kinds = {e: get_exercise(e).kind for e in exercise_ids()}
        started = time.perf_counter()
        report = integrity_report(results, base_texts(REPO), received, kinds)
        in_process = time.perf_counter() - started
        command = [*GRADER, "integrity", "--db", f"sqlite:///{db}", "--root", str(REPO)]
        command += ["--lang", "en"]
        walls, cpus = [], []
        for _ in range(args.runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            ran = subprocess.run(command, capture_output=True, text=True, check=False)
            walls.append(time.perf_counter() - started)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            if ran.returncode != 0:
                sys.exit(f"grader integrity failed ({ran.returncode}): {ran.stderr[-2000:]}")
    # a pair is a true report when both hand-ins come from one student's file
    root = {**{k: v for k, v in copies.items()}}
    code = [p for p in report.near if p.basis != "prose"]
    true = [
        p for p in code
        if root.get((p.exercise, p.first), p.first) == root.get((p.exercise, p.second), p.second)
    ]  # fmt: skip
    caught = {k for k in copies for p in true if k[0] == p.exercise and k[1] in (p.first, p.second)}
    print(f"class: {args.students} students x 6 exercises = {len(results)} hand-ins")
    print(
        f"disguised code copies planted: {len(copies)}; caught: {len(caught)}; "
        f"code pairs reported: {len(code)}, of them false: {len(code) - len(true)}"
    )
    for pair in code:
        if pair not in true:
            print("  false:", pair.exercise, pair.first, pair.second, pair.basis, pair.evidence)
    print(f"prose near-copies reported: {sum(p.basis == 'prose' for p in report.near)}")
    print(f"integrity_report in process: {in_process:6.2f} s")
    median = statistics.median(walls)
    print(
        f"grader integrity (command):  {median:6.2f} s median of {args.runs} "
        f"(max {max(walls):.2f} s); target {TARGET_S:.0f} s; "
        f"median/target = {median / TARGET_S:.2f}"
    )
    print(
        f"its CPU time (user + sys):   {statistics.median(cpus):6.2f} s median; "
        f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
        "(wall time above this on a shared machine is waiting for a CPU)"
    )


if __name__ == "__main__":
    main()
