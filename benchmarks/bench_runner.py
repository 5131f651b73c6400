"""Sandbox runner overheads (host start, per-run cost, the shape of one `grader check`).

    python benchmarks/bench_runner.py

A thin wrapper: the measurement lives beside the runner in ``grader.runner.bench``.
"""

from grader.runner.bench import main

if __name__ == "__main__":
    main()
