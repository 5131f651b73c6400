"""How long prose scoring takes on adversarial answers (target: a 2 MiB answer < 1 s).

Run: .venv/bin/python benchmarks/bench_rubric.py
Prints one line per (exercise, attack, size): wall seconds, CPU seconds (the figure to
compare between two runs on a shared machine), provisional score, engine.
The old rubric backtracked: EX-12-02's "crash…between" took 58 s on 10 KB.
"""

from __future__ import annotations

import time

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric import score_answer
from grader.judge.rubric.patterns import engine
from grader.judge.starters import starter_template
from grader.judge.statements import statement_text

ATTACKS = {
    "retr": "retr",
    "retry-zh": "retry重试 ",
    "crash": "crash",
    "crash-between": "crash between ",
    "ack-zh": "未ack之前重投，",
    "stop": "。",
    # The polarity reader: markers and denials everywhere (issue 31).
    "attributed": "有人说重投，",
    "denied-next": "重投。这种情况其实不会发生。",
    "myth-en": "It is a myth that the loser waits: ",
}
SIZES = {"10KB": 10 * 1024, "100KB": 100 * 1024, "2MiB": 2 * 1024 * 1024}


def main() -> None:
    print(f"engine: {engine()}")
    worst = 0.0
    for exercise_id in ("EX-11-02", "EX-12-02", "EX-13-02"):
        spec = get_exercise(exercise_id)
        assert isinstance(spec, ProseExercise)
        template = starter_template(exercise_id)
        statement = statement_text(exercise_id)
        for attack, unit in ATTACKS.items():
            for label, size in SIZES.items():
                text = (unit * (size // len(unit) + 1))[:size]
                start, cpu = time.perf_counter(), time.process_time()
                result = score_answer(spec, text, template, statement=statement)
                seconds = time.perf_counter() - start
                cpu = time.process_time() - cpu
                worst = max(worst, seconds)
                print(
                    f"{exercise_id} {attack:14} {label:6} {seconds:7.3f} s  cpu {cpu:7.3f} s  "
                    f"score {result.score:g}/{spec.max_score:g}  capped={result.capped} "
                    f"timed_out={result.timed_out}"
                )
    print(f"worst: {worst:.3f} s")


if __name__ == "__main__":
    main()
