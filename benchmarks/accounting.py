"""Every CPU-second of a batch, as a table: the ledger split with the floor measured beside it.

``accounting(ledger, floors, cost)``: ``ledger`` from ``benchmarks/cpu_ledger.py`` (kernel
figures of each process of the batch), ``floors`` from ``benchmarks/floor.py`` (the
``preloaded`` one), ``cost`` from ``overheads.isolation_cpu`` per code exercise.
"""

from __future__ import annotations

from typing import Any

ROWS = (
    ("own_work", "the runs' own work (preloaded floor)"),
    ("isolation", "isolation (fresh fork + namespaces), per run"),
    ("round_trips_run_side", "round trips, run side (rest of the runs)"),
    ("round_trips_oracle_side", "oracle round trips, oracle side"),
    ("warm_ups", "warm-ups (oracle processes, masters)"),
    ("parent", "the parent's work per result"),
    ("gradebook", "gradebook writes"),
    ("unaccounted", "unaccounted"),
)


def accounting(ledger: dict[str, float], floors: dict[str, Any], cost: dict[str, Any]) -> dict:
    """Every CPU-second of the batch (``cpu_ledger``), split with the floor and the
    per-run isolation and warm-up measured in this run (``overheads.isolation_cpu``).

    The runs' machinery (fork servers, zygotes, runs) is split into the floor, the isolation
    of each run, and the rest: the run's side of the conversation and the prelude. The
    oracle processes into their warm-ups and their answers. ``unaccounted``: the CPU of the
    processes reaped in the chain (main, workers, masters) that their own figures, read
    while they lived, do not hold (their exits)."""
    preloaded = floors["preloaded"]
    exercises = preloaded["exercises"]
    floor_runs = sum(int(found["runs"]) for found in exercises.values())
    floor_subs = sum(int(found["submissions"]) for found in exercises.values())
    isolation = sum(
        found["runs"] * cost[ex]["isolation_ms"] / 1000 for ex, found in exercises.items()
    )
    warm = sum(
        found["submissions"] * cost[ex]["warm_up_ms"] / 1000 for ex, found in exercises.items()
    )
    own = float(preloaded["cpu_seconds"])
    guarantee = own + isolation
    runs, subs = ledger.get("run_count", 0.0), ledger.get("submissions", 0.0)
    iso_batch = runs * isolation / max(1, floor_runs)
    warm_batch = subs * warm / max(1, floor_subs)
    machinery = ledger.get("fork_servers", 0.0) + ledger.get("fork_servers_reaped", 0.0)
    parent = ledger["main"] + ledger["workers"]
    rows = {
        "own_work": own,
        "isolation": iso_batch,
        "round_trips_run_side": machinery - own - iso_batch,
        "round_trips_oracle_side": ledger.get("oracle_processes", 0.0) - warm_batch,
        "warm_ups": warm_batch + ledger.get("masters", 0.0),
        "parent": parent - ledger.get("gradebook", 0.0),
        "gradebook": ledger.get("gradebook", 0.0),
        "unaccounted": ledger["chain"] - parent - ledger.get("masters", 0.0),
    }
    return {
        "cpu_seconds": {name: round(value, 2) for name, value in rows.items()},
        "total_cpu_seconds": round(ledger["total"], 2),
        "guarantee_floor_cpu_seconds": round(guarantee, 2),
        "guarantee_floor": {"preloaded_floor": own, "isolation": round(isolation, 2)},
        "batch_over_guarantee_floor": round(ledger["total"] / guarantee, 3),
        "runs": {"batch": runs, "floor": floor_runs, "submissions": subs},
        "parent_per_result_ms": round(1000 * rows["parent"] / max(1, subs), 2),
        "parent_of_which": {
            "judging (rubric, runs, verdict)": round(ledger["judge"], 2),
            "the dispatcher process": round(ledger["main"], 2),
        },
    }


def print_accounting(found: dict[str, Any]) -> None:
    total = found["total_cpu_seconds"]
    print(f"{'CPU-seconds of the batch':52} {'CPU s':>8} {'share':>6}")
    for name, label in ROWS:
        value = found["cpu_seconds"][name]
        print(f"{label:52} {value:8.2f} {100 * value / total:5.1f}%")
        for part, seconds in found.get(f"{name}_of_which", {}).items():
            print(f"  of which {part[:42]:42} {seconds:8.2f}")
    print(f"{'total (every process of the batch)':52} {total:8.2f}")
    floor_ = found["guarantee_floor"]
    print(
        f"guarantee floor: preloaded floor {floor_['preloaded_floor']:.2f} + isolation"
        f" {floor_['isolation']:.2f} = {found['guarantee_floor_cpu_seconds']:.2f} CPU s;"
        f" batch / guarantee floor = {found['batch_over_guarantee_floor']}"
    )
