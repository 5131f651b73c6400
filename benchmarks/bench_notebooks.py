"""Wall time of each lesson notebook, run top to bottom on a fresh kernel (target: < 20 s).

    python benchmarks/bench_notebooks.py                # 3 runs of each lesson, median
    python benchmarks/bench_notebooks.py --runs 5 --only 12
    python benchmarks/bench_notebooks.py --live         # lesson 14 with the real services

Measured the way tests/notebooks runs them: nbclient, a new kernel of this interpreter per
run, the notebook's folder as the working directory. Kernel start-up and shutdown are
included (a student pays them too); the "empty notebook" line shows how much that is.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import nbformat

from tests.notebooks.kernel import execute, execute_file, lesson_notebooks

TARGET_SECONDS = 20.0  # issue 22: each notebook under 20 s headless, embedded default


def time_once(path: Path | None) -> float:
    started = time.perf_counter()
    if path is None:
        empty = nbformat.v4.new_notebook()
        empty.cells = [nbformat.v4.new_code_cell("pass")]
        execute(empty, cwd=Path.cwd())
    else:
        execute_file(path)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", help="run only lessons whose file name starts with this")
    parser.add_argument(
        "--live", action="store_true", help="let lesson 14's live cells use the real services"
    )
    args = parser.parse_args()
    if not args.live:  # the embedded default: lesson 14's live cells skip in one line
        os.environ["TICKETFLOW_LESSON_SERVICES"] = "none"
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    targets: list[tuple[str, Path | None]] = [("empty notebook (kernel only)", None)]
    targets += [
        (path.name, path)
        for path in lesson_notebooks()
        if args.only is None or path.name.startswith(args.only)
    ]
    print(f"{args.runs} run(s) each, fresh kernel per run, python {sys.version.split()[0]}")
    print(f"{'notebook':<50} {'median':>7} {'min':>7} {'max':>7}  target < {TARGET_SECONDS:.0f} s")
    over = 0
    for name, path in targets:
        times = [time_once(path) for _ in range(args.runs)]
        median = statistics.median(times)
        verdict = "" if path is None else ("ok" if median < TARGET_SECONDS else "OVER")
        if args.live and path is not None:  # the target is for the embedded default
            verdict = "live services: no target"
        over += verdict == "OVER"
        print(f"{name:<50} {median:>6.2f}s {min(times):>6.2f}s {max(times):>6.2f}s  {verdict}")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
