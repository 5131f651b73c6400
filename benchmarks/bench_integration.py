"""How long does recovery take on a real worker? The worker-loss scenario, timed.

    python benchmarks/bench_integration.py            # 3 runs, worker-loss scenario
    python benchmarks/bench_integration.py --runs 5

Per run: wall time; worker readiness (start -> answers a ping), cold and after the kill;
pool process SIGKILL -> redelivered attempt starts (Celery's pool maintenance notices the
dead process, then rejects with requeue); whole-worker SIGKILL -> redelivered attempt
starts (includes the restart). No targets: these figures size the bounds the integration
tests wait with (readiness < 30 s, redelivery < 30 s, convergence < 45 s). Each run uses a
throwaway vhost and database; the script says so and exits 2 if a service is unreachable.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ticketflow_lab.cli import DEFAULT_BROKER_URL, DEFAULT_DATABASE_URL, require_reachable
from ticketflow_lab.namespaces import temporary_database, temporary_vhost
from ticketflow_lab.report import ScenarioResult
from ticketflow_lab.scenario import TARGET_POOL, TARGET_WORKER, run_worker_loss


def redelivery_latency(result: ScenarioResult, event_id: str, action_prefix: str) -> float:
    """Seconds from the driver's kill to the start of the redelivered attempt."""
    kill = next(a.time for a in result.actions if a.text.startswith(action_prefix))
    again = next(a.time for a in result.attempts_of(event_id) if a.redelivered)
    return again - kill


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--broker", default=DEFAULT_BROKER_URL)
    parser.add_argument("--database", default=DEFAULT_DATABASE_URL)
    args = parser.parse_args()
    try:
        require_reachable("RabbitMQ", args.broker, 5672, "--broker")
        require_reachable("PostgreSQL", args.database, 5432, "--database")
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    rows = []
    for number in range(1, args.runs + 1):
        began = time.monotonic()
        with (
            temporary_vhost(args.broker, prefix="tf_bench") as vhost,
            temporary_database(args.database, prefix="tf_bench") as database_url,
            tempfile.TemporaryDirectory(prefix="tf-bench-") as workdir,
        ):
            result = run_worker_loss(vhost=vhost, database_url=database_url, workdir=Path(workdir))
        wall = time.monotonic() - began
        row = {
            "wall": wall,
            "ready cold": result.readiness_seconds[0],
            "ready after kill": result.readiness_seconds[1],
            "pool kill -> redelivery": redelivery_latency(result, TARGET_POOL, "SIGKILL pool"),
            "worker kill -> redelivery": redelivery_latency(
                result, TARGET_WORKER, "SIGKILL worker"
            ),
        }
        rows.append(row)
        print(f"run {number}: " + ", ".join(f"{key} {value:.2f}s" for key, value in row.items()))
    print(
        "median: "
        + ", ".join(f"{key} {statistics.median(row[key] for row in rows):.2f}s" for key in rows[0])
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
